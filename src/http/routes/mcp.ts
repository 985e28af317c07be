/**
 * MCP over Streamable HTTP at /mcp: the same tools as `lugha mcp`, one stateless
 * server per request (spec 2026-07-28, with the SDK's stateless fallback for
 * 2025-11-25 clients). Before a request reaches the SDK: the Origin is checked
 * against LUGHA_MCP_ORIGINS (403 origin_not_allowed), the bearer key is
 * authenticated (401), and a tier without MCP is refused (403 not_in_tier).
 * Tool calls are metered one by one inside the server, not per HTTP request. A lone `tools/call`
 * is answered without the SDK's per-request server, byte for byte as the SDK would answer it
 * (src/mcp/http-tool-call.ts); every other request goes to the SDK.
 */
import { createMcpHandler } from '@modelcontextprotocol/server';
import { toWebRequest } from '@modelcontextprotocol/node';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { Principal } from '../../access/key-service.js';
import { LughaError } from '../../errors.js';
import { mcpRefusal } from '../../mcp/access.js';
import { answerToolCall, directToolCall } from '../../mcp/http-tool-call.js';
import { tools } from '../../mcp/registry.js';
import { createLughaMcpServer } from '../../mcp/server.js';
import type { Services } from '../../services.js';
import { principalOf, protect } from '../auth.js';
import { problemResponses, sendProblem } from '../problem.js';
import { bodyLimitOf } from './body-limits.js';

export async function mcpRoutes(app: FastifyInstance, opts: { services: Services }): Promise<void> {
  const { services } = opts;
  const allowedOrigins = new Set(services.config.mcpOrigins);
  const toolsByName = new Map(tools.map((tool) => [tool.name, tool]));
  const onError = (error: unknown, tool: string) => app.log.error({ err: error, tool }, 'MCP tool failed');
  const handler = createMcpHandler(
    (context) => {
      const principal = context.authInfo?.extra?.principal as Principal | undefined;
      if (!principal) throw new Error('MCP request without an authenticated principal');
      return createLughaMcpServer({ services, principal, onError });
    },
    { onerror: (error) => app.log.warn({ err: error }, 'MCP request rejected') },
  );
  app.addHook('onClose', async () => handler.close());

  // Registered before the authentication hook, so a foreign page learns nothing about keys.
  // Both hooks take `done` (no promise per request): a hook that answers calls no `done`, a refusal is handed to `done`.
  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const origin = request.headers.origin;
    if (origin === undefined || allowedOrigins.has(normaliseOrigin(origin))) return done();
    sendProblem(request, reply, new LughaError('origin_not_allowed', `requests to /mcp from the origin ${JSON.stringify(origin.slice(0, 200))} are not allowed; the operator lists allowed origins in LUGHA_MCP_ORIGINS`));
  });
  protect(app, { keys: services.keys });
  app.addHook('preHandler', (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const refusal = mcpRefusal(principalOf(request));
    done(refusal ? new LughaError(refusal.code, refusal.message) : undefined);
  });

  app.route({
    // POST only: the endpoint is stateless, so there is no GET stream and no session to DELETE;
    // those methods get the catalogue's 405 (problem+json, Allow: POST), as the transport spec asks.
    method: ['POST'],
    url: '/mcp',
    bodyLimit: bodyLimitOf('mcp', services.config.bodyLimit),
    schema: {
      tags: ['linguistic'],
      security: [{ bearerAuth: [] }],
      summary: 'MCP (Streamable HTTP)',
      description:
        'The Model Context Protocol endpoint: JSON-RPC over Streamable HTTP, stateless (spec 2026-07-28; 2025-11-25 clients are served without sessions). ' +
        'Academic keys get the read-only tools, Startup and Enterprise keys every tool; each tool call counts one request against the daily quota. See docs/mcp.md.',
      response: problemResponses('key_missing', 'key_malformed', 'key_unknown', 'key_revoked', 'key_rotated', 'key_expired', 'not_in_tier', 'origin_not_allowed'),
    },
    handler: async (request, reply) => {
      const principal = principalOf(request);
      // A lone tools/call is answered directly, as the SDK would answer it (src/mcp/http-tool-call.ts).
      const direct = directToolCall(request.headers, request.body, toolsByName);
      if (direct) {
        const answer = await answerToolCall(direct, { services, authorize: async () => ({ ok: true, principal }), onError });
        // A Buffer: fastify sends it as it is (a string of JSON would get `; charset=utf-8` added, which the SDK does not send).
        return reply.status(200).headers(answer.headers).send(Buffer.from(answer.body, 'utf8'));
      }
      const webRequest = await toWebRequest(request.raw, request.body);
      const response = await handler.fetch(webRequest, {
        authInfo: { token: '', clientId: principal.keyId, scopes: [], extra: { principal } },
        ...(request.body === undefined ? {} : { parsedBody: request.body }),
      });
      return reply.send(response);
    },
  });
}

/** `https://Example.org:443/` -> `https://example.org`; anything unparsable stays as sent (and matches nothing). */
function normaliseOrigin(origin: string): string {
  try {
    return new URL(origin).origin;
  } catch {
    return origin;
  }
}
