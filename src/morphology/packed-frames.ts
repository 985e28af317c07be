/**
 * An analyser's frame index packed into a few typed arrays and one string, instead of hundreds
 * of thousands of small objects (the largest cartridge has about 360,000 frames under 163,000 keys; as JS objects
 * the frames of every language took some 160 MiB of heap; packed, about 16 MiB).
 *
 * - the keys (the text before the root) are stored back to back in one string, in code-unit order,
 *   found by binary search; key i is `text[starts[i]..starts[i+1])`. The string is one byte a
 *   letter when every letter is below U+0100 (all cartridges but one);
 * - a frame's text after the root, its lemma prefix and its shape are few (at most a few hundred
 *   combinations in a cartridge: its "kind"), so a frame stores one small kind id (1 or 2 bytes);
 * - frame ids are given in key order, the first time a key lists a frame: a key's list is then its
 *   next new ids, except the few entries that name a frame an earlier key listed (`reusedAt`,
 *   `reusedId`), so the lists need no array of their own;
 * - a frame's cells are a run of cell ids (indices into the paradigm's cells, which the cartridge
 *   determines): each frame stores its cell count (1 byte), and the run's start is kept for one
 *   frame in `BLOCK`;
 * - the frame's text before the root is not kept: the key that finds it is that text (or its
 *   plain spelling), and an analysis reads only what follows the root;
 * - a frame is decoded into a plain `FoundFrame` when an analysis looks at it.
 *
 * The same arrays are the file the frame cache keeps on disk (`toBuffer` / `fromBuffer`): loading
 * is copying a few arrays, not parsing JSON.
 */
import { endianness } from 'node:os';
import type { Cell } from './generator.js';
import type { CellList } from './packed-cells.js';
import { compareAt } from './string-table.js';

/** One way a root can meet its affixes; each shape gives its own frames. */
export interface Shape {
  /** Root text before the hole (a root-initial vowel whose coalescence the frame must see). */
  initial: string;
  /** The lexeme keeps this final vowel (loan verbs), or null. */
  ownFinalVowel: string | null;
  short: boolean;
  /** Enclitic the lemma is cited with (salawo = sala + -wo). */
  enclitic?: string;
}

export interface Frame {
  /** Cells whose forms have this same text around the placeholder; the first stands for all. */
  cells: Cell[];
  shape: Shape;
  /** Nouns: the citation prefix a proposed stem is put after to make the lemma. */
  lemmaPrefix?: string;
  before: string;
  after: string;
}

/** A frame as the index gives it back: all but its text before the root (which found it). */
export type FoundFrame = Omit<Frame, 'before'>;

const MAGIC = 'LGF3';
/** Frames per kept start of a run of cells (a frame's run starts at most BLOCK - 1 counts after it). */
const BLOCK = 32;
const EMPTY: readonly number[] = Object.freeze([]);

type Small = Uint8Array | Uint16Array | Uint32Array;
type Width = 1 | 2 | 4;

/** A frame's text after the root, lemma prefix (null: none) and shape id, as the header keeps them. */
type KindRow = [after: string, lemmaPrefix: string | null, shape: number];

/** The header of the file form: counts, the shape and kind tables and whatever the owner adds (`extra`). */
interface Header {
  endian: string;
  cells: number;
  shapes: Shape[];
  kinds: KindRow[];
  keyCount: number;
  textLength: number;
  textWidth: 1 | 2;
  frames: number;
  reused: number;
  cellRefs: number;
  kindWidth: Width;
  countWidth: Width;
  cellWidth: 2 | 4;
  extra: unknown;
}

const widthFor = (max: number): Width => (max <= 0xff ? 1 : max <= 0xffff ? 2 : 4);
const arrayOf = (width: Width, values: ArrayLike<number>): Small => (width === 1 ? Uint8Array.from(values) : width === 2 ? Uint16Array.from(values) : Uint32Array.from(values));
const makeArray = (width: Width, n: number): Small => (width === 1 ? new Uint8Array(n) : width === 2 ? new Uint16Array(n) : new Uint32Array(n));

/** A kind decoded once: what each frame of that kind gives back besides its cells. */
interface Kind {
  shape: Shape;
  after: string;
  lemmaPrefix: string | null;
}

export class PackedFrames {
  readonly #kinds: readonly Kind[];

