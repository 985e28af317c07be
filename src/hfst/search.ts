/**
 * The lookup search over an optimized-lookup transducer's tables: a depth-first search with an
 * explicit stack, so input-epsilon cycles cannot overflow the call stack. It is bounded by output
 * length, result count and time, and says when a bound cut it short. Flag diacritics are checked
 * (and flag switches jumped) on the way; the one-symbol lookahead prunes steps that cannot lead
 * to the rest of the input, and is dropped when it does not pay.
 */
import { applyFlag, FlagOp, switchTarget } from './flags.js';
import { NO_SYMBOL, NO_TABLE_INDEX, TA, type OptimizedLookupTables } from './hfstol-format.js';
import type { Lookahead } from './lookahead.js';
import type { FlagSwitches, SymbolCodes } from './symbols.js';

/** Bounds on one lookup; the defaults keep a cyclic or huge transducer from running away. */
export interface LookupLimits {
  /** Longest output tape (arcs on one path), like libhfst's recursion limit. Default 5000. */
  maxDepth?: number;
  /** Stop after this many (raw) results. Default 10,000. */
  maxResults?: number;
  /** Stop after this many milliseconds. Default 1000. */
  timeLimitMs?: number;
}

export interface LookupPath {
  output: string;
  weight: number;
}

/** The tables one search reads: the transition and index tables, the symbols' codes and the flag switches. */
export type SearchTables = Pick<OptimizedLookupTables, 'idxIn' | 'idxTarget' | 'idxWeight' | 'trIn' | 'trOut' | 'trTarget' | 'trWeight' | 'weighted'> &
  Pick<SymbolCodes, 'epsilonLike' | 'flagOp' | 'flagFeature' | 'flagValue' | 'printable' | 'featureCount'> &
  FlagSwitches;

interface SearchStack {
  fState: Uint32Array;
  fIn: Uint32Array;
  fW: Float64Array;
  fPhase: Uint8Array;
  fCursor: Int32Array;
  fUndoFeature: Int32Array;
  fUndoValue: Int32Array;
  tape: Uint16Array;
  flagState: Int32Array;
}

/** The lookahead is weighed after this many checks, and kept when it cut at least this share of them. */
const LOOKAHEAD_TRIAL_CHECKS = 1_000_000;
const LOOKAHEAD_MIN_PRUNED = 0.35;
const EMPTY_ROWS = new Int32Array(0);
const EMPTY_BITS = new Uint32Array(0);

/** Searches one transducer's tables; its stack and lookahead buffers are reused between lookups (lookups are synchronous). */
export class TableSearch {
  private stack: SearchStack | undefined;
  private need: { needWord: Int32Array; needMask: Int32Array } | undefined;
  /** Lookahead checks made and steps they cut, until `weighLookahead` decides whether to keep it. */
  private laChecks = 0;
  private laPruned = 0;

  /** `lookahead` is undefined when the tables are too large for it (see `buildLookahead`). */
  constructor(
    private readonly tables: SearchTables,
    private lookahead: Lookahead | undefined,
  ) {}

  /** Whether searches use the one-symbol lookahead (dropped when it does not pay). */
  get usesLookahead(): boolean {
    return this.lookahead !== undefined;
  }

