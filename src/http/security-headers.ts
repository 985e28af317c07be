/**
 * Security headers (CSP, HSTS, nosniff, frame and referrer policies …) computed
 * once with helmet's defaults and our overrides, then set on every reply.
 * @fastify/helmet rebuilds helmet's middleware on every request, which cost about
 * 5% of a metered request in profiles; the headers do not vary per request.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import helmet from 'helmet';

/** The header set helmet would write for `options`. */
export function securityHeaders(options: Parameters<typeof helmet>[0]): Record<string, string> {
  const headers: Record<string, string> = {};
  const capture = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name];
    },
  };
  helmet(options)({} as IncomingMessage, capture as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

/**
 * The CORS headers of a request that is not a preflight, as @fastify/cors writes them for
 * `origins` (`*`, or a list of exact origins) and `exposedHeaders`, with everything that does
 * not vary per request computed once: for `*`, Access-Control-Allow-Origin `*`; for a list,
 * `Vary: Origin` and the caller's Origin when it is listed; in both, Access-Control-Expose-Headers.
 * The plugin itself answers preflights (see app.ts); run per request, it spread its options,
 * made a closure and joined the exposed headers again each time.
 */
export function simpleCorsHeaders(origins: readonly string[], exposedHeaders: readonly string[]): (request: FastifyRequest, reply: FastifyReply) => void {
  const linesFor = simpleCorsLines(origins, exposedHeaders);
  return (request, reply) => {
    const lines = linesFor(request.headers.origin);
    for (let i = 0; i < lines.length; i += 2) reply.header(lines[i]!, lines[i + 1]!);
  };
}

/**
 * The CORS header lines of a request with this `Origin`, as name, value, name, value (lower-case
 * names, in the order they are written): what `simpleCorsHeaders` writes on a Fastify reply and
 * src/http/early-answer.ts writes without one. The same array for the same decision.
 */
export function simpleCorsLines(origins: readonly string[], exposedHeaders: readonly string[]): (origin: string | undefined) => readonly string[] {
  const expose = exposedHeaders.join(', ');
  if (origins.includes('*')) {
    const fixed = ['access-control-allow-origin', '*', 'access-control-expose-headers', expose];
    return () => fixed;
  }
  // One array per decision, made once (src/http/early-answer.ts keeps what it derives from each by identity).
  const listed = new Map(origins.map((origin) => [origin, ['vary', 'Origin', 'access-control-allow-origin', origin, 'access-control-expose-headers', expose]]));
  const unlisted = ['vary', 'Origin', 'access-control-expose-headers', expose];
  return (origin) => (origin === undefined ? unlisted : (listed.get(origin) ?? unlisted));
}
