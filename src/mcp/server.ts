/**
 * Builds the MCP server for one caller from the tool registry: each declaration
 * becomes a tool with annotations; each call is authorised (tier), metered (one
 * request against the daily quota) and answered with `structuredContent` plus
 * text, or with an `isError` result that says how to fix the call. Resources,
 * prompts, completions and logging come from their own modules (resources.ts,
 * prompts.ts, completions.ts, logging.ts).
 */
import { McpServer, type CallToolResult, type LoggingLevel } from '@modelcontextprotocol/server';
import type { Principal } from '../access/key-service.js';
import { packageVersion } from '../config.js';
import type { Services } from '../services.js';
import type { z } from 'zod';
import { batchRefusal } from '../access/plans.js';
import { AnswerCache } from '../http/answer-cache.js';
import { toolRefusal } from './access.js';
import { withArgumentDocs } from './argument-docs.js';
import { installLogging } from './logging.js';
import { registerPrompts } from './prompts.js';
import { registerResources } from './resources.js';
import { tools as registeredTools } from './registry.js';
import { deepFreeze, withCachedJsonSchema } from './schema-cache.js';
import type { Failure } from '../result.js';
import type { AnyTool } from './tool.js';

/** The caller of one tool call, re-checked per call (a key may be revoked mid-session). */
export type Authorization = { ok: true; principal: Principal } | Failure;

export interface LughaMcpServerOptions {
  services: Services;
  /** The caller as known when the server is built: shapes the tool list (tier notes). */
  principal: Principal;
  /** Re-authorises the caller for each tool call; default: `principal` as is. */
  authorize?: () => Promise<Authorization>;
  /** Tools to serve; default: the registry. */
  tools?: readonly AnyTool[];
  /** Unexpected errors of a handler (the caller sees only that one happened). */
  onError?: (error: unknown, tool: string) => void;
  /** A long-lived connection (stdio): watch the resources that change and notify subscribers (resources.ts). */
  watchResources?: { intervalMs: number };
}

export const serverName = 'lugha';
export const serverVersion = packageVersion();
/** The server's identity, as `initialize` and `server/discover` give it and 2026-07-28 results carry it in `_meta`. */
export const serverInfo = { name: serverName, title: 'Lugha', version: serverVersion } as const;

/** What a tool call needs besides the tool and its arguments. */
export interface ToolCallContext {
  services: Services;
  authorize: () => Promise<Authorization>;
  onError?: (error: unknown, tool: string) => void;
}

/** Sends a log message to the client if it asked for that level (logging.ts decides); never fails the call. */
export type ToolLog = (level: LoggingLevel, data: unknown) => Promise<void>;

const INSTRUCTIONS =
  'Lugha answers questions about Bantu languages from curated language cartridges: verb conjugation and paradigms, analysis and morpheme ' +
  'segmentation of word forms, noun classes, syllables, tone (tonal and minimal pairs, tonal analysis), HFST transducers, numbers in words, lexicon search and the sources behind each fact. Start with list_languages or ' +
  'get_language_info to learn the language codes, tense ids and subjects the other tools accept. Each tool call counts one request ' +
  "against the key's daily quota.";

/** MCP annotations: every tool only reads cartridge data, gives the same answer for the same input, and reaches nothing outside Lugha. */
const annotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

/** A fresh MCP server for one caller (one HTTP request, or one stdio connection). */
export function createLughaMcpServer(options: LughaMcpServerOptions): McpServer {
  const { services } = options;
  const authorize = options.authorize ?? (async () => ({ ok: true as const, principal: options.principal }));
  // The tool set of a server never changes while it runs, so it announces no list changes.
  const server = new McpServer(
    { ...serverInfo },
    {
      instructions: INSTRUCTIONS,
      capabilities: { tools: { listChanged: false }, resources: { listChanged: false }, prompts: { listChanged: false }, completions: {}, logging: {} },
    },
  );
  const callContext: ToolCallContext = { services, authorize, ...(options.onError ? { onError: options.onError } : {}) };
  for (const tool of options.tools ?? registeredTools) {
    const listed = toolRefusal(options.principal, tool);
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: listed ? `[Not available to this key: ${listed.message}.] ${tool.description}` : tool.description,
        // Validated in callTool(), after the tier check and the meter: a bad call is counted like any other.
        inputSchema: withCachedJsonSchema(tool.input, { validate: 'deferred', annotate: { key: tool.name, apply: (json) => withArgumentDocs(tool.name, json) } }),
        // Advertised, not checked per call: the SDK's zod check of a conjugation's output was 13% of an
        // MCP call's server CPU (docs/benchmarks.md); test/mcp-tools.test.ts parses every output it gets.
        outputSchema: withCachedJsonSchema(tool.output, { validate: 'none' }),
        annotations: { title: tool.title, ...annotations },
        _meta: { 'dev.lugha/group': tool.group, 'dev.lugha/generative': typeof tool.generative === 'boolean' ? tool.generative : tool.generative.modes },
      },
      async (args: unknown, context) => callTool(callContext, tool, args, (level, data) => logTo(context.mcpReq.log, level, data)),
    );
  }
  const logTo = installLogging(server, serverName);
  registerResources(server, { services, authorize, ...(options.watchResources ? { watch: options.watchResources } : {}) });
  registerPrompts(server, { services, principal: options.principal, authorize });
  return server;
}

/**
 * One tool call: authorised (tier), metered (one request against the daily quota), validated, answered
 * with `structuredContent` plus text or with an `isError` result. The handler every server registers
 * (and the direct HTTP answer to a lone `tools/call`, http-tool-call.ts) runs this. `log` sends a
 * notifications/message at or above the level the client set (logging/setLevel, or the request's log
 * level on 2026-07-28).
 */
