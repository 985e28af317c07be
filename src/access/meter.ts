/**
 * Daily metering: one request counted per call against the key's tier quota,
 * reset at 00:00 UTC, with the numbers the RateLimit headers need.
 */
import type { Clock } from '../clock.js';
import type { Principal } from './key-service.js';
import { secondsToUtcMidnight, utcDay, type QuotaCounter } from './quota-counter.js';

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
  constructor(private readonly deps: { counter: QuotaCounter; clock: Clock }) {}

  /** Today's reading for `principal` without counting a request. */
  async peek(principal: Principal): Promise<MeterReading> {
    const now = this.deps.clock.now();
    const limit = principal.limits.dailyQuota;
    const used = await this.deps.counter.used(principal.keyId, utcDay(now));
    return { allowed: true, limit, remaining: limit === null ? null : Math.max(0, limit - used), resetSeconds: secondsToUtcMidnight(now) };
  }

  /** Counts one request for `principal` unless its quota for today is spent. */
  async consume(principal: Principal): Promise<MeterReading> {
    const now = this.deps.clock.now();
    const limit = principal.limits.dailyQuota;
    const decision = await this.deps.counter.consume(principal.keyId, utcDay(now), limit);
    return {
      allowed: decision.allowed,
      limit,
      remaining: limit === null ? null : Math.max(0, limit - decision.used),
      resetSeconds: secondsToUtcMidnight(now),
    };
  }
}
