/**
 * Many lookups through one transducer that share the paths reading no input from the start. A
 * generator whose input puts the lemma before the tags writes the prefixes first: every lookup
 * walks the same input-epsilon paths (thousands of prefix heads and tails) and learns only at the
 * tags, from the flags the prefixes set, which of them fit. Here those paths are walked once per
 * transducer (the closure: each path's end state, flag state and output), and each input is then
 * read once from each end state, carrying the set of flag states that reached it: a flag arc
 * filters and updates the whole set. Every path is the closure path up to its first input symbol
 * followed by the rest, so the outputs are exactly those of the ordinary search, each once
 * (weights are not kept: this answers "which outputs", as a check needs).
 */
import { applyFlag, type FlagOp } from './flags.js';
import { NO_SYMBOL, NO_TABLE_INDEX, TA, type OptimizedLookupTables } from './hfstol-format.js';
import type { Lookahead } from './lookahead.js';
import type { SearchTables } from './search.js';

/** Paths walked from the start reading no input, beyond which the closure is not built (callers search input by input). */
const CLOSURE_NODE_LIMIT = 2_000_000;
/** Arcs on one path (closure or rest) before the path is given up (an input-epsilon cycle). */
const DEPTH_LIMIT = 2000;
/** Flag-state cells the cache of filtered row sets may hold (4 bytes each). */
const CACHE_CELL_LIMIT = 50_000_000;

/** The flag states that reached one end state of the closure, one row of `featureCount` values each, and their outputs. */
interface ClosureGroup {
  state: number;
  flags: Int32Array;
  /** Per row: the distinct outputs of the closure paths that end here with that flag state. */
  outputs: string[][];
  /** 0, 1, … (every row). */
  origin: Int32Array;
}

/** A set of rows (flag states) being carried along one rest path: `origin` names the closure row. */
interface Alive {
  /** The closure group and the flag symbols applied since, which alone decide the rows: the cache key. */
  key: string;
  n: number;
  flags: Int32Array;
  origin: Int32Array;
}

export type ClosureTables = Pick<SearchTables, 'idxIn' | 'idxTarget' | 'trIn' | 'trOut' | 'trTarget' | 'epsilonLike' | 'flagOp' | 'flagFeature' | 'flagValue' | 'printable' | 'featureCount'> &
  Pick<OptimizedLookupTables, 'inputSymbolCount'>;

/** Lookups sharing the closure; `undefined` from `outputs` means "search this input alone" (see the limits). */
export class ClosureSearch {
  private readonly groups: ClosureGroup[];
  /** Filtered row sets by key: inputs that take the same flag arcs from the same group share them. */
  private readonly filtered = new Map<string, Alive>();
  private cachedCells = 0;

  private constructor(
    private readonly tables: ClosureTables,
    private readonly lookahead: Lookahead | undefined,
    groups: ClosureGroup[],
  ) {
    this.groups = groups;
  }

