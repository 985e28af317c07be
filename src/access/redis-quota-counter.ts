/**
 * Daily quota counters in Redis, shared by every instance: one key per API key and UTC day.
 * The check against the limit and the increment run as one Lua script, which Redis executes
 * atomically, so N concurrent requests against R remaining admit exactly R, whichever
 * instances they reach. A counter expires two days after its first request (it outlives its
 * day, which is all a reader needs). When Redis does not answer, requests fail closed with
 * 503 `quota_unavailable` rather than go uncounted.
 */
import { Redis } from 'ioredis';
import { LughaError } from '../errors.js';
import type { QuotaCounter, QuotaDecision } from './quota-counter.js';
import { RedisKeyChanges } from './redis-key-changes.js';
import { CountBuffer } from './count-buffer.js';

/** KEYS[1] = counter; ARGV[1] = limit (-1 = none); ARGV[2] = lifetime in seconds. Returns {allowed, used}. */
const CONSUME = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
local limit = tonumber(ARGV[1])
if limit >= 0 and used >= limit then
  return {0, used}
end
used = redis.call('INCR', KEYS[1])
if used == 1 then
  redis.call('EXPIRE', KEYS[1], tonumber(ARGV[2]))
end
return {1, used}
`;

/** Two days: a counter created during its day lives past that day's end, whatever the hour. */
export const COUNTER_LIFETIME_SECONDS = 2 * 86_400;

export interface RedisQuotaCounterOptions {
  url: string;
  /** Prefix of every key (several deployments may share one Redis). */
  prefix?: string;
  /** How long one command may take before the request fails closed. */
  commandTimeoutMs?: number;
  /** Group commit of the counts of keys without a limit (CountBuffer); 0 or absent: each counted at once. */
  flushMs?: number;
}

/** KEYS[1] = counter; ARGV[1] = requests to add; ARGV[2] = lifetime in seconds. */
const ADD = `
local used = redis.call('INCRBY', KEYS[1], tonumber(ARGV[1]))
if used == tonumber(ARGV[1]) then
  redis.call('EXPIRE', KEYS[1], tonumber(ARGV[2]))
end
return used
`;

type ConsumeRedis = Redis & {
  lughaConsume(key: string, limit: number, lifetime: number): Promise<[number, number]>;
  lughaAdd(key: string, count: number, lifetime: number): Promise<number>;
};

export class RedisQuotaCounter implements QuotaCounter {
  readonly #redis: ConsumeRedis;
  readonly #prefix: string;
  #changes: RedisKeyChanges | undefined;
  readonly #buffer: CountBuffer | undefined;

  private constructor(redis: Redis, prefix: string, flushMs: number) {
    redis.defineCommand('lughaConsume', { numberOfKeys: 1, lua: CONSUME });
    redis.defineCommand('lughaAdd', { numberOfKeys: 1, lua: ADD });
    this.#redis = redis as ConsumeRedis;
    this.#prefix = prefix;
    if (flushMs > 0) {
      this.#buffer = new CountBuffer(flushMs, async (counts) => {
        // One pipeline, one round trip; each script is atomic on its own, and adds never conflict.
        const pipeline = this.#redis.pipeline();
        // Queued on the pipeline (its result comes from exec), not a promise to wait for.
        for (const c of counts) void (pipeline as unknown as ConsumeRedis).lughaAdd(this.#key(c.keyId, c.day), c.count, COUNTER_LIFETIME_SECONDS);
        const results = (await pipeline.exec()) ?? [];
        const failed = results.find(([error]) => error);
        if (failed || results.length !== counts.length) throw failed?.[0] ?? new Error('the pipeline was not run');
      });
    }
  }

  /** Connects (failing when Redis does not answer) and returns the counter. */
  static async open(options: RedisQuotaCounterOptions): Promise<RedisQuotaCounter> {
    const redis = new Redis(options.url, {
      lazyConnect: true,
      // While disconnected, fail at once instead of queueing requests behind a reconnect.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      // Long enough for a busy instance's own event-loop lag (the timer runs in this process), short
      // enough that a Redis that stopped answering fails requests closed within seconds.
      commandTimeout: options.commandTimeoutMs ?? 5000,
      connectTimeout: 5000,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    });
    // Connection errors surface on the commands; the client keeps reconnecting in the background.
    let lastError: unknown;
    redis.on('error', (error) => {
      lastError = error;
    });
    try {
      await redis.connect();
      await redis.ping();
    } catch (error) {
      redis.disconnect();
      const cause = lastError ?? error;
      throw new Error(`Redis quota counter unavailable: ${describeRedisError(cause)}`, { cause });
    }
    return new RedisQuotaCounter(redis, options.prefix ?? 'lugha:', options.flushMs ?? 0);
  }

  /** Key changes published and received over this counter's Redis (one more connection once subscribed). */
  keyChanges(): RedisKeyChanges {
    return (this.#changes ??= new RedisKeyChanges(this.#redis, this.#prefix));
  }

  #key(keyId: string, day: string): string {
    return `${this.#prefix}quota:${keyId}:${day}`;
  }

  /** Throws (service unavailable) while Redis is not connected, as a counted request would fail. */
  consumeNow(keyId: string, day: string, limit: number | null): QuotaDecision | undefined {
    if (limit !== null || !this.#buffer) return undefined;
    // Fail closed as a counted request would: nothing is served while Redis is not connected.
    if (this.#redis.status !== 'ready') throw unavailable(new Error('Connection is closed'));
    return { allowed: true, used: this.#buffer.count(keyId, day) };
  }

  async consume(keyId: string, day: string, limit: number | null): Promise<QuotaDecision> {
    const now = this.consumeNow(keyId, day, limit);
    if (now) return now;
    try {
      const [allowed, used] = await this.#redis.lughaConsume(this.#key(keyId, day), limit === null ? -1 : Math.max(0, limit), COUNTER_LIFETIME_SECONDS);
      return { allowed: allowed === 1, used: Number(used) };
    } catch (error) {
      throw unavailable(error);
    }
  }

  async used(keyId: string, day: string): Promise<number> {
    try {
      await this.#buffer?.flush();
      return Number((await this.#redis.get(this.#key(keyId, day))) ?? 0);
    } catch (error) {
      throw unavailable(error);
    }
  }

  async ping(): Promise<void> {
    try {
      await this.#redis.ping();
    } catch (error) {
      throw unavailable(error);
    }
  }

  async close(): Promise<void> {
    this.#changes?.close();
    await this.#buffer?.flush().catch(() => undefined); // Redis gone: nothing more can be written
    try {
      await this.#redis.quit();
    } catch {
      this.#redis.disconnect();
    }
  }
}

function unavailable(error: unknown): LughaError {
  return new LughaError('quota_unavailable', `the quota counter does not answer (${describeRedisError(error)}); the request was not served. Retry shortly.`, {}, { 'Retry-After': '5' });
}

/** A Redis failure in words that name no host, port or password. */
export function describeRedisError(error: unknown): string {
  const e = error as { code?: string; name?: string; message?: string };
  if (e?.code === 'ECONNREFUSED') return 'connection refused';
  if (e?.code === 'ENOTFOUND') return 'host not found';
  if (e?.name === 'TimeoutError' || /timed? ?out/i.test(String(e?.message))) return 'timed out';
  if (/NOAUTH|WRONGPASS/.test(String(e?.message))) return 'authentication failed';
  if (/writeable|offline queue|Connection is closed/i.test(String(e?.message))) return 'not connected';
  return 'command failed';
}
