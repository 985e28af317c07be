/**
 * Bearer authentication and daily metering as Fastify hooks. Routes registered
 * in a scope with `protect(scope, …)` answer 401 without a valid key and 429 once
 * the key's daily quota is spent, and carry the RateLimit headers (IETF
 * draft-ietf-httpapi-ratelimit-headers-10) on every metered response.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { AuthFailure, KeyService, Principal } from '../access/key-service.js';
import type { Meter, MeterReading } from '../access/meter.js';
import { batchRefusal } from '../access/plans.js';
import { LughaError } from '../errors.js';
import type { Result } from '../result.js';
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

/**
 * Adds authentication (and metering) to every route registered in `scope`. A callback hook:
 * a key in the key cache, counted in memory (a key without a limit under group commit), is
 * authenticated and counted in the same turn, with no promise; otherwise it waits for the store.
 */
export function protect(scope: FastifyInstance, options: ProtectOptions): void {
  const { keys, meter, counting } = options;

  /** Admits (or refuses) the caller, then counts the request. */
  function admit(request: FastifyRequest, reply: FastifyReply, auth: Result<Principal, AuthFailure>, done: HookHandlerDoneFunction): void {
    if (!auth.ok) {
      const error = auth.code === 'key_missing' ? '' : `, error="invalid_token", error_description="${auth.message.replaceAll('"', "'")}"`;
      // Answered here: a hook that sends calls no `done`.
      void sendProblem(request, reply, new LughaError(auth.code, auth.message, {}, { 'WWW-Authenticate': `Bearer realm="${REALM}"${error}` }));
      return;
    }
    request.principal = auth.value;
    if (!meter) return done();
    if (counting) return then(countWith(meter, counting, request, reply, auth.value), (value) => proceed(request, reply, value, done), done);
    const reading = meter.consumeNow(auth.value);
    if (reading instanceof Promise) then(reading, (value) => metered(request, reply, value, done), done);
    else metered(request, reply, reading, done);
  }

  scope.decorateRequest('principal', undefined);
  scope.addHook('onRequest', (request, reply, done) => {
    const auth = keys.check(request.headers.authorization);
    if (auth instanceof Promise) then(auth, (value) => admit(request, reply, value, done), done);
    else admit(request, reply, auth, done);
  });
}

/** Sets the RateLimit headers of `reading`, then lets the request on or refuses it. */
function metered(request: FastifyRequest, reply: FastifyReply, reading: MeterReading, done: HookHandlerDoneFunction): void {
  setRateLimitHeaders(reply, reading);
  proceed(request, reply, reading, done);
}

/** Lets the request on, or answers 429 when the quota is spent. */
function proceed(request: FastifyRequest, reply: FastifyReply, reading: MeterReading, done: HookHandlerDoneFunction): void {
  if (reading.allowed) return done();
  // Answered here: a hook that sends calls no `done`.
  void sendProblem(request, reply, quotaExceeded(reading));
}

/**
 * Metering with a route's own counting rule: a repeat is not counted again (today's reading,
 * allowed); otherwise the request is counted and, when admitted, `afterCount` runs. The
 * RateLimit headers are set as soon as the reading is known.
 */
async function countWith(meter: Meter, counting: NonNullable<ProtectOptions['counting']>, request: FastifyRequest, reply: FastifyReply, principal: Principal): Promise<MeterReading> {
  if (await counting.repeat(request, principal)) {
    const reading = await meter.peek(principal);
    setRateLimitHeaders(reply, reading);
    return reading;
  }
  const reading = await meter.consume(principal);
  setRateLimitHeaders(reply, reading);
  if (reading.allowed) await counting.afterCount(request, principal);
  return reading;
}

/** Calls `next` with the value of `promise`; a rejection, or an error thrown by `next`, goes to `failed` (the hook's `done`). */
function then<T>(promise: Promise<T>, next: (value: T) => void, failed: (error: Error) => void): void {
  promise.then(
    (value) => {
      try {
        next(value);
      } catch (error) {
        failed(error as Error);
      }
    },
    // As fastify does for an async hook: a rejection without a reason is still an error.
    (error: unknown) => failed((error ?? new Error('rejected without a reason')) as Error),
  );
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
