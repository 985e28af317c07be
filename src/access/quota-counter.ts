/**
 * Daily request counters, one per key per UTC day. Implementations must make
 * `consume` atomic: N concurrent calls against R remaining admit exactly R.
 */

export interface QuotaDecision {
  allowed: boolean;
  /**
   * Requests counted today, this one included when allowed. Without a limit and with group
   * commit (see CountBuffer), only a lower bound: the requests this instance has not written yet.
   */
  used: number;
}

export interface QuotaCounter {
  /**
   * Counts one request for `keyId` on `day` (YYYY-MM-DD, UTC) unless `limit`
   * requests were already counted; `limit` null means count without a limit.
   */
  consume(keyId: string, day: string, limit: number | null): Promise<QuotaDecision>;
  /**
   * `consume`'s decision when it needs no round trip (a key without a limit under group commit:
   * counted in memory), else undefined and nothing counted: call `consume`. Optional.
   */
  consumeNow?(keyId: string, day: string, limit: number | null): QuotaDecision | undefined;
  /** Requests counted for `keyId` on `day` (counts this instance holds for group commit are written first). */
  used(keyId: string, day: string): Promise<number>;
}

/** The UTC day of an instant, as YYYY-MM-DD. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** Whole seconds from `at` until the next 00:00 UTC (1..86400). */
export function secondsToUtcMidnight(at: Date): number {
  const next = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1);
  return Math.max(1, Math.ceil((next - at.getTime()) / 1000));
}