export async function callTool(context: ToolCallContext, tool: AnyTool, args: unknown, log: ToolLog): Promise<CallToolResult> {
  const { services, authorize } = context;
  const auth = await authorize();
  if (!auth.ok) return errorResult({ ok: false, code: auth.code, message: `${auth.message}; set a valid key (LUGHA_API_KEY or the Authorization header) and reconnect` });
  const principal = auth.principal;
  const refusal = toolRefusal(principal, tool, args);
  if (refusal) return errorResult({ ok: false, ...refusal });
  const reading = await services.meter.consume(principal);
  if (!reading.allowed) {
    return errorResult({
      ok: false,
      code: 'quota_exceeded',
      message: `this key's ${reading.limit} requests for today are spent; the count resets at 00:00 UTC, in ${reading.resetSeconds} s. Try again after the reset`,
    });
  }
  await log('debug', { tool: tool.name, requests_left_today: reading.remaining, resets_in_s: reading.resetSeconds });
  if (tool.batchSize) {
    const { size, unit } = tool.batchSize(args);
    const tooLarge = batchRefusal(principal.tier, principal.limits.batchSize, size, unit);
    if (tooLarge) return errorResult({ ok: false, code: 'batch_too_large', message: `${tooLarge.message}: split the call into smaller ones` });
  }
  const cache = tool.cacheEntries ? answersOf(tool) : undefined;
  const key = cache ? argumentsKey(args) : undefined;
  const known = key === undefined ? undefined : cache!.get(key);
  if (known) return known;
  const parsed = tool.input.safeParse(args ?? {});
  if (!parsed.success) return errorResult(invalidArguments(parsed.error.issues));
  let outcome;
  try {
    outcome = await tool.handler(parsed.data, { services, principal });
  } catch (error) {
    context.onError?.(error, tool.name);
    await log('error', { tool: tool.name, error: 'internal_error' });
    return errorResult({ ok: false, code: 'internal_error', message: `${tool.name} failed unexpectedly; the error was logged. Retry once, then report it` });
  }
  if (!outcome.ok) return errorResult(outcome);
  const json = JSON.stringify(outcome.value);
  // One line whatever the input echoed in it (a newline in an argument must not add lines a model would read as ours).
  const summary = tool.summary?.(outcome.value)?.replace(/[\p{Cc}\u2028\u2029]+/gu, ' ');
  const result: CallToolResult = { content: [{ type: 'text', text: summary ? `${summary}\n${json}` : json }], structuredContent: outcome.value as Record<string, unknown> };
  if (key !== undefined) cache!.set(key, deepFreeze(result));
  return result;
}

/** Longest raw arguments (as JSON) whose answer is kept; longer ones are answered as usual. */
const MAX_KEY_LENGTH = 512;

/** The successful answers of each tool that keeps them (`cacheEntries`), least recently used dropped first. */
const answers = new WeakMap<AnyTool, AnswerCache<CallToolResult>>();

function answersOf(tool: AnyTool): AnswerCache<CallToolResult> {
  let kept = answers.get(tool);
  if (!kept) answers.set(tool, (kept = new AnswerCache<CallToolResult>(tool.cacheEntries!)));
  return kept;
}

/** The cache key of raw arguments: their JSON as sent (the same arguments in another order are another key). */
function argumentsKey(args: unknown): string | undefined {
  const key = JSON.stringify(args ?? {});
  return key.length <= MAX_KEY_LENGTH ? key : undefined;
}

const MAX_ALLOWED_SHOWN = 40;
/** The most schema problems one refusal lists; the rest are counted. */
const MAX_ISSUES_SHOWN = 10;

/** Arguments that fail the tool's input schema, as a failure naming the first bad argument; the list is capped. */
function invalidArguments(issues: readonly z.core.$ZodIssue[]): Failure {
  const pathOf = (issue: z.core.$ZodIssue) => issue.path.map(String).join('.');
  const described = issues.slice(0, MAX_ISSUES_SHOWN).map((issue) => {
    const where = pathOf(issue);
    if (issue.code === 'unrecognized_keys') return `unknown argument${issue.keys.length === 1 ? '' : 's'} ${issue.keys.map((k) => (where ? `${where}.${k}` : k)).join(', ')}`;
    return `${where || '(arguments)'}: ${issue.message}`;
  });
  const rest = issues.length - described.length;
  const first = issues[0];
  const parameter = first ? (first.code === 'unrecognized_keys' ? [pathOf(first), first.keys[0]].filter(Boolean).join('.') : pathOf(first)) : '';
  return {
    ok: false,
    code: 'invalid_parameter',
    message: `the arguments do not match the tool's input schema: ${described.join('; ')}${rest > 0 ? `; and ${rest} more` : ''}`,
    parameter: parameter || 'arguments',
    // An enumeration's values, so a model can pick one (as the handler's own refusals list them).
    ...(first?.code === 'invalid_value' && first.values.length > 0 ? { allowed: first.values.map(String) } : {}),
  };
}

/** A tool failure as a result a model reads: the code, what went wrong, the argument to fix and what it accepts. */
export function errorResult(failure: Failure): CallToolResult {
  const lines = [`${failure.code}: ${failure.message}`];
  if (failure.parameter && failure.parameter !== '(all)') lines.push(`Fix the \`${failure.parameter}\` argument.`);
  if (failure.allowed?.length) {
    const shown = failure.allowed.slice(0, MAX_ALLOWED_SHOWN).join(', ');
    lines.push(`Allowed values: ${shown}${failure.allowed.length > MAX_ALLOWED_SHOWN ? `, … (${failure.allowed.length} in all)` : ''}.`);
  }
  return { content: [{ type: 'text', text: lines.join('\n') }], isError: true };
}
