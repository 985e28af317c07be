/**
 * MCP access by tier (interface contract, Authentication 5 and Limits): none for
 * Evaluation, read-only for Academic (no tool that generates new forms), full for
 * Startup and Enterprise. Decisions are values (a `Problem` of src/result.ts); the transports render them.
 */
import type { Principal } from '../access/key-service.js';
import { tiers, tierLimits, type Tier } from '../access/plans.js';
import type { Problem } from '../result.js';
import type { AnyTool } from './tool.js';

/** Tiers whose keys may call every tool. */
const fullTiers = tiers.filter((t) => tierLimits[t].mcp === 'full' || tierLimits[t].mcp === 'full+dedicated');
const readOnlyTiers = tiers.filter((t) => tierLimits[t].mcp === 'read-only');

function names(list: readonly Tier[]): string {
  return list.map((t) => t[0]!.toUpperCase() + t.slice(1)).join(' or ');
}

function tierName(tier: Tier): string {
  return tier[0]!.toUpperCase() + tier.slice(1);
}

/** Why `principal` may not use MCP at all, or undefined when it may. */
export function mcpRefusal(principal: Principal): Problem<'not_in_tier'> | undefined {
  if (principal.limits.mcp !== 'none') return undefined;
  return {
    code: 'not_in_tier',
    message: `MCP is not part of the ${tierName(principal.tier)} tier of this key; ${names(readOnlyTiers)} keys may use the read-only tools and ${names(fullTiers)} keys every tool (the REST API at /api/v1 stays available to this key)`,
  };
}

/** Whether a call of `tool` with `args` generates new forms; without `args` (listing the tools), whether every call does. */
export function generatesForms(tool: AnyTool, args?: unknown): boolean {
  if (typeof tool.generative === 'boolean') return tool.generative;
  return args === undefined ? false : tool.generative.when(args);
}

/**
 * Why `principal` may not call `tool` (with `args`, raw), or undefined when it may. Without
 * `args` (the tool list), a tool that generates only for some arguments is not refused.
 */
export function toolRefusal(principal: Principal, tool: AnyTool, args?: unknown): Problem<'not_in_tier'> | undefined {
  const refusal = mcpRefusal(principal);
  if (refusal) return refusal;
  if (principal.limits.mcp === 'read-only' && generatesForms(tool, args)) {
    const what = typeof tool.generative === 'boolean' ? `${tool.name} generates new forms` : `${tool.name} with ${tool.generative.modes} generates new forms`;
    return {
      code: 'not_in_tier',
      message: `${what}, which needs a ${names(fullTiers)} key; this key's ${tierName(principal.tier)} tier has read-only MCP access. Tools that look up or analyse (analyze_form, decompose_morphemes, validate_form, search_roots, get_language_info, ...) remain available`,
    };
  }
  return undefined;
}
