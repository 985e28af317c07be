/**
 * The one-symbol lookahead of an optimized-lookup transducer, built once at load: per reachable
 * state, the input symbols it can read next and whether it can end, so the search skips steps
 * that cannot lead to a result.
 */
import { NO_SYMBOL, NO_TABLE_INDEX, TA, type OptimizedLookupTables } from './hfstol-format.js';

/**
 * What each state can do next, ignoring flag constraints: bit 0 of its row is set when it can end
 * (it is final, or reaches a final state through ε/flag arcs), bit s when it can read input symbol s
 * (directly or after ε/flag arcs). A search step into a state that can neither read the next input
 * symbol nor end there cannot lead to a result, so it is skipped.
 */
export interface Lookahead {
  /** 32-bit words per row. */
  words: number;
  /** Row offset into `bits` per state: index state i at i, simple state at target − TA + nIdx; −1 if unreachable. */
  row: Int32Array;
  bits: Uint32Array;
}

/** Memory the lookahead may take (bytes); larger transducers search without it. */
const LOOKAHEAD_BUDGET_BYTES = 64 * 1024 * 1024;

/**
 * Computes the lookahead rows: every state reachable from the start, its ε/flag successors and
 * the input symbol it reads (laid out as the search reads them: hfstol.md "The lookup
 * algorithm"), then the union over ε/flag successors to a fixed point. Flags are treated as ε, so
 * the rows over-approximate and never cut a path that could succeed.
 */
export function buildLookahead(tables: Pick<OptimizedLookupTables, 'idxIn' | 'idxTarget' | 'trIn' | 'trOut' | 'trTarget'>, epsilonLike: Uint8Array, nIn: number): Lookahead | undefined {
  const { idxIn, idxTarget, trIn, trOut, trTarget } = tables;
  const nIdx = idxIn.length;
  const nTr = trIn.length;
  const words = (nIn + 31) >>> 5;
  const keyOf = (state: number) => (state >= TA ? nIdx + state - TA : state);
  /** Where a state's ε/flag transitions start (−1: none). */
  const epsilonStart = (state: number) => (state >= TA ? state - TA + 1 : idxIn[state + 1] === 0 ? idxTarget[state + 1]! - TA : -1);
  if ((nIdx + nTr) * 4 > LOOKAHEAD_BUDGET_BYTES) return undefined;
  const row = new Int32Array(nIdx + nTr).fill(-1);
  // Every reachable state, breadth first; row[] marks the visited ones until the rows are laid out.
  const states = [0];
  row[0] = 0;
  const visit = (target: number) => {
    const key = keyOf(target);
    if (row[key] === -1) {
      row[key] = 0;
      states.push(target);
    }
  };
  for (let n = 0; n < states.length; n++) {
    if ((nIdx + nTr) * 4 + states.length * words * 4 > LOOKAHEAD_BUDGET_BYTES) return undefined;
    const state = states[n]!;
    let t = epsilonStart(state);
    if (t >= 0) for (; t < nTr && epsilonLike[trIn[t]!]; t++) visit(trTarget[t]!);
    if (state >= TA) {
      for (const s = trIn[t]!; t < nTr && s !== NO_SYMBOL && trIn[t] === s; t++) visit(trTarget[t]!);
    } else {
      for (let s = 1; s < nIn && state + 1 + s < nIdx; s++) {
        if (idxIn[state + 1 + s] !== s) continue;
        for (t = idxTarget[state + 1 + s]! - TA; t < nTr && trIn[t] === s; t++) visit(trTarget[t]!);
      }
    }
  }
  // Each state's own bits: final, and the symbols it reads itself.
  const bits = new Uint32Array(states.length * words);
  const set = (at: number, bit: number) => (bits[at + (bit >>> 5)] = (bits[at + (bit >>> 5)]! | (1 << (bit & 31))) >>> 0);
  states.forEach((state, n) => {
    const at = n * words;
    row[keyOf(state)] = at;
    if (state >= TA) {
      const p = state - TA;
      if (trIn[p] === NO_SYMBOL && trOut[p] === NO_SYMBOL && trTarget[p] === 1) set(at, 0);
      let t = p + 1;
      while (t < nTr && epsilonLike[trIn[t]!]) t++;
      if (t < nTr && trIn[t] !== NO_SYMBOL) set(at, trIn[t]!);
    } else {
      if (idxIn[state] === NO_SYMBOL && idxTarget[state] !== NO_TABLE_INDEX) set(at, 0);
      for (let s = 1; s < nIn && state + 1 + s < nIdx; s++) if (idxIn[state + 1 + s] === s) set(at, s);
    }
  });
  // Union over ε/flag arcs until nothing changes; reverse breadth-first order needs few passes.
  for (let changed = true; changed;) {
    changed = false;
    for (let n = states.length - 1; n >= 0; n--) {
      const at = n * words;
      let t = epsilonStart(states[n]!);
      if (t < 0) continue;
      for (; t < nTr && epsilonLike[trIn[t]!]; t++) {
        const from = row[keyOf(trTarget[t]!)]!;
        for (let w = 0; w < words; w++) {
          const merged = (bits[at + w]! | bits[from + w]!) >>> 0;
          if (merged !== bits[at + w]) {
            bits[at + w] = merged;
            changed = true;
          }
        }
      }
    }
  }
  return { words, row, bits };
}
