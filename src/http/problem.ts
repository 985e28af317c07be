/**
 * RFC 9457 problem+json for every error the HTTP layer answers: errors raised on
 * purpose (LughaError), validation failures, Fastify's own errors (bad JSON,
 * oversized bodies, unknown routes) and anything unexpected (logged, never leaked).
 */
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorCatalogue, LughaError, problemType, type ErrorCode } from '../errors.js';
import type { Problem } from '../result.js';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json; charset=utf-8';

/** Where in the request a parameter is. */
export type ParameterLocation = 'query' | 'path' | 'body' | 'header';

/** One entry of a problem's `errors` list: a `Problem` (src/result.ts) located in the request, its code the answer's own. */
const parameterProblemSchema = z.object({ in: z.string(), parameter: z.string(), message: z.string(), allowed: z.array(z.unknown()).optional() });

/** One bad input, named so a caller can fix it: the wire form of a `Problem` (the problem body's `errors` entries). */
export type ParameterProblem = z.infer<typeof parameterProblemSchema> & { in: ParameterLocation };

/** A `Problem` blaming a parameter, located `where` in the request: the one mapping to an `errors` entry. */
export function parameterProblem(where: ParameterLocation, problem: Pick<Problem, 'message'> & { parameter: string; allowed?: unknown[] }): ParameterProblem {
  return { in: where, parameter: problem.parameter, message: problem.message, ...(problem.allowed?.length ? { allowed: problem.allowed } : {}) };
}

/** The problem body as documented in OpenAPI. */
export const problemSchema = z
  .looseObject({
    type: z.string().describe('URI reference of the problem type; resolves to its documentation on this service.'),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: z.string().describe('Stable error code; see docs/errors.md.'),
    request_id: z.string(),
    instance: z.string().optional(),
    errors: z.array(parameterProblemSchema).optional(),
    errors_omitted: z.number().int().optional().describe('How many more parameter problems there were than `errors` lists (at most 20 are listed).'),
  })
  .describe('RFC 9457 problem details');

/** Sends `error` as problem+json, keeping headers already set on the reply (rate limits, request id). */
export function sendProblem(request: FastifyRequest, reply: FastifyReply, error: LughaError): FastifyReply {
  const body = {
    type: problemType(error.code),
    title: error.title,
    status: error.status,
    detail: error.detail,
    code: error.code,
    request_id: String(request.id),
    ...error.extensions,
  };
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  return reply.code(error.status).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(body));
}

/**
 * The raw HTTP response for an error of Node's HTTP parser, which comes before any request
 * object: problem+json with a fresh request id and the security headers, then the connection
 * closes. Undefined for a connection that is simply gone (reset, timed out): nothing to answer.
 */
