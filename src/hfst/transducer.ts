/**
 * A reader and lookup for HFST optimized-lookup transducers (`.hfstol`, weighted and
 * unweighted), in TypeScript over typed arrays: load → lookup → dispose. The file format is read
 * by hfstol-format.ts, the one-symbol lookahead built by lookahead.ts; this module holds the
 * symbols, flags and tokeniser, and the search. See docs/hfst.md.
 *
 * Lookup is a depth-first search with an explicit stack, so input-epsilon cycles cannot
 * overflow the call stack: the search is bounded by output length, result count and time,
 * and says when a bound cut it short.
 */
import { applyFlag, FlagOp, packSwitch, parseFlag, switchTarget } from './flags.js';
import { NO_SYMBOL, NO_TABLE_INDEX, readOptimizedLookup, TA } from './hfstol-format.js';
import { buildLookahead, type Lookahead } from './lookahead.js';

export { HfstFormatError } from './hfstol-format.js';

/** Bounds on one lookup; the defaults keep a cyclic or huge transducer from running away. */
export interface LookupLimits {
  /** Longest output tape (arcs on one path), like libhfst's recursion limit. Default 5000. */
  maxDepth?: number;
  /** Stop after this many (raw) results. Default 10,000. */
  maxResults?: number;
  /** Stop after this many milliseconds. Default 1000. */
  timeLimitMs?: number;
}

/** What to keep of the results, as `hfst-optimized-lookup -u -n -b` do. */
export interface LookupOptions extends LookupLimits {
  /**
   * Drop repeated outputs, keeping the first path found for each (as `-u` does, this is not
   * always the lightest one). As with `-u`, unique results come out sorted by code point, then
   * by weight when the transducer is weighted.
   */
  unique?: boolean;
  /** Keep at most N results (the N best when weighted). */
  nBest?: number;
  /** Weighted only: keep results whose weight is within `beam` of the best. */
  beam?: number;
}

export interface LookupPath {
  output: string;
  weight: number;
}

export interface LookupResult {
  /** Whether the input could be split into the transducer's input symbols. */
  tokenized: boolean;
  /** Results: search order when unweighted; by weight (stable) when weighted. */
  results: LookupPath[];
  /** Set when a bound stopped the search before it was complete. */
  truncated?: 'depth' | 'results' | 'time';
}

/** Facts about a loaded transducer, for listings. */
export interface TransducerInfo {
  weighted: boolean;
  inputSymbolCount: number;
  symbolCount: number;
  indexEntries: number;
  transitionEntries: number;
  bytes: number;
  /** HFST3 header properties (`name`, `type`, `version` …); empty for header-less files. */
  properties: Record<string, string>;
  /** Symbols that can be read (1 … nIn−1), in table order. */
  inputSymbols: string[];
  /** Output-only symbols that are not flags or HFST specials: typically the tags. */
  outputOnlySymbols: string[];
  /** Flag diacritics, as written. */
  flags: string[];
}

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

interface TrieNode {
  symbol: number;
  next: Map<number, TrieNode>;
}

/** A loaded optimized-lookup transducer. */
export class Transducer {
  readonly info: TransducerInfo;
  private readonly symbols: string[];
  /** Printable text per symbol: '' for epsilon and flags. */
  private readonly printable: string[];
  /** Per symbol number (0..65535): 1 for epsilon, 2 for a flag, 0 otherwise. */
  private readonly epsilonLike: Uint8Array;
  private readonly flagOp: Uint8Array;
  private readonly flagFeature: Uint16Array;
  private readonly flagValue: Int32Array;
  private readonly featureCount: number;
  private idxIn: Uint16Array;
  private idxTarget: Uint32Array;
  private idxWeight: Float32Array;
  private trIn: Uint16Array;
  private trOut: Uint16Array;
  private trTarget: Uint32Array;
  private trWeight: Float32Array;
  /** Root of the tokeniser: code unit → symbol for single-unit symbols; longer ones in the trie. */
  private readonly singleUnit: Int32Array;
  /** 1 for code units that begin a symbol of more than one code unit. */
  private readonly startsLonger: Uint8Array;
  private readonly trie: TrieNode;
  /** Flag switches (see `buildSwitches`): per transition, the switch starting there (−1: none). */
  private switchAt: Int32Array;
  private switchTable: Int32Array;
  /** Per transition, where the ε/flag phase goes on after taking it (t+1, or past its flag switch). */
  private nextAfter: Int32Array;
  /** One-symbol lookahead (see `buildLookahead`); undefined when the tables are too large for it. */
  private lookahead: Lookahead | undefined;
  private disposed = false;
  private stack: SearchStack | undefined;
  private need: { needWord: Int32Array; needMask: Int32Array } | undefined;
  /** Lookahead checks made and steps they cut, until `weighLookahead` decides whether to keep it. */
  private laChecks = 0;
  private laPruned = 0;

