/**
 * The direct answer to the commonest /mcp request, one `tools/call`, without the SDK's per-request
 * exchange. For every POST the SDK's stateless handler builds a web `Request`, a fresh `McpServer`
 * (21 tools, the resources and prompts registered), a transport and a `Response` stream, and checks
 * the JSON-RPC message with zod several times: about 2 ms of CPU against 0.2–0.4 ms for the same
 * conjugation from `GET /api/v1/conjugate` (docs/benchmarks.md). A tool call needs none of that: this
 * runs the same `callTool` every server registers (server.ts: tier check, meter, validation, handler)
 * and writes the JSON-RPC answer the SDK would write.
 *
 * It takes only a request it can answer exactly as the SDK does, byte for byte (the test
 * mcp-http-tool-call calls every tool both ways, on both protocol revisions): a single `tools/call` of a
 * listed tool with plain arguments, well-formed for its revision, whose headers agree with its body,
 * and that asks for nothing streamed (no log level, no progress token: nothing but the three
 * envelope keys in a 2026-07-28 `_meta`, no `_meta` at all on 2025-11-25). Anything else — another
 * method, a batch, an unknown tool, an inconsistent header, a request the SDK would refuse — goes to
 * the SDK unchanged, which answers or refuses it as before.
 *
 * Per call it keeps what a repeated call would only recompute: the SDK's classification of the message
 * (its zod checks), by the message without its id's value and the three MCP headers; and the JSON of a
 * kept (frozen) tool result, for each revision.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  classifyInboundRequest,
  isJsonContentType,
  PROTOCOL_VERSION_META_KEY,
  SERVER_INFO_META_KEY,
  SUPPORTED_PROTOCOL_VERSIONS,
  type CallToolResult,
} from '@modelcontextprotocol/server';
import type { IncomingHttpHeaders } from 'node:http';
import { AnswerCache } from '../http/answer-cache.js';
import { callTool, serverInfo, type ToolCallContext } from './server.js';
import type { AnyTool } from './tool.js';

/** The revision a `_meta` envelope may claim for a direct answer: the one modern revision the SDK serves. */
const MODERN_REVISION = '2026-07-28';

/** The keys a 2026-07-28 envelope may carry for a direct answer (a log level or progress token streams). */
const ENVELOPE_KEYS = new Set([PROTOCOL_VERSION_META_KEY, CLIENT_INFO_META_KEY, CLIENT_CAPABILITIES_META_KEY]);
const MESSAGE_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);
const PARAMS_KEYS = new Set(['name', 'arguments', '_meta']);

/** A tool call this module answers itself. */
export interface DirectToolCall {
  /** 2025-11-25 and earlier (the SDK's stateless fallback: a one-event SSE stream), or 2026-07-28 (plain JSON). */
  era: 'legacy' | 'modern';
  id: string | number;
  tool: AnyTool;
  /** The arguments as the SDK hands them to a tool handler (`{}` when none were sent). */
  args: Record<string, unknown>;
}

/** The HTTP answer: always 200, with the SDK's headers for the era. */
export interface DirectAnswer {
  headers: Record<string, string>;
  body: string;
}

/**
 * The call, when `body` (the parsed JSON of a POST to /mcp) is one this module answers exactly as the
 * SDK would; otherwise `undefined`, and the request goes to the SDK.
 */
export function directToolCall(headers: IncomingHttpHeaders, body: unknown, tools: ReadonlyMap<string, AnyTool>): DirectToolCall | undefined {
  if (!isPlainObject(body) || !hasOnlyKeys(body, MESSAGE_KEYS)) return undefined;
  if (body.jsonrpc !== '2.0' || body.method !== 'tools/call') return undefined;
  const id = body.id;
  if (!(typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)))) return undefined;
  const params = body.params;
  if (!isPlainObject(params) || !hasOnlyKeys(params, PARAMS_KEYS) || typeof params.name !== 'string') return undefined;
  const tool = tools.get(params.name);
  if (!tool) return undefined;
  const args = params.arguments;
  if (args !== undefined && !isPlainObject(args)) return undefined;

  const header = (name: string) => {
    const value = headers[name];
    return typeof value === 'string' ? value : undefined;
  };
  // A header sent twice: the SDK reads the values joined, which the checks below would have to follow.
  for (const name of ['content-type', 'accept', 'mcp-protocol-version', 'mcp-method', 'mcp-name']) if (Array.isArray(headers[name])) return undefined;
  const accept = header('accept');
  if (!isJsonContentType(header('content-type') ?? null) || !accept?.includes('application/json') || !accept.includes('text/event-stream')) return undefined;

  const protocolVersion = header('mcp-protocol-version');
  const method = header('mcp-method');
  const name = header('mcp-name');
  const kind = inboundKind(body, id, protocolVersion, method, name);
  const meta = params._meta;
  let era: DirectToolCall['era'];
  if (kind === 'legacy') {
    // As a 2025 client sends it: no envelope and no 2026 headers; a version header the transport accepts.
    if (meta !== undefined || method !== undefined || name !== undefined) return undefined;
    if (protocolVersion !== undefined && !(SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(protocolVersion)) return undefined;
    era = 'legacy';
  } else if (kind === 'modern') {
    // The envelope is valid (else the SDK classifies a rejection); the three headers must name what the body does.
    if (!isPlainObject(meta) || !hasOnlyKeys(meta, ENVELOPE_KEYS) || meta[PROTOCOL_VERSION_META_KEY] !== MODERN_REVISION) return undefined;
    if (protocolVersion !== MODERN_REVISION || method !== 'tools/call' || name !== params.name) return undefined;
    era = 'modern';
  } else return undefined;
  return { era, id, tool, args: args ?? {} };
}

