/**
 * Daily metering: one request counted per call against the key's tier quota,
 * reset at 00:00 UTC, with the numbers the RateLimit headers need.
 */
import type { Clock } from '../clock.js';
import type { Principal } from './key-service.js';
import { DAY_MS } from './plans.js';
import { secondsToUtcMidnight, utcDay, type QuotaCounter, type QuotaDecision } from './quota-counter.js';

export interface MeterReading {
  allowed: boolean;
  /** Requests per day; null = unlimited. */
  limit: number | null;
  /** Requests left today after this one; null = unlimited. */
  remaining: number | null;
  /** Seconds until the count resets at 00:00 UTC. */
  resetSeconds: number;
}

export class Meter {
  /** The UTC day last metered (YYYY-MM-DD) and its bounds in ms: the day's name is made once a day, not per request. */
  #day = '';
  #dayStart = 0;
  #dayEnd = 0;

  constructor(private readonly deps: { counter: QuotaCounter; clock: Clock }) {}

  /** Today's reading for `principal` without counting a request. */
  async peek(principal: Principal): Promise<MeterReading> {
    const now = this.deps.clock.now();
    const limit = principal.limits.dailyQuota;
    const used = await this.deps.counter.used(principal.keyId, this.#dayOf(now));
    return { allowed: true, limit, remaining: limit === null ? null : Math.max(0, limit - used), resetSeconds: secondsToUtcMidnight(now) };
  }

  /** Counts one request for `principal` unless its quota for today is spent. */
  async consume(principal: Principal): Promise<MeterReading> {
    return this.consumeNow(principal);
  }

  /**
   * `consume`, answered without waiting when the counter decides without a round trip (a key
   * without a limit under group commit); otherwise the promise of `consume`. May throw (a counter
   * that is down) instead of rejecting.
   */
  consumeNow(principal: Principal): MeterReading | Promise<MeterReading> {
    const now = this.deps.clock.now();
    const limit = principal.limits.dailyQuota;
    const day = this.#dayOf(now);
    const decided = this.deps.counter.consumeNow?.(principal.keyId, day, limit);
    if (decided) return reading(decided, limit, now);
    return this.deps.counter.consume(principal.keyId, day, limit).then((decision) => reading(decision, limit, now));
  }

  /**
   * Counts one request of a key without a daily limit when the counter needs no round trip for it
   * (group commit) and returns true; otherwise counts nothing and returns false (then `consumeNow`
   * counts it). No reading is made: such a key is always allowed and its answers carry no
   * RateLimit headers (src/http/early-answer.ts). May throw, as `consumeNow`.
   */
  countImmediately(principal: Principal): boolean {
    if (principal.limits.dailyQuota !== null) return false;
    return this.deps.counter.consumeNow?.(principal.keyId, this.#dayOf(this.deps.clock.now()), null) !== undefined;
  }

  #dayOf(now: Date): string {
    const ms = now.getTime();
    if (ms < this.#dayStart || ms >= this.#dayEnd) {
      this.#day = utcDay(now);
      this.#dayStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
      this.#dayEnd = this.#dayStart + DAY_MS;
    }
    return this.#day;
  }
}

function reading(decision: QuotaDecision, limit: number | null, now: Date): MeterReading {
  return {
    allowed: decision.allowed,
    limit,
    remaining: limit === null ? null : Math.max(0, limit - decision.used),
    resetSeconds: secondsToUtcMidnight(now),
  };
}