  private constructor(
    private readonly cells: CellList,
    private readonly shapes: readonly Shape[],
    private readonly kindRows: readonly KindRow[],
    private readonly text: string,
    /** keyCount + 1 offsets into `text`. */
    private readonly starts: Uint32Array,
    /** keyCount + 1 positions in the lists of all keys, one after another. */
    private readonly keyStart: Uint32Array,
    /** Positions (ascending) whose entry names a frame an earlier position named, and that frame's id. */
    private readonly reusedAt: Uint32Array,
    private readonly reusedId: Uint32Array,
    /** Per frame: its kind id. */
    private readonly frameKind: Small,
    /** Per frame: how many cells it has. */
    private readonly cellCount: Small,
    /** Per BLOCK frames (and one past the end): where the first one's cells start in frameCells. */
    private readonly blockStart: Uint32Array,
    private readonly frameCells: Uint16Array | Uint32Array,
  ) {
    this.#kinds = kindRows.map(([after, lemmaPrefix, shape]) => ({ after, lemmaPrefix, shape: shapes[shape]! }));
  }

  /** How many frames the index holds. */
  get size(): number {
    return this.frameKind.length;
  }

  /**
   * Packs frames found by key (each list in its order) over the paradigm's `cells` (the objects the
   * frames hold); the index then gives its cells from `list` (the same cells, packed: packed-cells.ts).
   */
  static pack(byKey: ReadonlyMap<string, readonly Frame[]>, cells: readonly Cell[], list: CellList = cells): PackedFrames {
    const cellIds = new Map(cells.map((c, i) => [c, i]));
    const keys = [...byKey.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const shapes: Shape[] = [];
    const shapeIds = new Map<string, number>();
    const kinds: KindRow[] = [];
    const kindIds = new Map<string, number>();
    const frameIds = new Map<Frame, number>();
    const frameKind: number[] = [];
    const cellCount: number[] = [];
    const frameCells: number[] = [];
    const keyStart: number[] = [0];
    const reusedAt: number[] = [];
    const reusedId: number[] = [];
    let position = 0;
    for (const key of keys) {
      for (const frame of byKey.get(key)!) {
        const known = frameIds.get(frame);
        if (known !== undefined) {
          reusedAt.push(position++);
          reusedId.push(known);
          continue;
        }
        frameIds.set(frame, frameIds.size);
        position++;
        const s = frame.shape;
        const shapeKey = `${s.initial}\u0000${s.ownFinalVowel}\u0000${s.short}\u0000${s.enclitic ?? '\u0001'}`;
        let shape = shapeIds.get(shapeKey);
        if (shape === undefined) shapeIds.set(shapeKey, (shape = shapes.push(s) - 1));
        const kindKey = `${frame.after}\u0000${frame.lemmaPrefix ?? '\u0001'}\u0000${shape}`;
        let kind = kindIds.get(kindKey);
        if (kind === undefined) kindIds.set(kindKey, (kind = kinds.push([frame.after, frame.lemmaPrefix ?? null, shape]) - 1));
        frameKind.push(kind);
        cellCount.push(frame.cells.length);
        for (const cell of frame.cells) {
          const c = cellIds.get(cell);
          if (c === undefined) throw new Error('a frame names a cell outside the paradigm');
          frameCells.push(c);
        }
      }
      keyStart.push(position);
    }
    const starts = new Uint32Array(keys.length + 1);
    let at = 0;
    keys.forEach((s, i) => {
      starts[i] = at;
      at += s.length;
    });
    starts[keys.length] = at;
    const blockStart = new Uint32Array(Math.ceil(frameKind.length / BLOCK) + 1);
    let cellAt = 0;
    for (let f = 0; f < frameKind.length; f++) {
      if (f % BLOCK === 0) blockStart[f / BLOCK] = cellAt;
      cellAt += cellCount[f]!;
    }
    blockStart[blockStart.length - 1] = cellAt;
    return new PackedFrames(
      list,
      shapes,
      kinds,
      keys.join(''),
      starts,
      Uint32Array.from(keyStart),
      Uint32Array.from(reusedAt),
      Uint32Array.from(reusedId),
      arrayOf(widthFor(kinds.length - 1), frameKind),
      arrayOf(widthFor(cellCount.reduce((a, b) => Math.max(a, b), 0)), cellCount),
      blockStart,
      cells.length <= 0xffff ? Uint16Array.from(frameCells) : Uint32Array.from(frameCells),
    );
  }

  /** The ids of the frames found by `key`, in their order (empty when none). */
  at(key: string): readonly number[] {
    let lo = 0;
    let hi = this.starts.length - 2;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const c = compareAt(key, this.text, this.starts, mid);
      if (c === 0) return this.#list(mid);
      if (c < 0) hi = mid - 1;
      else lo = mid + 1;
    }
    return EMPTY;
  }

