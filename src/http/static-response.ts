/**
 * Responses that never change while the process runs (the language catalogue's pages, the
 * OpenAPI description): serialised once per distinct request, sent with a strong ETag, and
 * answered 304 without a body when the caller already holds that version (If-None-Match).
 */
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

export interface StaticBody {
  /** UTF-8 bytes, encoded once (a string would be encoded again on every write). */
  body: Buffer;
  etag: string;
}

export function staticBody(text: string): StaticBody {
  const body = Buffer.from(text, 'utf8');
  return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"` };
}

/** Bodies by request key, the oldest dropped past `size` (a caller can vary the query at will). */
export class StaticBodies {
  readonly #entries = new Map<string, StaticBody>();

  constructor(private readonly size = 512) {}

  /** The body kept for `key`, if any (nothing built). */
  peek(key: string): StaticBody | undefined {
    return this.#entries.get(key);
  }

  get(key: string, build: () => string): StaticBody {
    let entry = this.#entries.get(key);
    if (!entry) {
      entry = staticBody(build());
      if (this.#entries.size >= this.size) this.#entries.delete(this.#entries.keys().next().value!);
      this.#entries.set(key, entry);
    }
    return entry;
  }
}

/** Whether an If-None-Match header names `etag` (weak comparison, RFC 9110 §13.1.2), or is `*`. */
export function notModified(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  for (const candidate of ifNoneMatch.split(',')) {
    const tag = candidate.trim();
    if (tag === '*' || tag === etag || tag === `W/${etag}`) return true;
  }
  return false;
}

/**
 * The Vary of a static answer: `Authorization` after what the CORS headers already put there
 * (`Origin`, when the allowed origins are a list), or `Authorization` alone.
 */
export function staticVary(corsVary: string | undefined): string {
  return corsVary ? `${corsVary}, Authorization` : 'Authorization';
}

/**
 * Sends `entry` as JSON with its ETag (`Cache-Control: no-cache`: a cache keeps it, and asks
 * again each time), or 304 Not Modified with no body when the caller holds this version.
 * `Vary: Authorization`: a metered answer carries the key's RateLimit headers, and a browser that
 * revalidated another key's cached copy would show that key's quota (a 304 for a key without a
 * limit carries no RateLimit header to replace it). Added to the CORS headers' `Vary: Origin`,
 * not in its place: a cache must not give one origin's answer to another.
 */
export function sendStatic(request: FastifyRequest, reply: FastifyReply, entry: StaticBody, type = 'application/json; charset=utf-8'): FastifyReply {
  reply.header('ETag', entry.etag);
  reply.header('Cache-Control', 'no-cache');
  const vary = reply.getHeader('vary');
  reply.header('Vary', staticVary(typeof vary === 'string' ? vary : undefined));
  if (notModified(request.headers['if-none-match'], entry.etag)) return reply.code(304).send();
  return reply.type(type).send(entry.body);
}