  /** Walks the closure; undefined when it is too large or cyclic (over CLOSURE_NODE_LIMIT paths or DEPTH_LIMIT arcs). */
  static build(tables: ClosureTables, lookahead: Lookahead | undefined): ClosureSearch | undefined {
    const { trIn, trOut, trTarget, epsilonLike, flagOp, flagFeature, flagValue, printable, featureCount } = tables;
    const nTr = trIn.length;
    const byKey = new Map<string, { state: number; flags: Int32Array; outputs: Set<string> }>();
    const flagState = new Int32Array(featureCount);
    const tape: string[] = [];
    const reads = new Map<number, boolean>();
    let nodes = 0;
    let ok = true;
    const walk = (state: number, depth: number): void => {
      if (!ok) return;
      if (++nodes > CLOSURE_NODE_LIMIT || depth > DEPTH_LIMIT) {
        ok = false;
        return;
      }
      let readsInput = reads.get(state);
      if (readsInput === undefined) reads.set(state, (readsInput = stateReadsInput(tables, state)));
      if (readsInput) {
        const key = `${state}:${flagState.join(',')}`;
        let node = byKey.get(key);
        if (!node) byKey.set(key, (node = { state, flags: flagState.slice(), outputs: new Set() }));
        node.outputs.add(tape.join(''));
      }
      for (let t = epsilonStart(tables, state); t >= 0 && t < nTr && epsilonLike[trIn[t]!]; t++) {
        const sym = trIn[t]!;
        let feature = -1;
        let old = 0;
        if (sym !== 0) {
          feature = flagFeature[sym]!;
          old = flagState[feature]!;
          if (!applyFlag(flagState, flagOp[sym]! as FlagOp, feature, flagValue[sym]!)) continue;
        }
        tape.push(printable[trOut[t]!]!);
        walk(trTarget[t]!, depth + 1);
        tape.pop();
        if (feature >= 0) flagState[feature] = old;
      }
    };
    walk(0, 0);
    if (!ok) return undefined;
    const byState = new Map<number, { rows: Int32Array[]; outputs: string[][] }>();
    for (const node of byKey.values()) {
      let group = byState.get(node.state);
      if (!group) byState.set(node.state, (group = { rows: [], outputs: [] }));
      group.rows.push(node.flags);
      group.outputs.push([...node.outputs]);
    }
    const groups: ClosureGroup[] = [];
    for (const [state, g] of byState) {
      const flags = new Int32Array(g.rows.length * featureCount);
      g.rows.forEach((row, i) => flags.set(row, i * featureCount));
      groups.push({ state, flags, outputs: g.outputs, origin: Int32Array.from({ length: g.outputs.length }, (_, i) => i) });
    }
    return new ClosureSearch(tables, lookahead, groups);
  }

  /**
   * The distinct outputs of `input` (symbol numbers, at least one), or undefined when a path ran
   * over DEPTH_LIMIT arcs (an input-epsilon cycle: search the input with the bounded search).
   */
  outputs(input: Uint16Array): string[] | undefined {
    if (input.length === 0) return undefined;
    const { featureCount, trIn, trOut, trTarget, epsilonLike, flagOp, flagFeature, flagValue, printable } = this.tables;
    const nTr = trIn.length;
    const len = input.length;
    const out = new Set<string>();
    const tape: string[] = [];
    let ok = true;
    let outputsOf: string[][] = [];
    const walk = (state: number, at: number, alive: Alive, depth: number): void => {
      if (!ok) return;
      if (depth > DEPTH_LIMIT) {
        ok = false;
        return;
      }
      for (let t = epsilonStart(this.tables, state); t >= 0 && t < nTr && epsilonLike[trIn[t]!]; t++) {
        const target = trTarget[t]!;
        if (!this.canGo(target, input, at)) continue;
        const sym = trIn[t]!;
        const next = sym === 0 ? alive : (this.filtered.get(`${alive.key},${sym}`) ?? this.remember(filter(alive, sym, featureCount, flagOp[sym]! as FlagOp, flagFeature[sym]!, flagValue[sym]!)));
        if (next.n === 0) continue;
        tape.push(printable[trOut[t]!]!);
        walk(target, at, next, depth + 1);
        tape.pop();
      }
      if (at === len) {
        if (!isFinal(this.tables, state)) return;
        const rest = tape.join('');
        for (let i = 0; i < alive.n; i++) for (const head of outputsOf[alive.origin[i]!]!) out.add(head + rest);
        return;
      }
      this.consume(state, input[at]!, (t) => {
        const target = trTarget[t]!;
        if (!this.canGo(target, input, at + 1)) return;
        tape.push(printable[trOut[t]!]!);
        walk(target, at + 1, alive, depth + 1);
        tape.pop();
      });
    };
    for (const [index, group] of this.groups.entries()) {
      const n = group.outputs.length;
      const alive: Alive = { key: `${index}`, n, flags: group.flags, origin: group.origin };
      outputsOf = group.outputs;
      // The closure path ends here: the rest starts by reading the first input symbol.
      this.consume(group.state, input[0]!, (t) => {
        const target = trTarget[t]!;
        if (!this.canGo(target, input, 1)) return;
        tape.push(printable[trOut[t]!]!);
        walk(target, 1, alive, 1);
        tape.pop();
      });
      if (!ok) return undefined;
    }
    return [...out];
  }

