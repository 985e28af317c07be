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

/**
 * Packs one flag switch (a run of `@R.F.v@` transitions on feature F, grouped by value) onto
 * `table` and returns its offset. Layout: feature, run end, hash mask, then (value, group start)
 * pairs in an open-addressing table at most half full; value 0 marks an empty slot (interned
 * values start at 1).
 */
export function packSwitch(table: number[], feature: number, runEnd: number, groups: ReadonlyArray<{ value: number; start: number }>): number {
  let size = 4;
  while (size < groups.length * 2) size *= 2;
  const at = table.length;
  table.push(feature, runEnd, size - 1);
  for (let i = 0; i < size * 2; i++) table.push(0);
  for (const g of groups) {
    let slot = g.value & (size - 1);
    while (table[at + 3 + slot * 2] !== 0) slot = (slot + 1) & (size - 1);
    table[at + 3 + slot * 2] = g.value;
    table[at + 4 + slot * 2] = g.start;
  }
  return at;
}

/** Where the switch at `at` sends the search when its feature holds `value`: that value's group, or the run's end. */
export function switchTarget(table: Int32Array, at: number, value: number): number {
  if (value > 0) {
    const mask = table[at + 2]!;
    for (let slot = value & mask; ; slot = (slot + 1) & mask) {
      const v = table[at + 3 + slot * 2]!;
      if (v === value) return table[at + 4 + slot * 2]!;
      if (v === 0) break;
    }
  }
  return table[at + 1]!;
}
