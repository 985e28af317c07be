/**
 * Kept answers sent before Fastify: the HTTP server's request listener first tries to answer a
 * `GET` of a route whose answers are kept (src/http/answer-cache.ts, `GET /conjugate`) with the
 * bytes kept for its query string, when everything the Fastify path would do with that request is
 * known at once: the instance is not shutting down, the key is in the key cache and may be used,
 * and the meter counts the request without a round trip (a key without a limit under group
 * commit). Then it writes what the Fastify path writes for it: status 200, the security headers,
 * `x-request-id` (the caller's when it looks like an id), the CORS headers, content type and
 * length, the body, and the same log line. Any other request, and any of these that is not known
 * at once, is left to Fastify untouched (nothing counted, nothing written), which answers it as
 * before. Fastify's routing, request and reply objects and hook passes are what this saves: they
 * were most of a kept answer's cost (docs/benchmarks.md).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { KeyService } from '../access/key-service.js';
import type { Meter } from '../access/meter.js';
import { keptBody, type AnswerCache } from './answer-cache.js';
import { redactSecrets } from './log-redaction.js';

export interface EarlyAnswerDeps {
  keys: KeyService;
  meter: Meter;
  /** The header lines written before `x-request-id` (the security headers), lower-case names, as name, value, name, value. */
  leading: readonly string[];
  /** The header lines after `x-request-id` for a request with this `Origin` (the CORS headers), as name, value, … */
  cors: (origin: string | undefined) => readonly string[];
  /** The request id Fastify would give this request. */
  requestId: (request: IncomingMessage) => string;
  /** True once the instance is shutting down (its answers then say so, through Fastify). */
  closing: () => boolean;
  /** The app's logger, for the request's log line. */
  log: () => FastifyBaseLogger;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** The routes whose kept answers are sent before Fastify, and the listener that sends them. */
export class EarlyAnswers {
  readonly #routes = new Map<string, AnswerCache>();
  #deps: EarlyAnswerDeps | undefined;

  /** Answers kept for `path` (the route's full path, prefix included, no trailing slash) may be sent early. */
  serve(path: string, cache: AnswerCache): void {
    this.#routes.set(path, cache);
  }

  /** What a request needs, set once the app is built; before that no request is answered early. */
  use(deps: EarlyAnswerDeps): void {
    this.#deps = deps;
  }

  /** Answers `request` with a kept answer and returns true, or touches nothing and returns false. */
  answer(request: IncomingMessage, response: ServerResponse): boolean {
    const deps = this.#deps;
    if (deps === undefined || request.method !== 'GET' || this.#routes.size === 0) return false;
    const start = performance.now();
    const url = request.url ?? '';
    const question = url.indexOf('?');
    const cache = question < 0 ? undefined : this.#routes.get(url.slice(0, question));
    if (cache === undefined || deps.closing()) return false;
    const body = keptBody(cache, url);
    if (body === undefined) return false;
    const principal = deps.keys.cachedPrincipal(request.headers.authorization);
    // A key with a daily limit is counted by a round trip (and its answers carry RateLimit headers): Fastify's.
    if (principal === undefined || principal.limits.dailyQuota !== null) return false;
    let reading;
    try {
      reading = deps.meter.consumeImmediately(principal);
    } catch {
      return false; // not counted: Fastify counts it again and answers the failure
    }
    // Not counted (the counter needs a round trip): Fastify's. A key without a limit is always allowed.
    if (reading === undefined) return false;
    const id = deps.requestId(request);
    const headers = [...deps.leading, 'x-request-id', id, ...deps.cors(request.headers.origin), 'content-type', JSON_TYPE, 'content-length', String(body.length)];
    response.writeHead(200, headers);
    response.end(body);
    // Fastify's line (src/http/app.ts, OneLinePerRequest), written once the body is handed to the socket.
    deps.log().info({ reqId: id, method: 'GET', url: redactSecrets(url), statusCode: 200, responseTime: performance.now() - start }, 'request completed');
    return true;
  }
}
