/**
 * A transducer's symbols as lookup reads them: printable text, flag diacritics interned as
 * numbers (operation, feature, value), the flag switches over the transition table, and the
 * tokeniser that splits input text into input symbols (longest match).
 */
import { FlagOp, packSwitch, parseFlag } from './flags.js';
import { NO_SYMBOL } from './hfstol-format.js';

/** The symbol table, read once at load. */
export interface SymbolCodes {
  /** Printable text per symbol: '' for epsilon and flags. */
  printable: string[];
  /** Per symbol number (0..65535): 1 for epsilon, 2 for a flag, 0 otherwise. */
  epsilonLike: Uint8Array;
  flagOp: Uint8Array;
  flagFeature: Uint16Array;
  flagValue: Int32Array;
  /** Flag features (at least 1, so a flag state is never empty). */
  featureCount: number;
  /** Flag diacritics, as written. */
  flags: string[];
  /** Output-only symbols that are not flags or HFST specials: typically the tags. */
  outputOnly: string[];
}

/** Reads the symbol table: symbols below `nIn` are input symbols. */
export function readSymbols(symbols: readonly string[], nIn: number): SymbolCodes {
  const nSym = symbols.length;
  const epsilonLike = new Uint8Array(0x10000);
  epsilonLike[0] = 1;
  const flagOp = new Uint8Array(nSym);
  const flagFeature = new Uint16Array(nSym);
  const flagValue = new Int32Array(nSym);
  const features = new Map<string, number>();
  const values = new Map<string, number>();
  const flags: string[] = [];
  const outputOnly: string[] = [];
  const printable = symbols.map((text, s) => {
    if (s === 0 || text === '@_EPSILON_SYMBOL_@') return '';
    const flag = parseFlag(text);
    if (!flag) {
      if (s >= nIn && !/^@_.*_@$/.test(text)) outputOnly.push(text);
      return text;
    }
    flags.push(text);
    epsilonLike[s] = 2;
    flagOp[s] = FlagOp[flag.operator];
    let feature = features.get(flag.feature);
    if (feature === undefined) features.set(flag.feature, (feature = features.size));
    flagFeature[s] = feature;
    if (flag.value !== undefined) {
      let value = values.get(flag.value);
      if (value === undefined) values.set(flag.value, (value = values.size + 1));
      flagValue[s] = value;
    }
    return '';
  });
  return { printable, epsilonLike, flagOp, flagFeature, flagValue, featureCount: Math.max(1, features.size), flags, outputOnly };
}

/** The flag switches of a transition table, and where the ε/flag phase goes on after each transition. */
export interface FlagSwitches {
  /** Per transition, the switch starting there (−1: none). */
  switchAt: Int32Array;
  switchTable: Int32Array;
  /** Per transition, where the ε/flag phase goes on after taking it (t+1, or past its flag switch). */
  nextAfter: Int32Array;
}

/**
 * Finds the flag switches: runs of consecutive `@R.F.v@` transitions on one feature with two or
 * more values (a lexc continuation per tense, per subject …). The flag state of F is the same for
 * the whole run, so at most the group of transitions with value = F passes; the search jumps to
 * that group through a small hash table (`packSwitch`) and past the run after it, instead of
 * failing every other value in turn.
 */
export function buildSwitches(trIn: Uint16Array, { flagOp, flagFeature, flagValue, epsilonLike }: SymbolCodes): FlagSwitches {
  const nTr = trIn.length;
  const switchAt = new Int32Array(nTr).fill(-1);
  const nextAfter = new Int32Array(nTr);
  for (let t = 0; t < nTr; t++) nextAfter[t] = t + 1;
  const table: number[] = [];
  const isValueTest = (sym: number) => epsilonLike[sym] === 2 && flagOp[sym] === FlagOp.R && flagValue[sym] !== 0;
  for (let t = 0; t < nTr;) {
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

interface TrieNode {
  symbol: number;
  next: Map<number, TrieNode>;
}

/** Splits text into input symbols, greedily taking the longest symbol at each position. */
export class Tokenizer {
  /** Root of the tokeniser: code unit → symbol for single-unit symbols; longer ones in the trie. */
  private readonly singleUnit = new Int32Array(0x10000).fill(-1);
  /** 1 for code units that begin a symbol of more than one code unit. */
  private readonly startsLonger = new Uint8Array(0x10000);
  private readonly trie: TrieNode = { symbol: -1, next: new Map() };

  /** Over the input symbols 1 … nIn−1 that are neither empty, epsilon nor a flag. */
  constructor(symbols: readonly string[], nIn: number, epsilonLike: Uint8Array) {
    for (let s = 1; s < nIn; s++) {
      const text = symbols[s]!;
      if (text.length === 0 || epsilonLike[s]) continue;
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
  }

  /** The input symbol numbers of `text`; undefined when some part of it is no input symbol. */
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
}