  private remember(alive: Alive): Alive {
    // A bound on the cache's memory (rows × features): start afresh beyond it.
    if (this.cachedCells > CACHE_CELL_LIMIT) {
      this.filtered.clear();
      this.cachedCells = 0;
    }
    this.filtered.set(alive.key, alive);
    this.cachedCells += alive.flags.length;
    return alive;
  }

  /** Calls `step` with each transition of `state` reading `symbol`, as the ordinary search finds them. */
  private consume(state: number, symbol: number, step: (t: number) => void): void {
    const { idxIn, idxTarget, trIn, epsilonLike } = this.tables;
    const nTr = trIn.length;
    let t: number;
    if (state >= TA) {
      t = state - TA + 1;
      while (t < nTr && epsilonLike[trIn[t]!]) t++;
    } else {
      t = idxIn[state + 1 + symbol] === symbol ? idxTarget[state + 1 + symbol]! - TA : -1;
    }
    for (; t >= 0 && t < nTr && trIn[t] === symbol; t++) step(t);
  }

  /** The one-symbol lookahead: can `target` read input[at] (or end, at the end)? */
  private canGo(target: number, input: Uint16Array, at: number): boolean {
    const la = this.lookahead;
    if (!la) return true;
    const key = target >= TA ? target - TA + this.tables.idxIn.length : target;
    const row = la.row[key]!;
    if (row < 0) return false;
    const bit = at === input.length ? 0 : input[at]!;
    return (la.bits[row + (bit >>> 5)]! & (1 << (bit & 31))) !== 0;
  }
}

/** Whether `state` has a transition reading an input symbol (the closure's paths end at such states). */
function stateReadsInput(tables: ClosureTables, state: number): boolean {
  const { idxIn, trIn, epsilonLike } = tables;
  const nTr = trIn.length;
  if (state >= TA) {
    let t = state - TA + 1;
    while (t < nTr && epsilonLike[trIn[t]!]) t++;
    return t < nTr && trIn[t] !== NO_SYMBOL;
  }
  for (let s = 1; s < tables.inputSymbolCount && state + 1 + s < idxIn.length; s++) if (idxIn[state + 1 + s] === s && !epsilonLike[s]) return true;
  return false;
}

function epsilonStart(tables: Pick<ClosureTables, 'idxIn' | 'idxTarget'>, state: number): number {
  if (state >= TA) return state - TA + 1;
  return tables.idxIn[state + 1] === 0 ? tables.idxTarget[state + 1]! - TA : -1;
}

function isFinal(tables: ClosureTables, state: number): boolean {
  const { idxIn, idxTarget, trIn, trOut, trTarget } = tables;
  if (state >= TA) {
    const p = state - TA;
    return trIn[p] === NO_SYMBOL && trOut[p] === NO_SYMBOL && trTarget[p] === 1;
  }
  return idxIn[state] === NO_SYMBOL && idxTarget[state] !== NO_TABLE_INDEX;
}

/** The rows of `alive` that pass a flag, updated by it (the same object when every row passes unchanged). */
function filter(alive: Alive, sym: number, width: number, op: FlagOp, feature: number, value: number): Alive {
  const key = `${alive.key},${sym}`;
  const one = new Int32Array(1);
  let flags: Int32Array | undefined;
  let origin: Int32Array | undefined;
  let n = 0;
  for (let i = 0; i < alive.n; i++) {
    const at = i * width;
    const before = alive.flags[at + feature]!;
    one[0] = before;
    const passes = applyFlag(one, op, 0, value);
    if (!flags || !origin) {
      if (passes && one[0] === before) continue;
      // (`alive` itself is shared: never written.)
      // The first row that fails or changes: copy the rows before it, which passed unchanged.
      flags = new Int32Array(alive.n * width);
      origin = new Int32Array(alive.n);
      flags.set(alive.flags.subarray(0, at));
      origin.set(alive.origin.subarray(0, i));
      n = i;
    }
    if (!passes) continue;
    flags.set(alive.flags.subarray(at, at + width), n * width);
    flags[n * width + feature] = one[0]!;
    origin[n++] = alive.origin[i]!;
  }
  return flags && origin ? { key, n, flags, origin } : { ...alive, key };
}