  /** Key `k`'s frame ids: a new id at each position (the positions before it, less the reused ones), else the reused frame's. */
  #list(k: number): number[] {
    const from = this.keyStart[k]!;
    const to = this.keyStart[k + 1]!;
    const reusedAt = this.reusedAt;
    // The first reused position at or after `from`.
    let lo = 0;
    let hi = reusedAt.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (reusedAt[mid]! < from) lo = mid + 1;
      else hi = mid;
    }
    const out: number[] = [];
    for (let p = from, r = lo; p < to; p++) {
      if (r < reusedAt.length && reusedAt[r] === p) out.push(this.reusedId[r++]!);
      else out.push(p - r);
    }
    return out;
  }

  /** The frame with this id, decoded. */
  frame(id: number): FoundFrame {
    const kind = this.#kinds[this.frameKind[id]!]!;
    let start = this.blockStart[Math.floor(id / BLOCK)]!;
    for (let f = id - (id % BLOCK); f < id; f++) start += this.cellCount[f]!;
    const cells: Cell[] = [];
    for (let k = start, end = start + this.cellCount[id]!; k < end; k++) cells.push(this.cells.at(this.frameCells[k]!)!);
    return {
      cells,
      shape: kind.shape,
      ...(kind.lemmaPrefix !== null ? { lemmaPrefix: kind.lemmaPrefix } : {}),
      after: kind.after,
    };
  }

  /** The file form: a magic, a JSON header (with `extra`, the owner's own data) and the arrays. */
  toBuffer(extra: unknown): Buffer {
    let wide = false;
    for (let i = 0; i < this.text.length && !wide; i++) wide = this.text.charCodeAt(i) > 0xff;
    const header: Header = {
      endian: endianness(),
      cells: this.cells.length,
      shapes: [...this.shapes],
      kinds: [...this.kindRows],
      keyCount: this.starts.length - 1,
      textLength: this.text.length,
      textWidth: wide ? 2 : 1,
      frames: this.size,
      reused: this.reusedAt.length,
      cellRefs: this.frameCells.length,
      kindWidth: this.frameKind.BYTES_PER_ELEMENT as Width,
      countWidth: this.cellCount.BYTES_PER_ELEMENT as Width,
      cellWidth: this.frameCells instanceof Uint16Array ? 2 : 4,
      extra,
    };
    const json = Buffer.from(JSON.stringify(header), 'utf8');
    const head = Buffer.alloc(8);
    head.write(MAGIC, 0, 'latin1');
    head.writeUInt32LE(json.length, 4);
    const pad = Buffer.alloc((4 - ((8 + json.length) % 4)) % 4);
    const view = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
    const arrays = [this.starts, this.keyStart, this.reusedAt, this.reusedId, this.blockStart, this.frameCells, this.frameKind, this.cellCount];
    return Buffer.concat([head, json, pad, ...arrays.map(view), Buffer.from(this.text, wide ? 'utf16le' : 'latin1')]);
  }

  /** Reads `toBuffer`'s form over the paradigm's `cells`; undefined for a buffer that is not one or does not fit. */
  static fromBuffer(buffer: Buffer, cells: CellList): { frames: PackedFrames; extra: unknown } | undefined {
    if (buffer.length < 8 || buffer.toString('latin1', 0, 4) !== MAGIC) return undefined;
    const jsonLength = buffer.readUInt32LE(4);
    const header = JSON.parse(buffer.toString('utf8', 8, 8 + jsonLength)) as Header;
    if (header.endian !== endianness() || header.cells !== cells.length) return undefined;
    let at = 8 + jsonLength;
    at += (4 - (at % 4)) % 4;
    // Copied out of the file's buffer (which is not kept), each into an array of its own.
    const take = <T extends Small>(array: T): T => {
      const bytes = array.byteLength;
      if (at + bytes > buffer.length) throw new Error('truncated frame file');
      new Uint8Array(array.buffer).set(buffer.subarray(at, at + bytes));
      at += bytes;
      return array;
    };
    const u32 = (n: number) => take(new Uint32Array(n));
    const starts = u32(header.keyCount + 1);
    const keyStart = u32(header.keyCount + 1);
    const reusedAt = u32(header.reused);
    const reusedId = u32(header.reused);
    const blockStart = u32(Math.ceil(header.frames / BLOCK) + 1);
    const frameCells = header.cellWidth === 2 ? take(new Uint16Array(header.cellRefs)) : u32(header.cellRefs);
    const frameKind = take(makeArray(header.kindWidth, header.frames));
    const cellCount = take(makeArray(header.countWidth, header.frames));
    if (at + header.textLength * header.textWidth !== buffer.length) return undefined;
    // One byte a letter when the text allows (latin1 gives V8 a one-byte string).
    const text = buffer.toString(header.textWidth === 2 ? 'utf16le' : 'latin1', at, buffer.length);
    const frames = new PackedFrames(cells, header.shapes, header.kinds, text, starts, keyStart, reusedAt, reusedId, frameKind, cellCount, blockStart, frameCells);
    return { frames, extra: header.extra };
  }
}
