/**
 * A response's header block written as one string made mostly once, instead of through
 * `writeHead`, for the answers sent before Fastify (src/http/early-answer.ts). `writeHead` checks
 * every header name and value and joins them line by line on every response (Node 20's
 * `_storeHeader` and `processHeader`); here the fixed lines are checked and joined once
 * ({@link headerLines}) and each response adds its own values and what Node adds (`Date`,
 * `Connection: keep-alive`, `Keep-Alive: timeout=…`). The block is handed to Node through the
 * fields `writeHead` itself sets (`_header`, `_headerSent`, Node 20's `_http_outgoing.js`), so
 * Node still writes it with the body in one `writev` and still runs its own end of response
 * (keep-alive, the next request on the socket). Only the common case takes this way: a keep-alive
 * HTTP/1.1 response with no header set before, no request limit per socket, no `Expect`; any
 * other response, and a Node whose fields differ, is written by `writeHead` (test/http-head-block
 * compares the bytes of both on this Node).
 */
import { STATUS_CODES, validateHeaderName, validateHeaderValue, type ServerResponse } from 'node:http';

/** The fields of Node 20's ServerResponse that `writeHead` reads and sets (lib/_http_outgoing.js, lib/_http_server.js). */
interface NodeResponseFields {
  _header: string | null;
  _headerSent: boolean;
  _hasBody: boolean;
  _removedConnection: boolean;
  _defaultKeepAlive: boolean;
  _keepAliveTimeout: number;
  _maxRequestsPerSocket: number;
  _expect_continue: boolean;
  chunkedEncoding: boolean;
  useChunkedEncodingByDefault: boolean;
  maxRequestsOnConnectionReached: boolean;
  shouldKeepAlive: boolean;
  sendDate: boolean;
}

/**
 * Header names whose presence changes what Node adds to a block: never among its lines.
 * (`content-length` may be: with it Node adds no length of its own, nor does the block.)
 */
const NODE_MANAGED = new Set(['connection', 'date', 'expect', 'keep-alive', 'trailer', 'transfer-encoding']);

/**
 * `name: value\r\n` for each pair of `pairs` (name, value, name, value, …), checked as `writeHead`
 * checks them; throws for what `writeHead` would refuse, and for a header Node manages itself.
 */
export function headerLines(pairs: readonly string[]): string {
  let block = '';
  for (let i = 0; i < pairs.length; i += 2) {
    const name = pairs[i]!;
    const value = pairs[i + 1]!;
    validateHeaderName(name);
    validateHeaderValue(name, value);
    if (NODE_MANAGED.has(name.toLowerCase())) throw new Error(`header ${name} is written by Node, not in a fixed header block`);
    block += `${name}: ${value}\r\n`;
  }
  return block;
}

/** Node's `Date` value, made once per second as Node's own `utcDate` (lib/internal/http.js) makes it. */
let utcCache: string | undefined;
function utcDate(): string {
  if (utcCache === undefined) {
    const now = new Date();
    utcCache = now.toUTCString();
    setTimeout(() => (utcCache = undefined), 1000 - now.getMilliseconds()).unref();
  }
  return utcCache;
}

/** The status lines by status (`HTTP/1.1 200 OK\r\n`), as `writeHead` makes them. */
const statusLines = new Map<number, string>();

/**
 * Writes the header block of `response`: its status, then `lines` (made by {@link headerLines},
 * with the response's own values joined in; a response with a body must give its `content-length`
 * there, as Node would otherwise send it chunked), then what Node adds. Returns
 * false, writing nothing, when the response is not the common case this block is made for; the
 * caller then calls `writeHead` with the same headers.
 */
export function writeHeadBlock(response: ServerResponse, status: number, lines: string): boolean {
  const node = response as unknown as NodeResponseFields;
  if (
    node._header !== null ||
    node._headerSent !== false ||
    response.getHeaderNames().length !== 0 ||
    node.sendDate !== true ||
    node.shouldKeepAlive !== true ||
    node.maxRequestsOnConnectionReached !== false ||
    node._removedConnection !== false ||
    node._expect_continue !== false ||
    node.chunkedEncoding !== false ||
    // (A 304 carries no length: Node then keeps the connection alive only when this is set.)
    node.useChunkedEncodingByDefault !== true ||
    node._defaultKeepAlive !== true ||
    typeof node._keepAliveTimeout !== 'number' ||
    node._keepAliveTimeout < 1000 ||
    ~~node._maxRequestsPerSocket > 0
  )
    return false;
  let statusLine = statusLines.get(status);
  if (statusLine === undefined) {
    statusLine = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'unknown'}\r\n`;
    statusLines.set(status, statusLine);
  }
  response.statusCode = status;
  response.statusMessage = STATUS_CODES[status] ?? 'unknown';
  // As writeHead: a 304 has no body (nor a 204 or 1xx, never sent here).
  if (status === 304 || status === 204) node._hasBody = false;
  node._header = `${statusLine}${lines}Date: ${utcDate()}\r\nConnection: keep-alive\r\nKeep-Alive: timeout=${Math.floor(node._keepAliveTimeout / 1000)}\r\n\r\n`;
  node._headerSent = false;
  return true;
}