  private constructor(bytes: Uint8Array) {
    const tables = readOptimizedLookup(bytes);
    const { properties, weighted, inputSymbolCount: nIn, symbolCount: nSym, symbols } = tables;
    const nIdx = tables.idxIn.length;
    const nTr = tables.trIn.length;
    const end = tables.bytes;
    ({ idxIn: this.idxIn, idxTarget: this.idxTarget, idxWeight: this.idxWeight, trIn: this.trIn, trOut: this.trOut, trTarget: this.trTarget, trWeight: this.trWeight } = tables);

    // Flags, printable symbols.
    this.symbols = symbols;
    this.epsilonLike = new Uint8Array(0x10000);
    this.epsilonLike[0] = 1;
    this.flagOp = new Uint8Array(nSym);
    this.flagFeature = new Uint16Array(nSym);
    this.flagValue = new Int32Array(nSym);
    const features = new Map<string, number>();
    const values = new Map<string, number>();
    const flags: string[] = [];
    const outputOnly: string[] = [];
    this.printable = symbols.map((text, s) => {
      if (s === 0 || text === '@_EPSILON_SYMBOL_@') return '';
      const flag = parseFlag(text);
      if (!flag) {
        if (s >= nIn && !/^@_.*_@$/.test(text)) outputOnly.push(text);
        return text;
      }
      flags.push(text);
      this.epsilonLike[s] = 2;
      this.flagOp[s] = FlagOp[flag.operator];
      let feature = features.get(flag.feature);
      if (feature === undefined) features.set(flag.feature, (feature = features.size));
      this.flagFeature[s] = feature;
      if (flag.value !== undefined) {
        let value = values.get(flag.value);
        if (value === undefined) values.set(flag.value, (value = values.size + 1));
        this.flagValue[s] = value;
      }
      return '';
    });
    this.featureCount = Math.max(1, features.size);

    ({ switchAt: this.switchAt, switchTable: this.switchTable, nextAfter: this.nextAfter } = this.buildSwitches());
    this.lookahead = buildLookahead(tables, this.epsilonLike, nIn);

    this.singleUnit = new Int32Array(0x10000).fill(-1);
    this.startsLonger = new Uint8Array(0x10000);
    this.trie = { symbol: -1, next: new Map() };
    for (let s = 1; s < nIn; s++) {
      const text = symbols[s]!;
      if (text.length === 0 || this.epsilonLike[s]) continue;
      if (text.length === 1) this.singleUnit[text.charCodeAt(0)] = s;
      else this.startsLonger[text.charCodeAt(0)] = 1;
      let node = this.trie;
      for (let u = 0; u < text.length; u++) {
        const code = text.charCodeAt(u);
        let child = node.next.get(code);
        if (!child) node.next.set(code, (child = { symbol: -1, next: new Map() }));
        node = child;
      }
      node.symbol = s;
    }

    this.info = {
      weighted,
      inputSymbolCount: nIn,
      symbolCount: nSym,
      indexEntries: nIdx,
      transitionEntries: nTr,
      bytes: end,
      properties,
      inputSymbols: symbols.slice(1, nIn).filter((s) => !parseFlag(s)),
      outputOnlySymbols: outputOnly,
      flags,
    };
  }

  /** Whether lookups use the one-symbol lookahead (built at load; dropped when it does not pay). */
  get usesLookahead(): boolean {
    return this.lookahead !== undefined;
  }

  /** Reads a transducer from the bytes of an `.hfstol` file; throws `HfstFormatError` when they are not one. */
  static load(bytes: Uint8Array): Transducer {
    return new Transducer(bytes);
  }

  /**
   * Finds the flag switches: runs of consecutive `@R.F.v@` transitions on one feature with two or
   * more values (a lexc continuation per tense, per subject …). The flag state of F is the same for
   * the whole run, so at most the group of transitions with value = F passes; the search jumps to
   * that group through a small hash table (`packSwitch`) and past the run after it, instead of
   * failing every other value in turn.
   */
  private buildSwitches(): { switchAt: Int32Array; switchTable: Int32Array; nextAfter: Int32Array } {
    const { trIn, flagOp, flagFeature, flagValue, epsilonLike } = this;
    const nTr = trIn.length;
    const switchAt = new Int32Array(nTr).fill(-1);
    const nextAfter = new Int32Array(nTr);
    for (let t = 0; t < nTr; t++) nextAfter[t] = t + 1;
    const table: number[] = [];
    const isValueTest = (sym: number) => epsilonLike[sym] === 2 && flagOp[sym] === FlagOp.R && flagValue[sym] !== 0;
    for (let t = 0; t < nTr; ) {
      const sym = trIn[t]!;
      if (sym === NO_SYMBOL || !isValueTest(sym)) {
        t++;
        continue;
      }
      const feature = flagFeature[sym]!;
      const groups: Array<{ value: number; start: number; last: number }> = [];
      let end = t;
      while (end < nTr && trIn[end] !== NO_SYMBOL && isValueTest(trIn[end]!) && flagFeature[trIn[end]!] === feature) {
        const value = flagValue[trIn[end]!]!;
        if (groups.at(-1)?.value === value) groups.at(-1)!.last = end;
        else groups.push({ value, start: end, last: end });
        end++;
      }
      if (groups.length >= 2) {
        switchAt[t] = packSwitch(table, feature, end, groups);
        for (const g of groups) nextAfter[g.last] = end;
      }
      t = end;
    }
    return { switchAt, switchTable: Int32Array.from(table), nextAfter };
  }

