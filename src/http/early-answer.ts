/**
 * Kept answers sent before Fastify: the HTTP server's request listener first tries to answer a
 * `GET` or `HEAD` of a route whose answers are kept with the bytes kept for its query string,
 * when everything the Fastify path would do with that request is known at once: the instance is
 * not shutting down, the key is in the key cache and may be used, and the meter counts the request
 * without a round trip (a key without a limit under group commit). Two kinds of route:
 *  - kept bodies (src/http/answer-cache.ts, `GET /conjugate`): status 200 and the body;
 *  - static pages (src/http/static-response.ts, `GET /languages`): the page's ETag,
 *    `Cache-Control: no-cache` and `Vary`, then the body, or 304 with no body when the request's
 *    `If-None-Match` names the ETag (counted, as through Fastify).
 * Each is written as the Fastify path writes it: the security headers, `x-request-id` (the
 * caller's when it looks like an id), the CORS headers, the route's own, content type and length,
 * the body (none for `HEAD` and 304), and the same log line. Any other request, and any of these
 * that is not known at once, is left to Fastify untouched (nothing counted, nothing written), which
 * answers it as before. Fastify's routing, request and reply objects and hook passes are what this
 * saves: they were most of a kept answer's cost (docs/benchmarks.md).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { KeyService } from '../access/key-service.js';
import type { Meter } from '../access/meter.js';
import { keptBody, type AnswerCache } from './answer-cache.js';
import { headerLines, writeHeadBlock } from './head-block.js';
import { requestLine } from './log-redaction.js';
import { notModified, staticVary, type StaticBody } from './static-response.js';

export interface EarlyAnswerDeps {
  keys: KeyService;
  meter: Meter;
  /** The header lines written before `x-request-id` (the security headers), lower-case names, as name, value, name, value. */
  leading: readonly string[];
  /**
   * The header lines after `x-request-id` for a request with this `Origin` (the CORS headers), as
   * name, value, …; the same array for the same decision (src/http/security-headers.ts).
   */
  cors: (origin: string | undefined) => readonly string[];
  /** The request id Fastify would give this request. */
  requestId: (request: IncomingMessage) => string;
  /** True once the instance is shutting down (its answers then say so, through Fastify). */
  closing: () => boolean;
  /** The app's logger, for the request's log line. */
  log: () => FastifyBaseLogger;
}

type Route = { pages: false; cache: AnswerCache } | { pages: true; find: (url: string) => StaticBody | undefined };

/**
 * The header lines of an answer for one CORS decision, made once: the security headers,
 * `x-request-id` (its value at `idAt`, filled per request) and the CORS headers; for a static
 * page also `etag` (its value pushed per request) and what follows it.
 */
interface Lines {
  /** Security headers, request id, CORS headers: a kept body's lines before its content headers. */
  kept: readonly string[];
  /** The same, the CORS `vary` with `Authorization` added, then `etag`: a page's lines up to its ETag's value. */
  page: readonly string[];
  /** A page's lines after its ETag: `cache-control`, and `vary` when the CORS headers have none. */
  pageTail: readonly string[];
  /** Where the request id's value goes in `kept` and `page`. */
  idAt: number;
  /** The same lines joined once (src/http/head-block.ts): up to the request id's value, */
  beforeId: string;
  /** after it for a kept body, */
  keptAfterId: string;
  /** after it for a page, up to the ETag's value, */
  pageAfterId: string;
  /** and after the ETag's value. */
  pageAfterEtag: string;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** The header lines of an answer as `writeHead` takes them: the lines of `lines` with the request's own values. */
function headerArray(lines: Lines, id: string, etag: string | undefined, body: Buffer | undefined): string[] {
  let headers: string[];
  if (etag === undefined) headers = lines.kept.slice();
  else {
    headers = lines.page.slice();
    headers.push(etag);
    for (const line of lines.pageTail) headers.push(line);
  }
  headers[lines.idAt] = id;
  if (body !== undefined) headers.push('content-type', JSON_TYPE, 'content-length', String(body.length));
  return headers;
}

/** The routes whose kept answers are sent before Fastify, and the listener that sends them. */
export class EarlyAnswers {
  readonly #routes = new Map<string, Route>();
  /** Header lines by CORS lines (a handful of arrays: one per CORS decision). */
  #lines = new WeakMap<readonly string[], Lines>();
  #deps: EarlyAnswerDeps | undefined;

