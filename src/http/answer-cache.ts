/**
 * Answers of a GET route whose 200 body depends only on the query string while the process
 * runs (a conjugation: the cartridges are loaded once, at start). The serialised body of a 200
 * is kept by the request's raw query string in a cache bounded in entries (least recently used
 * dropped first), and the same query string is answered with those bytes again: no query
 * validation, engine work or serialisation. Only bodies the route itself produced are kept, so
 * a query string that failed validation or the engine is never answered from here. Everything
 * per request is unchanged (authentication, metering, headers, the log line).
 */
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction, onRequestHookHandler } from 'fastify';

/** Query strings longer than this are answered as usual and not kept (a key is held in memory). */
const MAX_KEY_LENGTH = 512;
/** Bodies longer than this (in characters) are not kept. */
const MAX_BODY_CHARS = 16_384;

const JSON_TYPE = 'application/json; charset=utf-8';

/** Answers kept by key, bounded in entries, the least recently used dropped first (bodies here; the MCP server keeps tool results). */
export class AnswerCache<V = Buffer> {
  readonly #entries = new Map<string, V>();

  constructor(readonly size: number) {}

  get(key: string): V | undefined {
    const answer = this.#entries.get(key);
    if (answer !== undefined) {
      // Most recently used last: the oldest (first) entry is the one dropped.
      this.#entries.delete(key);
      this.#entries.set(key, answer);
    }
    return answer;
  }

  set(key: string, answer: V): void {
    if (this.#entries.has(key)) this.#entries.delete(key);
    else if (this.#entries.size >= this.size) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(key, answer);
  }

  get entries(): number {
    return this.#entries.size;
  }
}

/** The raw query string of `url` (without `?`), or undefined when too long to keep. */
function queryKey(url: string): string | undefined {
  const start = url.indexOf('?');
  const key = start < 0 ? '' : url.slice(start + 1);
  return key.length <= MAX_KEY_LENGTH ? key : undefined;
}

/** The body kept in `cache` for the query string of `url`, if any (src/http/early-answer.ts). */
export function keptBody<V>(cache: AnswerCache<V>, url: string): V | undefined {
  const key = queryKey(url);
  return key === undefined ? undefined : cache.get(key);
}

/** Keeps `answer` in `cache` for the query string of `url` (unless the query string is too long to keep). */
export function keepFor<V>(cache: AnswerCache<V>, url: string, answer: V): void {
  const key = queryKey(url);
  if (key !== undefined) cache.set(key, answer);
}

/**
 * The route hook of an answer cache: an `onRequest` hook, run after the scope's own (security
 * headers, authentication and metering), that answers a query string already answered. It runs
 * in the same pass as those hooks: no validation pass and no hook pass of its own per request.
 * Route options: `{ onRequest: answeredFrom(cache), schema, handler }`, with the handler
 * answering through `sendKept`.
 */
export function answeredFrom(cache: AnswerCache): onRequestHookHandler {
  return function answerKept(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) {
    const key = queryKey(request.url);
    const body = key === undefined ? undefined : cache.get(key);
    // Answered here: the route's validation and handler do not run (a hook that sends calls no `done`).
    if (body !== undefined) void reply.type(JSON_TYPE).send(body);
    else done();
  };
}

/**
 * Sends `value`, the route's 200 answer, serialised by the route's response schema, and keeps
 * the bytes for the request's query string (unless the query string or the body is too long).
 * Called by the handler, so only an answer the route itself produced is kept.
 */
export function sendKept(cache: AnswerCache, request: FastifyRequest, reply: FastifyReply, value: unknown): FastifyReply {
  const text = String(reply.serialize(value));
  const body = Buffer.from(text, 'utf8');
  const key = queryKey(request.url);
  if (key !== undefined && text.length <= MAX_BODY_CHARS) cache.set(key, body);
  return reply.type(JSON_TYPE).send(body);
}