  /** The depth-first search over the tables with an explicit stack. */
  run(input: Uint16Array, limits: LookupLimits): { results: LookupPath[]; truncated?: 'depth' | 'results' | 'time' } {
    const maxDepth = Math.max(1, limits.maxDepth ?? 5000);
    const maxResults = Math.max(1, limits.maxResults ?? 10_000);
    const deadline = performance.now() + (limits.timeLimitMs ?? 1000);
    const { idxIn, idxTarget, idxWeight, trIn, trOut, trTarget, trWeight, epsilonLike, flagOp, flagFeature, flagValue, printable, switchAt, switchTable, nextAfter } = this.tables;
    const weighted = this.tables.weighted;
    const nTr = trIn.length;
    const len = input.length;
    const stack = this.stackFor(maxDepth + 1);
    const { fState, fIn, fW, fPhase, fCursor, fUndoFeature, fUndoValue, tape } = stack;
    const flagState = stack.flagState.fill(0);
    // Lookahead: a step into state x with the input at position `at` is taken only if bit
    // (needWord[at], needMask[at]) of x's row is set: the next input symbol, or "can end" at the end.
    const lookahead = this.lookahead;
    const prune = lookahead !== undefined;
    const laRow = lookahead?.row ?? EMPTY_ROWS;
    const laBits = lookahead?.bits ?? EMPTY_BITS;
    const simpleBase = idxIn.length - TA;
    const { needWord, needMask } = this.needFor(input, lookahead);
    let checks = 0;
    let pruned = 0;
    const results: LookupPath[] = [];
    let truncated: 'depth' | 'results' | 'time' | undefined;
    let steps = 0;

    fState[0] = 0;
    fIn[0] = 0;
    fW[0] = 0;
    fPhase[0] = 0;
    fUndoFeature[0] = -1;
    let depth = 0;
    search: while (depth >= 0) {
      const k = depth;
      if ((++steps & 0xfff) === 0 && performance.now() > deadline) {
        truncated = 'time';
        break;
      }
      const state = fState[k]!;
      let phase = fPhase[k]!;
      if (phase === 0) {
        // Start: find this state's epsilon/flag block.
        if (state >= TA) fCursor[k] = state - TA + 1;
        else fCursor[k] = idxIn[state + 1] === 0 ? idxTarget[state + 1]! - TA : -1;
        fPhase[k] = phase = 1;
      }
      if (phase === 1) {
        let t = fCursor[k]!;
        if (t >= 0) {
          const at = fIn[k]!;
          let dispatched = false;
          while (t < nTr && epsilonLike[trIn[t]!]) {
            const sym = trIn[t]!;
            // A run of R flags on one feature: only the group whose value the feature holds can pass.
            const sw = switchAt[t]!;
            if (sw >= 0 && !dispatched) {
              t = switchTarget(switchTable, sw, flagState[switchTable[sw]!]!);
              dispatched = true;
              continue;
            }
            dispatched = false;
            let undoFeature = -1;
            let undoValue = 0;
            if (sym !== 0) {
              const feature = flagFeature[sym]!;
              const old = flagState[feature]!;
              if (!applyFlag(flagState, flagOp[sym]! as FlagOp, feature, flagValue[sym]!)) {
                t++;
                continue;
              }
              undoFeature = feature;
              undoValue = old;
            }
            if (prune) {
              const target = trTarget[t]!;
              checks++;
              if ((laBits[laRow[target >= TA ? target + simpleBase : target]! + needWord[at]!]! & needMask[at]!) === 0) {
                pruned++;
                if (undoFeature >= 0) flagState[undoFeature] = undoValue;
                t = nextAfter[t]!;
                continue;
              }
            }
            if (k + 1 > maxDepth) {
              truncated ??= 'depth';
              if (undoFeature >= 0) flagState[undoFeature] = undoValue;
              t++;
              continue;
            }
            fCursor[k] = nextAfter[t]!;
            tape[k] = trOut[t]!;
            const c = k + 1;
            fState[c] = trTarget[t]!;
            fIn[c] = fIn[k]!;
            fW[c] = Math.fround(fW[k]! + trWeight[t]!);
            fPhase[c] = 0;
            fUndoFeature[c] = undoFeature;
            fUndoValue[c] = undoValue;
            depth = c;
            continue search;
          }
        }
        // Epsilons done: record if final at the end of input, else find the symbol's block.
        const at = fIn[k]!;
        if (at === len) {
          let final = false;
          let weight = fW[k]!;
          if (state >= TA) {
            const p = state - TA;
            if (trIn[p] === NO_SYMBOL && trOut[p] === NO_SYMBOL && trTarget[p] === 1) {
              final = true;
              weight = Math.fround(weight + trWeight[p]!);
            }
          } else if (idxIn[state] === NO_SYMBOL && idxTarget[state] !== NO_TABLE_INDEX) {
            final = true;
            if (weighted) weight = Math.fround(weight + idxWeight[state]!);
          }
          if (final) {
            let output = '';
            for (let i = 0; i < k; i++) output += printable[tape[i]!];
            results.push({ output, weight });
            if (results.length >= maxResults) {
              truncated = 'results';
              break;
            }
          }
        } else {
          const s = input[at]!;
          if (state >= TA) {
            let t2 = state - TA + 1;
            while (t2 < nTr && epsilonLike[trIn[t2]!]) t2++;
            fCursor[k] = t2;
          } else {
            fCursor[k] = idxIn[state + 1 + s] === s ? idxTarget[state + 1 + s]! - TA : -1;
          }
          fPhase[k] = phase = 2;
        }
      }
      if (phase === 2) {
        let t = fCursor[k]!;
        const next = fIn[k]! + 1;
        const s = input[next - 1]!;
        while (t >= 0 && t < nTr && trIn[t] === s) {
          if (prune) {
            const target = trTarget[t]!;
            checks++;
            if ((laBits[laRow[target >= TA ? target + simpleBase : target]! + needWord[next]!]! & needMask[next]!) === 0) {
              pruned++;
              t++;
              continue;
            }
          }
          if (k + 1 > maxDepth) {
            truncated ??= 'depth';
            t++;
            continue;
          }
          fCursor[k] = t + 1;
          tape[k] = trOut[t]!;
          const c = k + 1;
          fState[c] = trTarget[t]!;
          fIn[c] = fIn[k]! + 1;
          fW[c] = Math.fround(fW[k]! + trWeight[t]!);
          fPhase[c] = 0;
          fUndoFeature[c] = -1;
          depth = c;
          continue search;
        }
      }
      // Done with this state: undo the flag that led here and return to the parent.
      const undo = fUndoFeature[k]!;
      if (undo >= 0) flagState[undo] = fUndoValue[k]!;
      depth--;
    }
    if (prune) this.weighLookahead(checks, pruned);
    return truncated ? { results, truncated } : { results };
  }

