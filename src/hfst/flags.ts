/**
 * Flag diacritics (`@P.FEAT.VAL@` …): parsing the symbol names and the six operations,
 * over a flag state of one signed integer per feature (0 = unset).
 */

/** The six flag operations: positive set, negative set, require, disallow, clear, unify. */
export type FlagOperator = 'P' | 'N' | 'R' | 'D' | 'C' | 'U';

export interface FlagDiacritic {
  operator: FlagOperator;
  feature: string;
  /** Absent for `@R.F@`, `@D.F@` and `@C.F@`. */
  value?: string;
}

const FLAG = /^@([PNRDCU])\.([^.@]+)(?:\.([^@]+))?@$/;

/** The flag a symbol names, or undefined when the symbol is not a flag diacritic. */
export function parseFlag(symbol: string): FlagDiacritic | undefined {
  const match = FLAG.exec(symbol);
  if (!match) return undefined;
  const operator = match[1] as FlagOperator;
  const value = match[3];
  // P, N and U need a value; R, D and C may go without one (as in libhfst).
  if (value === undefined && (operator === 'P' || operator === 'N' || operator === 'U')) return undefined;
  return value === undefined ? { operator, feature: match[2]! } : { operator, feature: match[2]!, value };
}

/** Operator codes stored per symbol in the compiled tables. */
export const FlagOp = { P: 1, N: 2, R: 3, D: 4, C: 5, U: 6 } as const satisfies Record<FlagOperator, number>;
export type FlagOp = (typeof FlagOp)[FlagOperator];

/**
 * Applies flag `op` on `feature` with interned `value` (0 = no value) to `state`.
 * Returns false when the flag blocks the path; on success the state may have changed
 * (the caller saved the old value to undo it).
 */
export function applyFlag(state: Int32Array, op: FlagOp, feature: number, value: number): boolean {
  const current = state[feature]!;
  switch (op) {
    case FlagOp.P:
      state[feature] = value;
      return true;
    case FlagOp.N:
      state[feature] = -value;
      return true;
    case FlagOp.R:
      return value === 0 ? current !== 0 : current === value;
    case FlagOp.D:
      return value === 0 ? current === 0 : current !== value;
    case FlagOp.C:
      state[feature] = 0;
      return true;
    default: // FlagOp.U
      if (current === 0 || current === value || (current < 0 && -current !== value)) {
        state[feature] = value;
        return true;
      }
      return false;
  }
}