  /**
   * Splits `text` into input symbol numbers, greedily taking the longest symbol at each
   * position; undefined when some part of it is no input symbol.
   */
  tokenize(text: string): Uint16Array | undefined {
    const out = new Uint16Array(text.length);
    let n = 0;
    let pos = 0;
    while (pos < text.length) {
      // Fast path: a code unit that is a symbol and starts no longer symbol.
      const single = this.singleUnit[text.charCodeAt(pos)]!;
      if (single >= 0 && this.startsLonger[text.charCodeAt(pos)] === 0) {
        out[n++] = single;
        pos++;
        continue;
      }
      let best = -1;
      let bestEnd = pos;
      let node: TrieNode | undefined = this.trie;
      for (let u = pos; u < text.length && node; u++) {
        node = node.next.get(text.charCodeAt(u));
        if (node && node.symbol >= 0) {
          best = node.symbol;
          bestEnd = u + 1;
        }
      }
      if (best < 0) return undefined;
      out[n++] = best;
      pos = bestEnd;
    }
    return out.subarray(0, n);
  }

  /** Every output for `text`, bounded by `options`; see `LookupResult`. */
  lookup(text: string, options: LookupOptions = {}): LookupResult {
    if (this.disposed) throw new Error('transducer was disposed');
    const input = this.tokenize(text);
    if (!input) return { tokenized: false, results: [] };
    const search = this.search(input, options);
    let results = search.results;
    if (options.unique) {
      // As hfst-optimized-lookup -u: the first path found for each output (in search order) is
      // kept, and the unique outputs are ordered by code point (then by weight when weighted).
      const seen = new Set<string>();
      results = results.filter((r) => (seen.has(r.output) ? false : (seen.add(r.output), true)));
      results.sort((a, b) => compareCodePoints(a.output, b.output));
    }
    if (this.info.weighted) results.sort((a, b) => a.weight - b.weight);
    if (this.info.weighted && options.beam !== undefined && results.length > 0) {
      const limit = results[0]!.weight + options.beam;
      results = results.filter((r) => r.weight <= limit);
    }
    if (options.nBest !== undefined) results = results.slice(0, options.nBest);
    return search.truncated ? { tokenized: true, results, truncated: search.truncated } : { tokenized: true, results };
  }

  /** The depth-first search over the tables with an explicit stack. */
  private search(input: Uint16Array, limits: LookupLimits): { results: LookupPath[]; truncated?: 'depth' | 'results' | 'time' } {
    const maxDepth = Math.max(1, limits.maxDepth ?? 5000);
    const maxResults = Math.max(1, limits.maxResults ?? 10_000);
    const deadline = performance.now() + (limits.timeLimitMs ?? 1000);
    const { idxIn, idxTarget, idxWeight, trIn, trOut, trTarget, trWeight, epsilonLike, flagOp, flagFeature, flagValue, printable, switchAt, switchTable, nextAfter } = this;
    const weighted = this.info.weighted;
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
      flagState: new Int32Array(this.featureCount),
    };
    return this.stack;
  }

  /** The symbol table (index = symbol number; epsilon as ''). */
  symbolTable(): readonly string[] {
    return this.symbols;
  }

  /** Releases the tables; the transducer cannot be used afterwards. */
  dispose(): void {
    this.disposed = true;
    const empty16 = new Uint16Array(0);
    const empty32 = new Uint32Array(0);
    this.idxIn = empty16;
    this.idxTarget = empty32;
    this.idxWeight = new Float32Array(0);
    this.trIn = empty16;
    this.trOut = empty16;
    this.trTarget = empty32;
    this.trWeight = new Float32Array(0);
    this.stack = undefined;
    this.need = undefined;
    this.lookahead = undefined;
  }
}

/** Looks `text` up after Unicode normalisation `form`, and as given when the normalised text finds nothing. */
export function lookupNormalised(transducer: Transducer, form: 'NFC' | 'NFD' | 'none', text: string, options: LookupOptions): LookupResult {
  const normalised = form === 'none' ? text : text.normalize(form);
  const result = transducer.lookup(normalised, options);
  // Some transducers carry symbols in another normal form: try the text as given before giving up.
  return result.results.length === 0 && normalised !== text ? transducer.lookup(text, options) : result;
}

/** Orders strings by Unicode code point (= UTF-8 byte order), not by UTF-16 code unit. */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    // Surrogates (U+D800–DFFF) stand for code points above U+FFFF: move them above U+E000–FFFF.
    x = x >= 0xd800 && x <= 0xdfff ? x + 0x2000 : x >= 0xe000 ? x - 0x800 : x;
    y = y >= 0xd800 && y <= 0xdfff ? y + 0x2000 : y >= 0xe000 ? y - 0x800 : y;
    return x - y;
  }
  return a.length - b.length;
}
