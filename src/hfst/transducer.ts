/**
 * A reader and lookup for HFST optimized-lookup transducers (`.hfstol`, weighted and
 * unweighted), in TypeScript over typed arrays: load → lookup → dispose.
 *
 * The format and algorithm follow the HFST runtime format (Silfverberg & Lindén, FSMNLP
 * 2009) as written by `hfst-fst2fst -O/-w` (hfst 3.16): an optional HFST3 header, a 56-byte
 * optimized-lookup header, the symbol table, the transition index table and the transition
 * table, all little-endian and packed. See docs/hfst.md.
 *
 * Lookup is a depth-first search with an explicit stack, so input-epsilon cycles cannot
 * overflow the call stack: the search is bounded by output length, result count and time,
 * and says when a bound cut it short.
 */
import { applyFlag, FlagOp, parseFlag } from './flags.js';

const NO_SYMBOL = 0xffff;
const NO_TABLE_INDEX = 0xffffffff;
const TA = 0x80000000;
const OL_HEADER_BYTES = 56;
const INDEX_ENTRY_BYTES = 6;

/** Why a `.hfstol` file could not be read. */
export class HfstFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HfstFormatError';
  }
}

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
   * Drop repeated outputs, keeping the first (the best when weighted). As with `-u`, unique
   * results of an unweighted transducer come out sorted by code point.
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
  private disposed = false;
  private stack: SearchStack | undefined;

  private constructor(bytes: Uint8Array) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const decoder = new TextDecoder('utf-8', { fatal: true });
    let offset = 0;
    const properties: Record<string, string> = {};
    if (bytes.byteLength >= 8 && decoder.decode(bytes.subarray(0, 4)) === 'HFST' && bytes[4] === 0) {
      const length = view.getUint16(5, true);
      if (bytes[7] !== 0) throw new HfstFormatError('HFST3 header: byte 7 must be 0');
      const end = 8 + length;
      if (end > bytes.byteLength || length === 0 || bytes[end - 1] !== 0) throw new HfstFormatError('HFST3 header: property block is truncated');
      const parts = decoder.decode(bytes.subarray(8, end - 1)).split('\0');
      for (let i = 0; i + 1 < parts.length; i += 2) properties[parts[i]!] = parts[i + 1]!;
      const type = properties.type;
      if (type !== undefined && type !== 'HFST_OL' && type !== 'HFST_OLW') {
        throw new HfstFormatError(`this is an HFST transducer of type ${type}, not optimized-lookup; convert it with hfst-fst2fst -O (or -w for weights)`);
      }
      offset = end;
    }
    if (offset + OL_HEADER_BYTES > bytes.byteLength) throw new HfstFormatError('optimized-lookup header is truncated');
    const nIn = view.getUint16(offset, true);
    const nSym = view.getUint16(offset + 2, true);
    const nIdx = view.getUint32(offset + 4, true);
    const nTr = view.getUint32(offset + 8, true);
    for (let b = 0; b < 9; b++) {
      const flag = view.getUint32(offset + 20 + 4 * b, true);
      if (flag > 1) throw new HfstFormatError('optimized-lookup header: invalid boolean (is this an .hfstol file?)');
    }
    const weighted = view.getUint32(offset + 20, true) === 1;
    if (nIn === 0 || nIn > nSym) throw new HfstFormatError('optimized-lookup header: bad symbol counts');
    offset += OL_HEADER_BYTES;

    const symbols: string[] = [];
    for (let s = 0; s < nSym; s++) {
      const end = bytes.indexOf(0, offset);
      if (end < 0) throw new HfstFormatError('symbol table is truncated');
      symbols.push(s === 0 ? '' : decoder.decode(bytes.subarray(offset, end)));
      offset = end + 1;
    }

    const trBytes = weighted ? 12 : 8;
    const trOffset = offset + nIdx * INDEX_ENTRY_BYTES;
    const end = trOffset + nTr * trBytes;
    // A stream may hold further transducers after this one; like hfst-optimized-lookup, read the first.
    if (end > bytes.byteLength) throw new HfstFormatError(`transducer tables are truncated (${bytes.byteLength} bytes, ${end} expected)`);

    this.idxIn = new Uint16Array(nIdx);
    this.idxTarget = new Uint32Array(nIdx);
    this.idxWeight = new Float32Array(this.idxTarget.buffer);
    for (let i = 0, o = offset; i < nIdx; i++, o += INDEX_ENTRY_BYTES) {
      this.idxIn[i] = view.getUint16(o, true);
      this.idxTarget[i] = view.getUint32(o + 2, true);
    }
    this.trIn = new Uint16Array(nTr);
    this.trOut = new Uint16Array(nTr);
    this.trTarget = new Uint32Array(nTr);
    this.trWeight = new Float32Array(nTr);
    for (let t = 0, o = trOffset; t < nTr; t++, o += trBytes) {
      this.trIn[t] = view.getUint16(o, true);
      this.trOut[t] = view.getUint16(o + 2, true);
      this.trTarget[t] = view.getUint32(o + 4, true);
      if (weighted) this.trWeight[t] = view.getFloat32(o + 8, true);
    }

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

    this.validate(nIn, nSym);

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

  /** Reads a transducer from the bytes of an `.hfstol` file; throws `HfstFormatError` when they are not one. */
  static load(bytes: Uint8Array): Transducer {
    return new Transducer(bytes);
  }

  /** Rejects tables whose pointers leave the tables, so lookup never reads outside them. */
  private validate(nIn: number, nSym: number): void {
    const nIdx = this.idxIn.length;
    const nTr = this.trIn.length;
    if (nIdx < 1) throw new HfstFormatError('transition index table is empty');
    if (nTr < 1 || this.trIn[nTr - 1] !== NO_SYMBOL) throw new HfstFormatError('transition table does not end with its terminator');
    const indexState = (target: number) => target + nIn < nIdx;
    for (let i = 0; i < nIdx; i++) {
      const input = this.idxIn[i]!;
      if (input === NO_SYMBOL) continue;
      const target = this.idxTarget[i]!;
      if (input >= nSym || target < TA || target - TA >= nTr) throw new HfstFormatError(`transition index ${i} points outside the tables`);
    }
    for (let t = 0; t < nTr; t++) {
      const input = this.trIn[t]!;
      if (input === NO_SYMBOL) continue;
      const target = this.trTarget[t]!;
      const ok = target >= TA ? target - TA + 1 < nTr : indexState(target);
      if (input >= nSym || this.trOut[t]! >= nSym || !ok) throw new HfstFormatError(`transition ${t} points outside the tables`);
    }
    if (!indexState(0)) throw new HfstFormatError('transition index table is too short');
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
    if (this.info.weighted) results.sort((a, b) => a.weight - b.weight);
    if (options.unique) {
      const seen = new Set<string>();
      results = results.filter((r) => (seen.has(r.output) ? false : (seen.add(r.output), true)));
      // The C++ tool keeps unique unweighted results in a set, so they come out in code point order.
      if (!this.info.weighted) results.sort((a, b) => compareCodePoints(a.output, b.output));
    }
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
    const { idxIn, idxTarget, idxWeight, trIn, trOut, trTarget, trWeight, epsilonLike, flagOp, flagFeature, flagValue, printable } = this;
    const weighted = this.info.weighted;
    const nTr = trIn.length;
    const len = input.length;
    const stack = this.stackFor(maxDepth + 1);
    const { fState, fIn, fW, fPhase, fCursor, fUndoFeature, fUndoValue, tape } = stack;
    const flagState = stack.flagState.fill(0);
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
      const phase = fPhase[k]!;
      if (phase === 0) {
        // Start: find this state's epsilon/flag block.
        if (state >= TA) fCursor[k] = state - TA + 1;
        else fCursor[k] = idxIn[state + 1] === 0 ? idxTarget[state + 1]! - TA : -1;
        fPhase[k] = 1;
        continue;
      }
      if (phase === 1) {
        let t = fCursor[k]!;
        if (t >= 0) {
          while (t < nTr && epsilonLike[trIn[t]!]) {
            const sym = trIn[t]!;
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
            if (k + 1 > maxDepth) {
              truncated ??= 'depth';
              if (undoFeature >= 0) flagState[undoFeature] = undoValue;
              t++;
              continue;
            }
            fCursor[k] = t + 1;
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
          fPhase[k] = 3;
          continue;
        }
        const s = input[at]!;
        if (state >= TA) {
          let t2 = state - TA + 1;
          while (t2 < nTr && epsilonLike[trIn[t2]!]) t2++;
          fCursor[k] = t2;
        } else {
          fCursor[k] = idxIn[state + 1 + s] === s ? idxTarget[state + 1 + s]! - TA : -1;
        }
        fPhase[k] = 2;
        continue;
      }
      if (phase === 2) {
        const t = fCursor[k]!;
        const s = input[fIn[k]!]!;
        if (t >= 0 && t < nTr && trIn[t] === s) {
          fCursor[k] = t + 1;
          if (k + 1 > maxDepth) {
            truncated ??= 'depth';
            continue;
          }
          tape[k] = trOut[t]!;
          const c = k + 1;
          fState[c] = trTarget[t]!;
          fIn[c] = fIn[k]! + 1;
          fW[c] = Math.fround(fW[k]! + trWeight[t]!);
          fPhase[c] = 0;
          fUndoFeature[c] = -1;
          depth = c;
          continue;
        }
      }
      // Done with this state: undo the flag that led here and return to the parent.
      const undo = fUndoFeature[k]!;
      if (undo >= 0) flagState[undo] = fUndoValue[k]!;
      depth--;
    }
    return truncated ? { results, truncated } : { results };
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
  }
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
