/**
 * Tiers (rate limits, batch size, MCP access) and offers (audio access, lifetime),
 * as set by the interface contract's Limits table and the product brief, and the
 * ceilings every tier shares: the one place a limit is written. REST, MCP and the
 * services read their batch checks from here.
 */

import type { Problem } from '../result.js';

export const tiers = ['evaluation', 'academic', 'startup', 'enterprise'] as const;
export type Tier = (typeof tiers)[number];

export const offers = ['evaluation', 'pilot', 'full'] as const;
export type Offer = (typeof offers)[number];

export type McpAccess = 'none' | 'read-only' | 'full' | 'full+dedicated';

export interface TierLimits {
  /** Requests per UTC day; null = unlimited. */
  dailyQuota: number | null;
  /** Largest batch, counted in generated items; null = unlimited. */
  batchSize: number | null;
  mcp: McpAccess;
}

/** Interface contract, "Limits": requests per day, batch size and MCP access by tier. */
export const tierLimits: Readonly<Record<Tier, TierLimits>> = {
  evaluation: { dailyQuota: 100, batchSize: 10, mcp: 'none' },
  academic: { dailyQuota: 500, batchSize: 50, mcp: 'read-only' },
  startup: { dailyQuota: 5000, batchSize: 500, mcp: 'full' },
  enterprise: { dailyQuota: null, batchSize: null, mcp: 'full+dedicated' },
};

/** The most forms one batch may ask for, whatever the tier: bounds the time and memory of one request. */
export const MAX_BATCH_FORMS = 5000;

/** The most inputs one HFST lookup may carry, whatever the tier: bounds the time of one request. */
export const MAX_LOOKUP_INPUTS = 1000;

/** The most items a caller whose tier allows `batchSize` (null: unlimited) may ask for in one call, at most `ceiling`. */
export function batchLimit(batchSize: number | null, ceiling = MAX_BATCH_FORMS): number {
  return Math.min(batchSize ?? ceiling, ceiling);
}

/** Why a batch of `size` items is refused to a caller of `tier` whose batch size is `batchSize`, or undefined when it fits. */
export function batchRefusal(tier: string, batchSize: number | null, size: number, unit = 'forms', ceiling = MAX_BATCH_FORMS): (Problem<'batch_too_large'> & { limit: number; size: number }) | undefined {
  const limit = batchLimit(batchSize, ceiling);
  if (size <= limit) return undefined;
  const message =
    batchSize !== null && batchSize <= ceiling
      ? `this batch asks for ${size} ${unit}; the ${tier} tier allows at most ${limit} per request`
      : `this batch asks for ${size} ${unit}; one request may ask for at most ${ceiling}, whatever the tier`;
  return { code: 'batch_too_large', message, limit, size };
}

export interface OfferTerms {
  /** Which audio languages the offer covers. */
  languages: 'foundational' | 'chosen' | 'all';
  /** How many languages the licensee chooses at issue time (for `chosen`). */
  chosenLanguages: number;
  /** Days from issue until the key expires; null = never. */
  lifetimeDays: number | null;
  /** Whether clip lists are capped to a fixed sample. */
  sampleCapped: boolean;
}

/** Product brief, "Keys, tiers and offers". */
export const offerTerms: Readonly<Record<Offer, OfferTerms>> = {
  evaluation: { languages: 'foundational', chosenLanguages: 0, lifetimeDays: null, sampleCapped: true },
  pilot: { languages: 'chosen', chosenLanguages: 3, lifetimeDays: 75, sampleCapped: true },
  full: { languages: 'all', chosenLanguages: 0, lifetimeDays: 365, sampleCapped: false },
};

export const DAY_MS = 86_400_000;
