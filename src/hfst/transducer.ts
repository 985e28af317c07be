/**
 * A reader and lookup for HFST optimized-lookup transducers (`.hfstol`, weighted and
 * unweighted), in TypeScript over typed arrays: load → lookup → dispose. Each stage has its
 * module: the file format (hfstol-format.ts), the symbols, flag switches and tokeniser
 * (symbols.ts), the one-symbol lookahead (lookahead.ts) and the bounded depth-first search
 * (search.ts); this one loads them together and keeps what a lookup returns (unique, n-best,
 * beam). See docs/hfst.md.
 */
import { ClosureSearch, type ClosureTables } from './closure-search.js';
import { parseFlag } from './flags.js';
import { readOptimizedLookup } from './hfstol-format.js';
import { buildLookahead, type Lookahead } from './lookahead.js';
import { TableSearch, type LookupLimits, type LookupPath } from './search.js';
import { buildSwitches, readSymbols, Tokenizer } from './symbols.js';

export { HfstFormatError } from './hfstol-format.js';
export type { LookupLimits, LookupPath } from './search.js';

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

/** A loaded optimized-lookup transducer. */
export class Transducer {
  readonly info: TransducerInfo;
  private readonly symbols: string[];
  private readonly tokenizer: Tokenizer;
  /** The search over the tables; undefined once disposed (it holds the tables). */
  private tableSearch: TableSearch | undefined;
  /** What `outputsOfAll` builds its closure from (kept apart: the table search may drop its lookahead). */
  private closureSource: { tables: ClosureTables; lookahead: Lookahead | undefined } | undefined;
  private closure: ClosureSearch | null | undefined;

  private constructor(bytes: Uint8Array) {
    const tables = readOptimizedLookup(bytes);
    const { properties, weighted, inputSymbolCount: nIn, symbolCount: nSym, symbols } = tables;
    const codes = readSymbols(symbols, nIn);
    const switches = buildSwitches(tables.trIn, codes);
    this.symbols = symbols;
    this.tokenizer = new Tokenizer(symbols, nIn, codes.epsilonLike);
    const lookahead = buildLookahead(tables, codes.epsilonLike, nIn);
    this.tableSearch = new TableSearch({ ...tables, ...codes, ...switches }, lookahead);
    this.closureSource = { tables: { ...tables, ...codes }, lookahead };
    this.info = {
      weighted,
      inputSymbolCount: nIn,
      symbolCount: nSym,
      indexEntries: tables.idxIn.length,
      transitionEntries: tables.trIn.length,
      bytes: tables.bytes,
      properties,
      inputSymbols: symbols.slice(1, nIn).filter((s) => !parseFlag(s)),
      outputOnlySymbols: codes.outputOnly,
      flags: codes.flags,
    };
  }

  /** Whether lookups use the one-symbol lookahead (built at load; dropped when it does not pay). */
  get usesLookahead(): boolean {
    return this.tableSearch?.usesLookahead ?? false;
  }

  /** Reads a transducer from the bytes of an `.hfstol` file; throws `HfstFormatError` when they are not one. */
  static load(bytes: Uint8Array): Transducer {
    return new Transducer(bytes);
  }

  /**
   * Splits `text` into input symbol numbers, greedily taking the longest symbol at each
   * position; undefined when some part of it is no input symbol.
   */
  tokenize(text: string): Uint16Array | undefined {
    return this.tokenizer.tokenize(text);
  }

  /** Every output for `text`, bounded by `options`; see `LookupResult`. */
  lookup(text: string, options: LookupOptions = {}): LookupResult {
    const tableSearch = this.tableSearch;
    if (!tableSearch) throw new Error('transducer was disposed');
    const input = this.tokenizer.tokenize(text);
    if (!input) return { tokenized: false, results: [] };
    const search = tableSearch.run(input, options);
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

  /**
   * The distinct outputs of each text, for many texts at once (a generator checked against a list
   * of analyses): the paths that read no input from the start are walked once for all texts (see
   * closure-search.ts) and each text is read from where they end, so a generator that writes its
   * prefixes before reading the lemma does not walk them again per text. The same outputs as
   * `lookup` without bounds; no weights. A text that is no input symbols gets no outputs; a text
   * or transducer the closure cannot serve (an input-epsilon cycle, a closure of over two million
   * paths) is looked up one by one with `fallback` (default: the bounded search's defaults).
   */
  outputsOfAll(texts: readonly string[], fallback: LookupOptions = {}): Map<string, string[]> {
    const source = this.closureSource;
    if (!source) throw new Error('transducer was disposed');
    if (this.closure === undefined) this.closure = ClosureSearch.build(source.tables, source.lookahead) ?? null;
    const out = new Map<string, string[]>();
    for (const text of texts) {
      if (out.has(text)) continue;
      const input = this.tokenizer.tokenize(text);
      if (!input) {
        out.set(text, []);
        continue;
      }
      const shared = this.closure?.outputs(input);
      out.set(text, shared ?? [...new Set(this.lookup(text, fallback).results.map((r) => r.output))]);
    }
    return out;
  }

  /** The symbol table (index = symbol number; epsilon as ''). */
  symbolTable(): readonly string[] {
    return this.symbols;
  }

  /** Releases the tables; the transducer cannot be used afterwards. */
  dispose(): void {
    this.tableSearch?.dispose();
    this.tableSearch = undefined;
    this.closureSource = undefined;
    this.closure = undefined;
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
