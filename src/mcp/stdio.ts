/**
 * `lugha mcp` over stdio: with a local store, the key from LUGHA_API_KEY is
 * checked once at start (an unknown key or a tier without MCP ends the process
 * with a message, never a hang) and again on every tool call; with LUGHA_API_URL
 * the process is a bridge that forwards tools/list and tools/call to the remote
 * service's /mcp with the key as bearer, so the remote decides tier and quota.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Server, type CallToolResult, type ListToolsResult } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { Services } from '../services.js';
import { mcpRefusal } from './access.js';
import { createLughaMcpServer, serverName, serverVersion, type Authorization } from './server.js';

/** Why the server cannot start; the command prints it and exits non-zero. */
export class McpStartError extends Error {
  override name = 'McpStartError';
}

/** How often a stdio session re-reads the resources that change (consent manifests, dataset cards) for its subscriptions. */
const RESOURCE_WATCH_MS = 5_000;

/** Resolves when the client closes standard input. */
function stdinClosed(): Promise<void> {
  return new Promise((resolve) => {
    if (process.stdin.readableEnded) return resolve();
    process.stdin.once('end', () => resolve());
    process.stdin.once('close', () => resolve());
  });
}

/** Serves the registry's tools over stdio for `key` against local services, until stdin closes. */
export async function serveLocalStdio(services: Services, key: string, log: (line: string) => void): Promise<void> {
  const authorize = async (): Promise<Authorization> => {
    const auth = await services.keys.authenticate(`Bearer ${key}`);
    return auth.ok ? { ok: true, principal: auth.value } : { ok: false, code: auth.code, message: auth.message };
  };
  const first = await authorize();
  if (!first.ok) throw new McpStartError(`LUGHA_API_KEY is not usable here (${first.code}): ${first.message}`);
  const refusal = mcpRefusal(first.principal);
  if (refusal) throw new McpStartError(`${refusal.code}: ${refusal.message}`);
  const handle = serveStdio(
    () =>
      createLughaMcpServer({
        services,
        principal: first.principal,
        authorize,
        watchResources: { intervalMs: RESOURCE_WATCH_MS },
        onError: (error, tool) => log(`${tool} failed: ${(error as Error).stack ?? String(error)}`),
      }),
    { onerror: (error) => log(`MCP: ${error.message}`) },
  );
  await stdinClosed();
  await handle.close();
}

/** The remote's MCP endpoint: LUGHA_API_URL is the service's base URL (a URL ending in /mcp is taken as is). */
export function remoteEndpoint(apiUrl: string): URL {
  const url = new URL(apiUrl);
  if (!/\/mcp\/?$/.test(url.pathname)) url.pathname = `${url.pathname.replace(/\/+$/, '')}/mcp`;
  return url;
}

/** Connects to the remote service with `key`; fails with the remote's reason (401, 403 not_in_tier, unreachable). */
export async function connectRemote(apiUrl: string, key: string): Promise<Client> {
  const endpoint = remoteEndpoint(apiUrl);
  const client = new Client({ name: `${serverName}-bridge`, version: serverVersion });
  try {
    await client.connect(new StreamableHTTPClientTransport(endpoint, { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
  } catch (error) {
    throw new McpStartError(`cannot use the Lugha service at ${endpoint.origin}: ${reason(error)}`);
  }
  return client;
}

/** The remote's problem+json (code: detail) when the error carries one, else the error's message. */
function reason(error: unknown): string {
  const message = (error as Error).message ?? String(error);
  const json = /\{.*\}/s.exec(message)?.[0];
  if (json) {
    try {
      const problem = JSON.parse(json) as { code?: unknown; detail?: unknown; status?: unknown };
      if (typeof problem.code === 'string' && typeof problem.detail === 'string') return `${problem.status ?? ''} ${problem.code}: ${problem.detail}`.trim();
    } catch {
      // not a problem document
    }
  }
  return message;
}

/** Serves stdio as a bridge to `client` (connected to a remote /mcp) until stdin closes. */
export async function serveRemoteStdio(client: Client, log: (line: string) => void): Promise<void> {
  const remote = client.getServerVersion();
  const handle = serveStdio(
    () => {
      const server = new Server(
        { name: serverName, title: 'Lugha', version: remote?.version ?? serverVersion },
        { capabilities: { tools: {}, resources: {}, prompts: {}, completions: {} }, ...(client.getInstructions() ? { instructions: client.getInstructions()! } : {}) },
      );
      // Resources, prompts and completions are forwarded as they are; a refusal of the remote comes back as its JSON-RPC error.
      server.setRequestHandler('resources/list', async (request) => client.listResources(request.params));
      server.setRequestHandler('resources/templates/list', async (request) => client.listResourceTemplates(request.params));
      server.setRequestHandler('resources/read', async (request) => client.readResource(request.params));
      server.setRequestHandler('prompts/list', async (request) => client.listPrompts(request.params));
      server.setRequestHandler('prompts/get', async (request) => client.getPrompt(request.params));
      server.setRequestHandler('completion/complete', async (request) => client.complete(request.params));
      server.setRequestHandler('tools/list', async (request): Promise<ListToolsResult> => client.listTools(request.params));
      server.setRequestHandler('tools/call', async (request): Promise<CallToolResult> => {
        try {
          return (await client.callTool(request.params)) as CallToolResult;
        } catch (error) {
          log(`remote tools/call ${request.params.name}: ${(error as Error).message}`);
          return { content: [{ type: 'text', text: `service_unavailable: the Lugha service did not answer (${(error as Error).message}); retry in a moment` }], isError: true };
        }
      });
      return server;
    },
    { onerror: (error) => log(`MCP: ${error.message}`) },
  );
  await stdinClosed();
  await handle.close();
  await client.close();
}
