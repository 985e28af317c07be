/**
 * Bearer authentication and daily metering as Fastify hooks. Routes registered
 * in a scope with `protect(scope, …)` answer 401 without a valid key and 429 once
 * the key's daily quota is spent, and carry the RateLimit headers (IETF
 * draft-ietf-httpapi-ratelimit-headers-10) on every metered response.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { KeyService, Principal } from '../access/key-service.js';
import type { Meter, MeterReading } from '../access/meter.js';
import { batchRefusal } from '../access/plans.js';
import { LughaError } from '../errors.js';
import { problemResponses, sendProblem } from './problem.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated caller; set on protected routes. */
    principal?: Principal;
  }
}

const REALM = 'lugha';
const WINDOW_SECONDS = 86_400;

export interface ProtectOptions {
  keys: KeyService;
  /** Count requests against the daily quota (omit for authenticated but unmetered routes). */
  meter?: Meter;
  /**
   * Decides whether a request is counted: `repeat` = already counted today (not counted
   * again); `afterCount` runs once a counted request was admitted. Default: every request counts.
   */
  counting?: {
    repeat(request: FastifyRequest, principal: Principal): Promise<boolean>;
    afterCount(request: FastifyRequest, principal: Principal): Promise<void>;
  };
}

/** Adds authentication (and metering) to every route registered in `scope`. */
export function protect(scope: FastifyInstance, options: ProtectOptions): void {
  scope.decorateRequest('principal', undefined);
  scope.addHook('onRequest', async (request, reply) => {
    const auth = await options.keys.authenticate(request.headers.authorization);
    if (!auth.ok) {
      const error = auth.code === 'key_missing' ? '' : `, error="invalid_token", error_description="${auth.message.replaceAll('"', "'")}"`;
      return sendProblem(request, reply, new LughaError(auth.code, auth.message, {}, { 'WWW-Authenticate': `Bearer realm="${REALM}"${error}` }));
    }
    request.principal = auth.value;
    if (!options.meter) return;
    if (options.counting && (await options.counting.repeat(request, auth.value))) {
      setRateLimitHeaders(reply, await options.meter.peek(auth.value));
      return;
    }
    const reading = await options.meter.consume(auth.value);
    setRateLimitHeaders(reply, reading);
    if (reading.allowed) await options.counting?.afterCount(request, auth.value);
    if (!reading.allowed) return sendProblem(request, reply, quotaExceeded(reading));
  });
}

/** The 429 of a spent daily quota, with Retry-After. */
export function quotaExceeded(reading: MeterReading): LughaError {
  return new LughaError(
    'quota_exceeded',
    `this key's ${reading.limit} requests for today are spent; the count resets at 00:00 UTC, in ${reading.resetSeconds} s`,
    { limit: reading.limit, reset_seconds: reading.resetSeconds },
    { 'Retry-After': String(reading.resetSeconds) },
  );
}

/** Sets `RateLimit-Policy` and `RateLimit` for a limited key; unlimited keys carry neither. */
export function setRateLimitHeaders(reply: FastifyReply, reading: MeterReading): void {
  if (reading.limit === null || reading.remaining === null) return;
  reply.header('RateLimit-Policy', `"daily";q=${reading.limit};w=${WINDOW_SECONDS}`);
  reply.header('RateLimit', `"daily";r=${reading.remaining};t=${reading.resetSeconds}`);
}

/** The caller of a protected route; throws if a route forgot `protect`. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new Error(`route ${request.routeOptions.url} is not protected`);
  return request.principal;
}

/**
 * Refuses a batch of `size` items (or `unit`s) larger than the caller's tier allows, or
 * than MAX_BATCH_FORMS for any tier (413, naming the limit).
 */
export function assertBatchSize(principal: Principal, size: number, unit = 'items'): void {
  const refusal = batchRefusal(principal.tier, principal.limits.batchSize, size, unit);
  if (refusal) throw new LughaError('batch_too_large', refusal.message, { limit: refusal.limit, size: refusal.size });
}

/** OpenAPI members every metered linguistic route shares: its tag and the bearer key. */
export const meteredRoute = { tags: ['linguistic'], security: [{ bearerAuth: [] }] };

/** Errors every metered route may answer with, for OpenAPI. */
export const meteredProblems = problemResponses('invalid_parameter', 'key_missing', 'key_malformed', 'key_unknown', 'key_revoked', 'key_rotated', 'key_expired', 'quota_exceeded');
