/**
 * `lugha mcp` over stdio: with a local store, the key from LUGHA_API_KEY is
 * checked once at start (an unknown key or a tier without MCP ends the process
 * with a message, never a hang) and again on every tool call; with LUGHA_API_URL
 * the process is a bridge that forwards tools/list and tools/call to the remote
 * service's /mcp with the key as bearer, so the remote decides tier and quota.
 */
import type { Client } from '@modelcontextprotocol/client';
import { Server, type CallToolResult, type ListToolsResult } from '@modelcontextprotocol/server';
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
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
    if (process.stdin.readableEnded || process.stdin.destroyed) return resolve();
    process.stdin.once('end', () => resolve());
    process.stdin.once('close', () => resolve());
  });
}

/** How long a session may sit with no request in flight before `whenIdle` runs anyway (a client that only initialised). */
const IDLE_MS = 1_000;

/** How long no message must have come or gone, with no request in flight, for the session to count as quiet (background work goes on then). */
const QUIET_MS = 200;

type Message = { id?: unknown; method?: unknown; result?: unknown };

/**
 * The stdio transport, watching the requests in flight: `idle` runs once, when the first answer
 * to a request other than `initialize` (a tool call, a listing) has been written and no other
 * request waits, or when no request has been in flight for IDLE_MS. `quiet()` resolves once no
 * request is in flight and no message has come or gone for QUIET_MS.
 */
class IdleWatchingTransport extends StdioServerTransport {
  #pending = 0;
  #answered = false;
  #done = false;
  #timer: NodeJS.Timeout | undefined;
  #inner: StdioServerTransport['onmessage'];
  #lastActivity = performance.now();

  constructor(private readonly idle: (quiet: () => Promise<void>) => void) {
    super();
    Object.defineProperty(this, 'onmessage', {
      configurable: true,
      get: () => this.#inner && this.#receive,
      set: (handler: StdioServerTransport['onmessage']) => (this.#inner = handler),
    });
    this.#arm();
  }

  #receive: NonNullable<StdioServerTransport['onmessage']> = (message) => {
    const m = message as Message;
    this.#lastActivity = performance.now();
    if (m.id !== undefined && typeof m.method === 'string') {
      this.#pending++;
      clearTimeout(this.#timer);
    }
    this.#inner?.(message);
  };

  override async send(...args: Parameters<StdioServerTransport['send']>): Promise<void> {
    await super.send(...args);
    this.#lastActivity = performance.now();
    const m = args[0] as Message;
    if (this.#done || m.id === undefined || m.method !== undefined) return;
    this.#pending = Math.max(0, this.#pending - 1);
    // The answer to initialize carries the protocol version; any other answer is the client's first real work.
    if (!(m.result && typeof m.result === 'object' && 'protocolVersion' in m.result)) this.#answered = true;
    if (this.#pending > 0) return;
    if (this.#answered) this.#fire();
    else this.#arm();
  }

  override async close(): Promise<void> {
    clearTimeout(this.#timer);
    this.#done = true;
    await super.close();
  }

  #arm(): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#fire(), IDLE_MS);
    this.#timer.unref();
  }

  #fire(): void {
    if (this.#done) return;
    this.#done = true;
    clearTimeout(this.#timer);
    this.idle(() => this.quiet());
  }

  /** Resolves once no request is in flight and nothing has been received or sent for QUIET_MS (at least one turn of the event loop). */
  async quiet(): Promise<void> {
    for (;;) {
      const wait = this.#pending > 0 ? QUIET_MS : this.#lastActivity + QUIET_MS - performance.now();
      if (wait <= 0) return new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setTimeout(resolve, Math.ceil(wait)).unref());
    }
  }
}

/**
 * Serves the registry's tools over stdio for `key` against local services, until stdin closes.
 * `options.whenIdle` runs once the first answer after `initialize` is written (or the session has
 * sat idle a moment): background work such as warming the analysers starts there, so that it does
 * not delay the first answer. Its argument, `quiet()`, resolves when no request is in flight and
 * the session has been silent for 200 ms: background work awaits it before each step, so that
 * it does not hold up the calls that come in meanwhile. `options.stop` ends the session as stdin's
 * end does (the command resolves it on SIGTERM/SIGINT, so that the counts still held are written).
 */
export async function serveLocalStdio(services: Services, key: string, log: (line: string) => void, options: { whenIdle?: (quiet: () => Promise<void>) => void; stop?: Promise<void> } = {}): Promise<void> {
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
    { onerror: (error) => log(`MCP: ${error.message}`), ...(options.whenIdle ? { transport: new IdleWatchingTransport(options.whenIdle) } : {}) },
  );
  await Promise.race([stdinClosed(), ...(options.stop ? [options.stop] : [])]);
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
  // The MCP client (and its HTTP, SSE and OAuth code) only for the bridge: a local `lugha mcp` would load it for nothing (0.1-0.3 s).
  const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
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
