/**
 * Tiers (rate limits, batch size, MCP access) and offers (audio access, lifetime),
 * as set by the interface contract's Limits table and the product brief.
 */

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