  /** Answers kept for `path` (the route's full path, prefix included, no trailing slash) may be sent early. */
  serve(path: string, cache: AnswerCache): void {
    this.#routes.set(path, { pages: false, cache });
  }

  /** Static pages of `path` may be sent early, with their ETag (and 304): `find` gives the page kept for a request's URL, if any. */
  servePages(path: string, find: (url: string) => StaticBody | undefined): void {
    this.#routes.set(path, { pages: true, find });
  }

  /** What a request needs, set once the app is built; before that no request is answered early. */
  use(deps: EarlyAnswerDeps): void {
    this.#deps = deps;
    this.#lines = new WeakMap(); // made from the security headers of `deps`
  }

  /** Answers `request` with a kept answer and returns true, or touches nothing and returns false. */
  answer(request: IncomingMessage, response: ServerResponse): boolean {
    const deps = this.#deps;
    const method = request.method;
    if (deps === undefined || (method !== 'GET' && method !== 'HEAD')) return false;
    const start = performance.now();
    const url = request.url ?? '';
    const question = url.indexOf('?');
    const route = this.#routes.get(question < 0 ? url : url.slice(0, question));
    if (route === undefined || deps.closing()) return false;
    const kept = route.pages ? route.find(url) : keptBody(route.cache, url);
    if (kept === undefined) return false;
    const principal = deps.keys.cachedPrincipal(request.headers.authorization);
    // A key with a daily limit is counted by a round trip (and its answers carry RateLimit headers): Fastify's.
    if (principal === undefined || principal.limits.dailyQuota !== null) return false;
    try {
      // Not counted (the counter needs a round trip): Fastify's. A key without a limit is always allowed.
      if (!deps.meter.countImmediately(principal)) return false;
    } catch {
      return false; // not counted: Fastify counts it again and answers the failure
    }
    const id = deps.requestId(request);
    const lines = this.#linesOf(deps, deps.cors(request.headers.origin));
    let status = 200;
    let body: Buffer | undefined;
    let etag: string | undefined;
    if (route.pages) {
      const page = kept as StaticBody;
      etag = page.etag;
      if (notModified(request.headers['if-none-match'], etag)) status = 304;
      else body = page.body;
    } else body = kept as Buffer;
    // The header block joined from lines joined once; `writeHead` with the same lines when Node's response is not the common case.
    const content = body === undefined ? '' : `content-type: ${JSON_TYPE}\r\ncontent-length: ${body.length}\r\n`;
    const block = etag === undefined ? `${lines.beforeId}${id}${lines.keptAfterId}${content}` : `${lines.beforeId}${id}${lines.pageAfterId}${etag}${lines.pageAfterEtag}${content}`;
    if (!writeHeadBlock(response, status, block)) response.writeHead(status, headerArray(lines, id, etag, body));
    // HEAD: the headers of a GET, no body (Node would drop it anyway).
    if (body === undefined || method === 'HEAD') response.end();
    else response.end(body);
    // Fastify's line (src/http/app.ts, OneLinePerRequest), written once the body is handed to the socket.
    requestLine(deps.log())(id, method, url, status, performance.now() - start);
    return true;
  }

  /** The header lines for these CORS lines, made once per CORS decision. */
  #linesOf(deps: EarlyAnswerDeps, cors: readonly string[]): Lines {
    let lines = this.#lines.get(cors);
    if (lines === undefined) {
      const idAt = deps.leading.length + 1;
      const kept = [...deps.leading, 'x-request-id', '', ...cors];
      // As sendStatic does on the Fastify path: Vary named by the CORS headers gets Authorization added, in its place.
      const page = [...kept];
      let varied = false;
      for (let i = idAt + 1; i < page.length; i += 2) {
        if (page[i] !== 'vary') continue;
        page[i + 1] = staticVary(page[i + 1]);
        varied = true;
      }
      page.push('etag');
      const pageTail = varied ? ['cache-control', 'no-cache'] : ['cache-control', 'no-cache', 'vary', staticVary(undefined)];
      const afterId = (from: readonly string[]) => `\r\n${headerLines(from.slice(idAt + 1))}`;
      const beforeId = `${headerLines(kept.slice(0, idAt - 1))}x-request-id: `;
      const pageAfterId = `${afterId(page.slice(0, -1))}etag: `;
      lines = { kept, page, pageTail, idAt, beforeId, keptAfterId: afterId(kept), pageAfterId, pageAfterEtag: `\r\n${headerLines(pageTail)}` };
      this.#lines.set(cors, lines);
    }
    return lines;
  }
}
