/**
 * Builds the HTTP application over the shared services: request ids, structured
 * logs, limits and timeouts, CORS and security headers, problem+json errors, the
 * OpenAPI description, and every route group.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import fastifyCors from '@fastify/cors';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { jsonSchemaTransform, validatorCompiler } from 'fastify-type-provider-zod';
import { createSerializerCompiler } from './serializer.js';
import type { Services } from '../services.js';
import { LughaError } from '../errors.js';
import { installProblemHandling, parserErrorResponse, sendProblem, toLughaError } from './problem.js';
import { audioRoutes } from './routes/audio.js';
import { healthRoutes } from './routes/health.js';
import { osRoutes } from './routes/os.js';
import { mcpRoutes } from './routes/mcp.js';
import { problemRoutes } from './routes/problems.js';
import { v1Routes } from './routes/v1.js';
import { webRoutes } from './routes/web.js';
import { batchedStdout, lazyChildLogger, redactingLoggerOptions, redactSecrets, requestLine } from './log-redaction.js';
import { securityHeaders, simpleCorsHeaders, simpleCorsLines } from './security-headers.js';
import { EarlyAnswers } from './early-answer.js';
import { sendStatic, staticBody, type StaticBody } from './static-response.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/** A request's id: the caller's own X-Request-Id when it looks like an id, so traces join up; otherwise a new UUID. */
function requestIdOf(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/** Headers browsers may read from cross-origin responses. */
const EXPOSED_HEADERS = ['Accept-Ranges', 'Content-Range', 'Content-Length', 'ETag', 'RateLimit', 'RateLimit-Policy', 'Retry-After', 'X-Request-Id', 'WWW-Authenticate', 'Mcp-Session-Id', 'Mcp-Protocol-Version'];
/** Request headers scripts may send: the API's own, and those a browser MCP client sends to /mcp (Streamable HTTP). */
const ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'Range', 'X-Request-Id', 'Mcp-Protocol-Version', 'Mcp-Session-Id', 'Mcp-Method', 'Mcp-Name', 'Last-Event-ID'];

/**
 * Fastify's request logging with one line per request, when its response is done ("request
 * completed", or "request errored" at error level): flat fields (no request or reply object to
 * serialise), the URL scrubbed of keys, written through the app's logger with the request id.
 * Fastify's other request logs (unknown routes, stream and serialiser errors) are kept.
 */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply): void {
    const log = request.server.log;
    if (!error) return requestLine(log)(request.id, request.method, request.url, reply.statusCode, reply.elapsedTime);
    log.error({ reqId: request.id, method: request.method, url: redactSecrets(request.url), statusCode: reply.statusCode, responseTime: reply.elapsedTime, err: error }, 'request errored');
  }
}

const serializerSteps = new WeakMap<FastifyInstance, () => Array<() => void>>();

/**
 * One step per success serialiser of `app` not compiled yet (src/http/serializer.ts): `lugha serve`
 * runs them in its warm-up, so a route's first answer after /readyz does not compile one.
 */
export function pendingSerializerSteps(app: FastifyInstance): Array<() => void> {
  return serializerSteps.get(app)?.() ?? [];
}

export interface AppOptions {
  /** Pino options or an instance; defaults to JSON logs at the configured level. */
  logger?: FastifyServerOptions['logger'];
}