/** Longest classification key kept (the message without its id, as JSON, with the three headers); longer ones are classified every time. */
const MAX_KIND_KEY = 2048;

/** The SDK's classification of messages already seen, by `kindKey` (least recently used dropped first). */
const kinds = new AnswerCache<string>(256);

/**
 * What the SDK's `classifyInboundRequest` says of this POST (its `kind`: 'legacy', 'modern', or a
 * rejection), kept for a message that differs only in its id's value. The classification is a function
 * of the body and the three headers alone, and of the id only through its type (a JSON-RPC id is any
 * string or any integer, and `directToolCall` has checked it is one); it runs the SDK's zod schemas
 * over the whole message, the largest part of a direct answer's own cost (docs/benchmarks.md), and a
 * client sends the same call again with only a new id.
 */
function inboundKind(body: Record<string, unknown>, id: string | number, protocolVersion: string | undefined, method: string | undefined, name: string | undefined): string {
  const key = JSON.stringify([protocolVersion ?? null, method ?? null, name ?? null, typeof id, { ...body, id: undefined }]);
  const known = key.length <= MAX_KIND_KEY ? kinds.get(key) : undefined;
  if (known !== undefined) return known;
  const route = classifyInboundRequest({
    httpMethod: 'POST',
    body,
    ...(protocolVersion === undefined ? {} : { protocolVersionHeader: protocolVersion }),
    ...(method === undefined ? {} : { mcpMethodHeader: method }),
    ...(name === undefined ? {} : { mcpNameHeader: name }),
  });
  if (key.length <= MAX_KIND_KEY) kinds.set(key, route.kind);
  return route.kind;
}

/** Runs the call (metered like any other) and writes the JSON-RPC answer as the SDK would. */
export async function answerToolCall(call: DirectToolCall, context: ToolCallContext): Promise<DirectAnswer> {
  let result: CallToolResult;
  try {
    // No log message can reach the client here: a 2025 client over stateless HTTP never set a level
    // (logging.ts), and a 2026 request that names one is not answered directly.
    result = await callTool(context, call.tool, call.args, async () => undefined);
  } catch (error) {
    // What the SDK's tools/call handler answers when a handler throws.
    result = { content: [{ type: 'text', text: error instanceof Error ? error.message : String(error) }], isError: true };
  }
  // The message is `{"result":…,"jsonrpc":"2.0","id":…}`, as JSON.stringify writes it; the result's part is made once for a kept (frozen) result.
  const id = JSON.stringify(call.id);
  if (call.era === 'legacy') {
    const message = `${resultJson(result, 'legacy')},"jsonrpc":"2.0","id":${id}}`;
    return {
      headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', connection: 'keep-alive', 'x-accel-buffering': 'no' },
      body: `event: message\ndata: ${message}\n\n`,
    };
  }
  return { headers: { 'content-type': 'application/json' }, body: `${resultJson(result, 'modern')},"jsonrpc":"2.0","id":${id}}` };
}

/** `{"result":` and the result's JSON for the era, by result: kept results (src/mcp/server.ts) are frozen and answered again. */
const resultTexts = new WeakMap<CallToolResult, { legacy?: string; modern?: string }>();

/** `{"result":<result>` for the era: the result as the SDK writes it, its JSON made once for a kept (frozen) result. */
function resultJson(result: CallToolResult, era: DirectToolCall['era']): string {
  const kept = Object.isFrozen(result);
  let texts = kept ? resultTexts.get(result) : undefined;
  const known = texts?.[era];
  if (known !== undefined) return known;
  // 2026-07-28 results carry their type and the server's identity (the SDK's encode step).
  const value = era === 'legacy' ? result : { ...result, resultType: 'complete', _meta: { [SERVER_INFO_META_KEY]: serverInfo } };
  const text = `{"result":${JSON.stringify(value)}`;
  if (kept) {
    if (texts === undefined) resultTexts.set(result, (texts = {}));
    texts[era] = text;
  }
  return text;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function hasOnlyKeys(value: Record<string, unknown>, allowed: ReadonlySet<string>): boolean {
  for (const key of Object.keys(value)) if (!allowed.has(key)) return false;
  return true;
}
