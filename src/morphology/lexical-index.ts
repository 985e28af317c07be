/**
 * The analyser's lexical index (every form of every non-verb lexicon entry, by surface; see
 * `LexiconReadings.lexicalSteps`) packed into one string and a few typed arrays instead of a Map of
 * arrays of `{ lemma, cell }` objects: the largest lexicon's index held 72,000 such objects and
 * 30,000 arrays (about 7 MiB of heap). An entry becomes an object only when a lookup returns it.
 *
 * - every string (the surfaces in the order they were added, then each distinct lemma) is stored
 *   once, back to back: string i is `text[starts[i]..starts[i+1])`;
 * - `sorted` lists the surfaces' ids in code-unit order, for a binary search;
 * - surface i's entries are `entryStart[i]..entryStart[i+1]` of `lemmas` (string ids) and `cells`
 *   (ids in the paradigm's cells).
 */
import type { Cell } from './generator.js';
import type { CellList } from './packed-cells.js';
import { compareAt, stringAt } from './string-table.js';

/** A lexical entry: a lemma and the paradigm cell whose form has the surface. */
export interface LexicalEntry {
  lemma: string;
  cell: Cell;
}

/** The index's rows as the frame cache keeps them: [surface, lemma, cell id, lemma, cell id, ...]. */
export type LexicalRow = [string, ...Array<string | number>];

export class LexicalIndex {
  /** The packed arrays as `LexicalIndexBuilder.finish` makes them (see the file's comment); build one with `fromRows`, `fromMap` or `builder`. */
  constructor(
    private readonly text: string,
    private readonly starts: Uint32Array,
    private readonly surfaces: number,
    private readonly sorted: Uint32Array,
    private readonly entryStart: Uint32Array,
    private readonly lemmas: Uint32Array,
    private readonly cellIds: Uint16Array | Uint32Array,
    private readonly cells: CellList,
  ) {}

  /** How many surfaces the index holds. */
  get size(): number {
    return this.surfaces;
  }

  /** The entries of `surface`, in the order they were added (undefined when none). */
  get(surface: string): LexicalEntry[] | undefined {
    let lo = 0;
    let hi = this.surfaces - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const id = this.sorted[mid]!;
      const c = this.#compare(surface, id);
      if (c === 0) {
        const out: LexicalEntry[] = [];
        for (let k = this.entryStart[id]!; k < this.entryStart[id + 1]!; k++) out.push({ lemma: this.#string(this.lemmas[k]!), cell: this.cells.at(this.cellIds[k]!)! });
        return out;
      }
      if (c < 0) hi = mid - 1;
      else lo = mid + 1;
    }
    return undefined;
  }

  /** Every surface's row (cells by id), in the order they were added. */
  *rows(): Generator<LexicalRow> {
    for (let id = 0; id < this.surfaces; id++) {
      const row: LexicalRow = [this.#string(id)];
      for (let k = this.entryStart[id]!; k < this.entryStart[id + 1]!; k++) row.push(this.#string(this.lemmas[k]!), this.cellIds[k]!);
      yield row;
    }
  }

  #string(id: number): string {
    return stringAt(this.text, this.starts, id);
  }

  #compare(key: string, id: number): number {
    return compareAt(key, this.text, this.starts, id);
  }

  /** Packs the index from its rows (each surface once, cells by id into `cells`); undefined when a cell id is outside them. */
  static fromRows(rows: Iterable<LexicalRow>, cells: CellList): LexicalIndex | undefined {
    const builder = new LexicalIndexBuilder();
    for (const [surface, ...pairs] of rows) {
      builder.surface(surface);
      for (let k = 0; k < pairs.length; k += 2) {
        const cell = pairs[k + 1] as number;
        if (!(cell >= 0 && cell < cells.length)) return undefined;
        builder.entry(pairs[k] as string, cell);
      }
    }
    return builder.finish(cells);
  }

  /** Packs an index built as a Map (cells by object, found in `cells`). */
  static fromMap(map: ReadonlyMap<string, readonly LexicalEntry[]>, cells: readonly Cell[], packedCells: CellList): LexicalIndex {
    const ids = new Map(cells.map((c, i) => [c, i]));
    const builder = new LexicalIndexBuilder();
    for (const [surface, entries] of map) {
      builder.surface(surface);
      for (const { lemma, cell } of entries) {
        const id = ids.get(cell);
        if (id === undefined) throw new Error('a lexical entry names a cell outside the paradigm');
        builder.entry(lemma, id);
      }
    }
    return builder.finish(packedCells);
  }

  /** An index packed by steps: surfaces and their entries added one by one (`fromRows` in a loop the caller can pause). */
  static builder(): LexicalIndexBuilder {
    return new LexicalIndexBuilder();
  }
}

/** Collects surfaces and entries, then packs them (`finish`). */
export class LexicalIndexBuilder {
  readonly #surfaces: string[] = [];
  readonly #lemmaIds = new Map<string, number>();
  readonly #lemmaList: string[] = [];
  readonly #entryStart: number[] = [0];
  readonly #lemmas: number[] = [];
  readonly #cells: number[] = [];

  /** Starts the entries of a new surface (each surface once). */
  surface(surface: string): void {
    if (this.#surfaces.length > 0) this.#entryStart.push(this.#lemmas.length);
    this.#surfaces.push(surface);
  }

  /** Adds an entry to the last surface. */
  entry(lemma: string, cell: number): void {
    let id = this.#lemmaIds.get(lemma);
    if (id === undefined) this.#lemmaIds.set(lemma, (id = this.#lemmaList.push(lemma) - 1));
    this.#lemmas.push(id);
    this.#cells.push(cell);
  }

  get size(): number {
    return this.#surfaces.length;
  }

  finish(cells: CellList): LexicalIndex {
    const surfaces = this.#surfaces.length;
    const entryStart = Uint32Array.from(surfaces > 0 ? [...this.#entryStart, this.#lemmas.length] : [0]);
    const strings = [...this.#surfaces, ...this.#lemmaList];
    const starts = new Uint32Array(strings.length + 1);
    for (let i = 0; i < strings.length; i++) starts[i + 1] = starts[i]! + strings[i]!.length;
    const order = Array.from({ length: surfaces }, (_, i) => i);
    const keys = this.#surfaces;
    order.sort((a, b) => (keys[a]! < keys[b]! ? -1 : keys[a]! > keys[b]! ? 1 : 0));
    const lemmas = Uint32Array.from(this.#lemmas, (id) => surfaces + id);
    const cellIds = cells.length <= 0xffff ? Uint16Array.from(this.#cells) : Uint32Array.from(this.#cells);
    return new LexicalIndex(strings.join(''), starts, surfaces, Uint32Array.from(order), entryStart, lemmas, cellIds, cells);
  }
}