export function parserErrorResponse(error: Error & { code?: string }, headers: Record<string, string>): string | undefined {
  if (error.code === 'ECONNRESET' || error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return undefined;
  const problem =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? new LughaError('headers_too_large', 'the request headers are larger than this service accepts; send fewer or shorter headers')
      : new LughaError('malformed_request', 'the request is not valid HTTP/1.1 (a malformed request line or header, or both Content-Length and Transfer-Encoding)');
  const requestId = randomUUID();
  const body = JSON.stringify({ type: problemType(problem.code), title: problem.title, status: problem.status, detail: problem.detail, code: problem.code, request_id: requestId });
  const lines = [
    `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status] ?? 'Error'}`,
    `Content-Type: ${PROBLEM_CONTENT_TYPE}`,
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: ${requestId}`,
    'Connection: close',
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}

/** Fastify error codes that correspond to a catalogue entry. */
const fastifyCodes: Record<string, ErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'invalid_parameter',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid_json',
  FST_ERR_BAD_URL: 'invalid_parameter',
  FST_ERR_MAX_PARAM_LENGTH: 'uri_too_long',
};

/** Details for framework errors whose own message would quote the caller's input at length. */
const frameworkDetail: Record<string, string> = {
  FST_ERR_CTP_EMPTY_JSON_BODY: 'the request body is not valid JSON',
  FST_ERR_CTP_INVALID_JSON_BODY: 'the request body is not valid JSON',
  FST_ERR_BAD_URL: 'the URL is not valid: a path segment has a malformed percent-encoding',
  FST_ERR_MAX_PARAM_LENGTH: 'a path segment is longer than any identifier Lugha issues (256 characters at most)',
};

/** The most parameter problems one answer lists; `errors_omitted` counts the rest. */
export const MAX_ERRORS_LISTED = 20;

/** Translates any error into the catalogue. */
export function toLughaError(error: FastifyError | Error): LughaError {
  if (error instanceof LughaError) return error;
  if (hasZodFastifySchemaValidationErrors(error)) {
    const where = locationOf((error as FastifyError).validationContext);
    // The list is capped (the rest counted), so a body with thousands of bad items gets a short answer.
    const errors = error.validation.slice(0, MAX_ERRORS_LISTED).map((v) => describeIssue(where, v.instancePath, v.keyword, v.message, v.params));
    const omitted = error.validation.length - errors.length;
    const detail = errors.map((e) => `${e.parameter}: ${e.message}`).join('; ') + (omitted > 0 ? `; and ${omitted} more` : '');
    return new LughaError('invalid_parameter', detail, omitted > 0 ? { errors, errors_omitted: omitted } : { errors });
  }
  const code = (error as FastifyError).code;
  if (code && fastifyCodes[code]) {
    const mapped = fastifyCodes[code]!;
    return new LughaError(mapped, frameworkDetail[code] ?? sanitiseMessage(error.message));
  }
  if (error instanceof SyntaxError && (error as FastifyError).statusCode === 400) {
    return new LughaError('invalid_json', 'the request body is not valid JSON');
  }
  const status = (error as FastifyError).statusCode;
  if (status === 405) return new LughaError('method_not_allowed', 'this route does not accept that method');
  if (status === 413) return new LughaError('payload_too_large', 'the request body is too large');
  if (status === 415) return new LughaError('unsupported_media_type', 'send JSON with Content-Type: application/json');
  if (status !== undefined && status >= 400 && status < 500) return new LughaError('invalid_parameter', sanitiseMessage(error.message));
  return new LughaError('internal_error', 'something went wrong on our side; quote the request_id when you report it');
}

function locationOf(context: string | undefined): ParameterLocation {
  if (context === 'params') return 'path';
  if (context === 'headers') return 'header';
  if (context === 'body') return 'body';
  return 'query';
}

function describeIssue(where: ParameterLocation, instancePath: string, keyword: string, message: string | undefined, params: Record<string, unknown>): ParameterProblem {
  const path = instancePath.replace(/^\//, '').replaceAll('/', '.');
  const parameter = path || (where === 'body' ? '(body)' : '(all)');
  if (keyword === 'unrecognized_keys') {
    // Named in full (items.0.colour), so a caller finds the key in a nested body.
    const keys = ((params.keys as string[] | undefined) ?? []).map((key) => (path ? `${path}.${key}` : key));
    return parameterProblem(where, { parameter: keys.join(', '), message: `unknown parameter${keys.length === 1 ? '' : 's'}` });
  }
  const problem = parameterProblem(where, { parameter, message: message ?? 'invalid value' });
  if (Array.isArray(params.values)) problem.allowed = params.values;
  // A union of an enumeration and another spelling of it (a query's 'true' or JSON's true): list the enumeration.
  if (keyword === 'invalid_union' && Array.isArray(params.errors)) {
    const nested = (params.errors as Array<Array<{ values?: unknown[] }>>).flat();
    const allowed = nested.flatMap((issue) => (Array.isArray(issue.values) ? issue.values : []));
    if (allowed.length > 0) {
      problem.allowed = allowed;
      problem.message = `expected one of ${allowed.map((v) => JSON.stringify(v)).join(', ')}`;
    }
  }
  return problem;
}

/** Fastify's messages can quote internals (stack-free, but long); keep them short and single-line. */
function sanitiseMessage(message: string): string {
  return message.replace(/\s+/g, ' ').slice(0, 200);
}

/**
 * Installs the error and not-found handlers on the root instance; call before
 * any route is registered, so that a wrong method on a known path gets 405 and Allow.
 */
export function installProblemHandling(app: FastifyInstance): void {
  const routes: Array<{ pattern: RegExp; methods: string[] }> = [];
  app.addHook('onRoute', (route) => {
    if (route.url === '*' || route.url === '/*') return; // CORS preflight catch-all
    const pattern = new RegExp(
      `^${route.url
        .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
        .replace(/:[^/]+/g, '[^/]+')
        .replace(/\*/g, '.*')}/?$`,
    );
    const methods = ([] as string[]).concat(route.method);
    routes.push({ pattern, methods });
  });
  const notFound = (request: FastifyRequest): LughaError => {
    const path = request.url.split('?')[0] ?? '';
    const allowed = new Set(routes.filter((r) => r.pattern.test(path)).flatMap((r) => r.methods));
    if (allowed.size > 0 && !allowed.has(request.method)) {
      const allow = [...allowed].sort().join(', ');
      return new LughaError('method_not_allowed', `${request.method} is not allowed here; use ${allow}`, {}, { Allow: allow });
    }
    return new LughaError('route_not_found', `no route ${request.method} ${sanitiseMessage(path)}; see /docs`);
  };
  app.setErrorHandler((error: FastifyError, request, reply) => {
    // A body that fails to parse on a path with no route is still a 404 (or 405), not a 400.
    const problem = request.is404 ? notFound(request) : toLughaError(error);
    if (problem.status >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.info({ code: problem.code }, 'request refused');
    return sendProblem(request, reply, problem);
  });
  app.setNotFoundHandler((request, reply) => sendProblem(request, reply, notFound(request)));
}

/** Documentation-only response entries for the errors a route may answer with. */
export function problemResponses(...codes: ErrorCode[]): Record<number, unknown> {
  const out: Record<number, unknown> = {};
  for (const code of codes) {
    const { status, title } = errorCatalogue[code];
    const existing = out[status] as { description: string } | undefined;
    out[status] = {
      description: existing ? `${existing.description}; ${title}` : title,
      content: { 'application/problem+json': { schema: problemSchema } },
    };
  }
  return out;
}
