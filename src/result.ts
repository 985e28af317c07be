/**
 * An expected outcome as a value, shared by every service and edge (REST, MCP, CLI):
 * success with a value, or failure with a `Problem` — a code of the error catalogue,
 * what went wrong, the parameter to fix and, for a closed set, the values it accepts.
 */
import type { ErrorCode } from './errors.js';

/** A failure named so a caller can fix it. */
export interface Problem<C extends ErrorCode = ErrorCode> {
  /** A code of the error catalogue (src/errors.ts). */
  code: C;
  message: string;
  /** The parameter to fix, when one is to blame. */
  parameter?: string;
  /** The values `parameter` accepts, for a closed set. */
  allowed?: string[];
}

export type Failure<C extends ErrorCode = ErrorCode> = { ok: false } & Problem<C>;

export type Result<T, C extends ErrorCode = ErrorCode> = { ok: true; value: T } | Failure<C>;

export function ok<T>(value: T): { ok: true; value: T } {
  return { ok: true, value };
}

/** A failure; `parameter` and `allowed` are kept only when given. */
export function fail<C extends ErrorCode>(code: C, message: string, details: { parameter?: string; allowed?: string[] } = {}): Failure<C> {
  return {
    ok: false,
    code,
    message,
    ...(details.parameter !== undefined ? { parameter: details.parameter } : {}),
    ...(details.allowed !== undefined ? { allowed: details.allowed } : {}),
  };
}

/** The problem of a failure, naming a parameter ('(all)' when none is to blame). */
export function problemOf<C extends ErrorCode>(failure: Failure<C>): Problem<C> & { parameter: string } {
  return { code: failure.code, parameter: failure.parameter ?? '(all)', message: failure.message, ...(failure.allowed !== undefined ? { allowed: failure.allowed } : {}) };
}

/** A failure blaming `parameter`, with the values it accepts for a closed set (kept only when given). */
export function problem<C extends ErrorCode>(code: C, parameter: string, message: string, allowed?: string[]): Failure<C> {
  return fail(code, message, { parameter, ...(allowed ? { allowed } : {}) });
}