  /**
   * Drops the lookahead when it does not pay: in a generator almost every step reads no input
   * (the surface comes out before the lemma is read), so the checks cut little and mostly cost
   * memory reads (a table generator of 270,657 transitions: 6.7 s with them, 3.4 s without). After
   * LOOKAHEAD_TRIAL_CHECKS checks, a lookahead that cut fewer than LOOKAHEAD_MIN_PRUNED of the
   * steps is dropped. Results are the same either way.
   */
  private weighLookahead(checks: number, pruned: number): void {
    this.laChecks += checks;
    this.laPruned += pruned;
    if (this.laChecks < LOOKAHEAD_TRIAL_CHECKS) return;
    if (this.laPruned < this.laChecks * LOOKAHEAD_MIN_PRUNED) this.lookahead = undefined;
    this.laChecks = Number.NEGATIVE_INFINITY; // decided: never weigh again
  }

  /** Per input position, the lookahead word and bit a state must have: the symbol there, or bit 0 at the end. */
  private needFor(input: Uint16Array, lookahead: Lookahead | undefined): { needWord: Int32Array; needMask: Int32Array } {
    const size = input.length + 1;
    if (!this.need || this.need.needWord.length < size) {
      const capacity = Math.max(64, size * 2);
      this.need = { needWord: new Int32Array(capacity), needMask: new Int32Array(capacity) };
    }
    if (lookahead) {
      const { needWord, needMask } = this.need;
      for (let i = 0; i < input.length; i++) {
        needWord[i] = input[i]! >>> 5;
        needMask[i] = 1 << (input[i]! & 31);
      }
      needWord[input.length] = 0;
      needMask[input.length] = 1;
    }
    return this.need;
  }

  /** The search stack, reused between lookups (lookup is synchronous, so never shared). */
  private stackFor(size: number): SearchStack {
    if (this.stack && this.stack.fState.length >= size) return this.stack;
    this.stack = {
      fState: new Uint32Array(size),
      fIn: new Uint32Array(size),
      fW: new Float64Array(size),
      fPhase: new Uint8Array(size),
      fCursor: new Int32Array(size),
      fUndoFeature: new Int32Array(size),
      fUndoValue: new Int32Array(size),
      tape: new Uint16Array(size),
      flagState: new Int32Array(this.tables.featureCount),
    };
    return this.stack;
  }

  /** Drops the buffers and the lookahead. */
  dispose(): void {
    this.stack = undefined;
    this.need = undefined;
    this.lookahead = undefined;
  }
}