/** The Fastify application, ready to `listen` or to `inject` in tests. */
export async function buildApp(services: Services, options: AppOptions = {}): Promise<FastifyInstance> {
  const { config } = services;
  // Kept answers of GET /conjugate and pages of GET /languages are sent before Fastify when nothing else is needed (src/http/early-answer.ts).
  const early = new EarlyAnswers();
  const app = Fastify({
    // Caller options (a test's stream, a level) go over the redacting defaults, never instead of them.
    // Standard output takes the log lines in batches (BatchedLines) unless the caller gives a stream.
    logger:
      options.logger === undefined || options.logger === true
        ? { ...redactingLoggerOptions(config.logLevel), stream: batchedStdout() }
        : options.logger === false
          ? false
          : { ...redactingLoggerOptions(config.logLevel), stream: batchedStdout(), ...options.logger },
    // One line per request, written when the response is done, instead of Fastify's two.
    logController: new OneLinePerRequest(),
    childLoggerFactory: lazyChildLogger,
    requestIdHeader: false,
    genReqId: requestIdOf,
    // Fastify's own HTTP/1 server (lib/server.js: the same timeouts), whose listener first offers each request to `early`.
    serverFactory: (handler) => {
      const server = createServer((request, response) => {
        if (!early.answer(request, response)) handler(request, response);
      });
      server.keepAliveTimeout = config.keepAliveTimeoutMs;
      server.requestTimeout = config.requestTimeoutMs;
      server.setTimeout(config.requestTimeoutMs * 2);
      return server;
    },
    bodyLimit: config.bodyLimit,
    connectionTimeout: config.requestTimeoutMs * 2,
    requestTimeout: config.requestTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    // Shutdown answers are sent by the hook below, as problem+json.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    trustProxy: config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 256 },
    // A malformed percent-encoding or an over-long path segment fails before routing: still problem+json.
    frameworkErrors: (error, request, reply) => {
      reply.headers(security);
      reply.header('X-Request-Id', request.id);
      // A reply is thenable; fastify does not await this hook's result, so none is returned.
      void sendProblem(request, reply, toLughaError(error));
    },
    // Errors of Node's HTTP parser (431, a malformed request line, Content-Length with
    // Transfer-Encoding) never reach a route: answered here, on the socket, as problem+json.
    clientErrorHandler: (error, socket) => {
      const response = parserErrorResponse(error as Error & { code?: string }, security);
      if (socket.writable && response) socket.end(response);
      else socket.destroy();
    },
  });
  app.setValidatorCompiler(validatorCompiler);
  const serializers = createSerializerCompiler();
  app.setSerializerCompiler(serializers.compiler);
  serializerSteps.set(app, serializers.pendingSteps);
  installProblemHandling(app);

  const security = securityHeaders({
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    contentSecurityPolicy: {
      // No upgrade-insecure-requests: an operator may serve plain HTTP behind a TLS proxy or on a LAN.
      // media-src blob: lets the page at / play clips it fetched with the bearer key (an <audio> cannot send one).
      directives: { defaultSrc: ["'self'"], frameAncestors: ["'none'"], mediaSrc: ["'self'", 'blob:'], objectSrc: ["'none'"], baseUri: ["'self'"], upgradeInsecureRequests: null },
    },
  });
  const cors = simpleCorsHeaders(config.corsOrigins, EXPOSED_HEADERS);
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  early.use({
    keys: services.keys,
    meter: services.meter,
    leading: Object.entries(security).flatMap(([name, value]) => [name.toLowerCase(), value]),
    cors: simpleCorsLines(config.corsOrigins, EXPOSED_HEADERS),
    requestId: requestIdOf,
    closing: () => closing,
    log: () => app.log,
  });
  // A callback hook, not an async one: no promise and no extra turn per request. It also writes
  // the CORS headers of every request but a preflight (answered by @fastify/cors, below).
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(security);
    reply.header('X-Request-Id', request.id);
    if (!closing) {
      if (request.raw.method !== 'OPTIONS') cors(request, reply);
      return done();
    }
    reply.header('Connection', 'close');
    const error = new LughaError('service_unavailable', 'this instance is shutting down; retry in a moment', {}, { 'Retry-After': '5' });
    // Answered here: a hook that sends calls no `done`.
    void sendProblem(request, reply, error);
  });

  // Preflights: @fastify/cors in a scope of its own, holding only its `OPTIONS *` route, so its
  // per-request hook runs for OPTIONS requests alone; other requests get the same CORS headers
  // from the hook above (simpleCorsHeaders).
  await app.register(async (preflights) => {
    await preflights.register(fastifyCors, {
      origin: config.corsOrigins.includes('*') ? '*' : config.corsOrigins,
      methods: ['GET', 'HEAD', 'POST', 'OPTIONS'],
      allowedHeaders: ALLOWED_HEADERS,
      exposedHeaders: EXPOSED_HEADERS,
      maxAge: 600,
      // An OPTIONS request that is not a CORS preflight (no Origin) gets 204 rather than a plain-text 400.
      strictPreflight: false,
    });
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Lugha API',
        version: '1.0.0',
        description: 'Data service for Bantu languages. Linguistic routes live under /api/v1 and are also served under /v1. ' + 'Errors are RFC 9457 problem+json with a stable `code`; see /problems/{type}.',
      },
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key: `Authorization: Bearer lugha_…`' },
        },
      },
      tags: [
        { name: 'audio', description: 'Numeral audio: public coverage, consent manifest and dataset card; bearer-gated, metered clip lists and proxy' },
        { name: 'linguistic', description: 'Morphology over REST; bearer key, metered per UTC day' },
        { name: 'operations', description: 'Health, readiness and error documentation; public' },
        { name: 'status', description: 'Product status: architecture, cartridges and their computed coverage, roadmap; public, read-only' },
      ],
    },
    // The /v1 aliases would duplicate every operation; the description says they exist.
    transform: (input) => (input.url.startsWith('/v1/') ? { schema: { ...input.schema, hide: true }, url: input.url } : jsonSchemaTransform(input)),
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    staticCSP: true,
    // Works offline: no validator badge fetched from outside, no forced HTTPS upgrade.
    transformStaticCSP: (header) => header.replace(' validator.swagger.io', '').replace(' upgrade-insecure-requests;', ''),
    uiConfig: { validatorUrl: null, persistAuthorization: false },
  });

  await app.register(healthRoutes, { services });
  await app.register(problemRoutes);
  await app.register(v1Routes, { services, early, prefix: '/api/v1' });
  await app.register(v1Routes, { services, early, prefix: '/v1' });
  await app.register(audioRoutes, { services, prefix: config.audioBase });
  await app.register(osRoutes, { services, prefix: '/api/os' });
  await app.register(mcpRoutes, { services });
  await app.register(webRoutes, { services });

  // The description is complete once the app is ready: serialised on the first request, then sent as it is (ETag, 304).
  let openapi: StaticBody | undefined;
  app.get('/openapi.json', { schema: { hide: true } }, async (request, reply) => sendStatic(request, reply, (openapi ??= staticBody(JSON.stringify(app.swagger())))));
  return app;
}
