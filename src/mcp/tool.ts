/**
 * What an MCP tool is in Lugha: declared once (name, group, title, a description a
 * model can act on, zod input and output schemas, whether it generates new forms)
 * with a handler over the shared services. The server turns a declaration into an
 * MCP tool with annotations, tier gating, metering, `structuredContent` plus text,
 * and failures as `isError` results that say how to fix the call.
 */
import type { z } from 'zod';
import type { Principal } from '../access/key-service.js';
import { fail, ok, problemOf, type Result } from '../result.js';
import type { Services } from '../services.js';

/** The six groups of the tool set, in the order the interface contract lists them. */
export const toolGroups = ['Conjugation', 'Analysis', 'Data Access', 'Tonal', 'HFST', 'Utility'] as const;
export type ToolGroup = (typeof toolGroups)[number];

/** What a handler gets: the services and the caller. */
export interface ToolContext {
  services: Services;
  principal: Principal;
}

/** One tool, declared once. `output` must be an object schema (MCP structured content is an object). */
export interface ToolDefinition<I extends z.ZodType = z.ZodType, O extends z.ZodObject = z.ZodObject> {
  name: string;
  group: ToolGroup;
  title: string;
  /** Written for a model: what the tool answers, what to pass, what comes back. */
  description: string;
  input: I;
  output: O;
  /**
   * Whether the tool generates new forms, which needs full MCP access (Startup, Enterprise;
   * Academic keys are refused): always (`true`), never (`false`), or only for some arguments
   * (`when` decides on the raw arguments, before validation; `modes` says which, for the tool list).
   * src/mcp/access.ts reads this declaration and nothing else.
   */
  generative: boolean | { when(args: unknown): boolean; modes: string };
  /**
   * The number of forms (or inputs) the raw, not yet validated arguments ask for, counted
   * from array lengths alone; a call over the key's batch size is refused before validation.
   */
  batchSize?(args: unknown): { size: number; unit: string };
  /**
   * Successful answers to keep, by the raw arguments, when the answer depends on the arguments alone
   * while the process runs (not on the caller, the clock or the store): a call with the same
   * arguments is answered with the kept result after the tier check and the meter, without
   * validation or the handler (as `GET /api/v1/conjugate` answers from its cache). Default: none.
   */
  cacheEntries?: number;
  handler(args: z.output<I>, context: ToolContext): Result<z.output<O>> | Promise<Result<z.output<O>>>;
  /** One line for the text content, before the JSON (default: none). */
  summary?(value: z.output<O>): string;
}

/** A declaration with its types checked against its schemas. */
export function defineTool<I extends z.ZodType, O extends z.ZodObject>(tool: ToolDefinition<I, O>): ToolDefinition<I, O> {
  return tool;
}

/** A tool of any schema, as the registry holds it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tools of every input and output schema in one list
export type AnyTool = ToolDefinition<any, any>;

/** A service result as a tool result: the one mapping (a failure names a parameter, '(all)' when none is to blame). */
export function fromService<T, U = T>(outcome: Result<T>, map?: (value: T) => U): Result<U> {
  if (outcome.ok) return ok(map ? map(outcome.value) : (outcome.value as unknown as U));
  const problem = problemOf(outcome);
  return fail(problem.code, problem.message, {
    parameter: problem.parameter,
    ...(problem.allowed?.length ? { allowed: problem.allowed } : {}),
  });
}
