/**
 * An analyser's frame index packed into a few typed arrays and one string, instead of hundreds
 * of thousands of small objects (the largest cartridge has about 360,000 frames under 163,000 keys; as JS objects
 * the frames of every language took some 160 MiB of heap; packed, about 16 MiB).
 *
 * - the keys (the text before the root) are sorted in code-unit order and front-coded: each key
 *   keeps only what follows the prefix it shares with the key before it (neighbours share 87% of
 *   their letters), and every `KEY_BLOCK`th key is kept whole, so a lookup is a binary search over
 *   those and a short scan that compares as it reads. The letters kept are one string, one byte a
 *   letter when every letter is below U+0100 (all cartridges but one);
 * - a frame's text after the root, its lemma prefix and its shape are few (at most a few hundred
 *   combinations in a cartridge: its "kind"), so a frame stores one small kind id (1 or 2 bytes);
 * - frame ids are given in key order, the first time a key lists a frame: a key's list is then its
 *   next new ids, except the few entries that name a frame an earlier key listed (`reusedAt`,
 *   `reusedId`), so the lists need no array of their own, only each key's count;
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

const MAGIC = 'LGF4';
/** Frames per kept start of a run of cells (a frame's run starts at most BLOCK - 1 counts after it). */
const BLOCK = 32;
/** Keys per key kept whole (a lookup scans at most this many keys after its binary search). */
const KEY_BLOCK = 16;
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
  positions: number;
  reused: number;
  cellRefs: number;
  sharedWidth: Width;
  restWidth: Width;
  listWidth: Width;
  kindWidth: Width;
  countWidth: Width;
  cellWidth: 2 | 4;
  extra: unknown;
}

const widthFor = (max: number): Width => (max <= 0xff ? 1 : max <= 0xffff ? 2 : 4);
const largest = (values: readonly number[]): number => values.reduce((a, b) => Math.max(a, b), 0);
const arrayOf = (values: readonly number[]): Small => {
  const width = widthFor(largest(values));
  return width === 1 ? Uint8Array.from(values) : width === 2 ? Uint16Array.from(values) : Uint32Array.from(values);
};
const makeArray = (width: Width, n: number): Small => (width === 1 ? new Uint8Array(n) : width === 2 ? new Uint16Array(n) : new Uint32Array(n));
const widthOf = (array: Small): Width => array.BYTES_PER_ELEMENT as Width;

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
    /** Each key's letters after the prefix it shares with the key before it, back to back. */
    private readonly text: string,
    /** Per key: the length of the prefix it shares with the key before it (0 for the first of a KEY_BLOCK). */
    private readonly shared: Small,
    /** Per key: how many letters of its own `text` holds. */
    private readonly rest: Small,
    /** Per KEY_BLOCK keys (and one past the end): where the first one's letters start in `text`. */
    private readonly keyText: Uint32Array,
    /** Per key: how many entries its list has. */
    private readonly listLength: Small,
    /** Per KEY_BLOCK keys (and one past the end): the position of the first one's list in the lists of all keys, one after another. */
    private readonly keyList: Uint32Array,
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
    const listLength: number[] = [];
    const reusedAt: number[] = [];
    const reusedId: number[] = [];
    let position = 0;
    for (const key of keys) {
      const frames = byKey.get(key)!;
      listLength.push(frames.length);
      for (const frame of frames) {
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
    }
    // The keys front-coded, every KEY_BLOCK-th whole.
    const shared: number[] = [];
    const rest: number[] = [];
    const parts: string[] = [];
    const keyText = new Uint32Array(Math.ceil(keys.length / KEY_BLOCK) + 1);
    const keyList = new Uint32Array(keyText.length);
    let textAt = 0;
    let listAt = 0;
    keys.forEach((key, k) => {
      let same = 0;
      if (k % KEY_BLOCK === 0) {
        keyText[k / KEY_BLOCK] = textAt;
        keyList[k / KEY_BLOCK] = listAt;
      } else {
        const before = keys[k - 1]!;
        while (same < key.length && same < before.length && key.charCodeAt(same) === before.charCodeAt(same)) same++;
      }
      shared.push(same);
      rest.push(key.length - same);
      parts.push(key.slice(same));
      textAt += key.length - same;
      listAt += listLength[k]!;
    });
    keyText[keyText.length - 1] = textAt;
    keyList[keyList.length - 1] = listAt;
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
      parts.join(''),
      arrayOf(shared),
      arrayOf(rest),
      keyText,
      arrayOf(listLength),
      keyList,
      Uint32Array.from(reusedAt),
      Uint32Array.from(reusedId),
      arrayOf(frameKind),
      arrayOf(cellCount),
      blockStart,
      cells.length <= 0xffff ? Uint16Array.from(frameCells) : Uint32Array.from(frameCells),
    );
  }

  /** The ids of the frames found by `key`, in their order (empty when none). */
  at(key: string): readonly number[] {
    const text = this.text;
    const blocks = this.keyText.length - 1;
    // The last block whose first key (kept whole) is at most `key`.
    let lo = 0;
    let hi = blocks - 1;
    let block = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const start = this.keyText[mid]!;
      const length = this.rest[mid * KEY_BLOCK]!;
      const n = Math.min(key.length, length);
      let k = 0;
      while (k < n && key.charCodeAt(k) === text.charCodeAt(start + k)) k++;
      const c = k < n ? key.charCodeAt(k) - text.charCodeAt(start + k) : key.length - length;
      if (c === 0) return this.#list(this.keyList[mid]!, this.listLength[mid * KEY_BLOCK]!);
      if (c > 0) {
        block = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (block < 0) return EMPTY;
    // The scan: `matched` letters of `key` agree with the key before (which is less than `key`).
    let textAt = this.keyText[block]!;
    let listAt = this.keyList[block]!;
    let matched = 0;
    const first = block * KEY_BLOCK;
    const end = Math.min(first + KEY_BLOCK, this.shared.length);
    for (let i = first; i < end; i++) {
      const same = this.shared[i]!;
      const length = this.rest[i]!;
      if (same < matched) return EMPTY; // it parts from the key before where that one still agreed, upwards: past `key`
      if (same === matched) {
        let k = 0;
        while (k < length && matched + k < key.length && text.charCodeAt(textAt + k) === key.charCodeAt(matched + k)) k++;
        if (k === length && matched + k === key.length) return this.#list(listAt, this.listLength[i]!);
        // Past `key` when `key` ends first or has the lesser letter.
        if (k < length && (matched + k === key.length || text.charCodeAt(textAt + k) > key.charCodeAt(matched + k))) return EMPTY;
        matched += k;
      }
      // (same > matched: it agrees with the key before beyond where that one parted from `key`: still less)
      textAt += length;
      listAt += this.listLength[i]!;
    }
    return EMPTY;
  }

  /** The frame ids at `count` positions from `from`: a new id at each (the positions before it, less the reused ones), else the reused frame's. */
  #list(from: number, count: number): number[] {
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
    for (let p = from, r = lo, to = from + count; p < to; p++) {
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
      keyCount: this.shared.length,
      textLength: this.text.length,
      textWidth: wide ? 2 : 1,
      frames: this.size,
      positions: this.keyList[this.keyList.length - 1]!,
      reused: this.reusedAt.length,
      cellRefs: this.frameCells.length,
      sharedWidth: widthOf(this.shared),
      restWidth: widthOf(this.rest),
      listWidth: widthOf(this.listLength),
      kindWidth: widthOf(this.frameKind),
      countWidth: widthOf(this.cellCount),
      cellWidth: this.frameCells instanceof Uint16Array ? 2 : 4,
      extra,
    };
    const json = Buffer.from(JSON.stringify(header), 'utf8');
    const head = Buffer.alloc(8);
    head.write(MAGIC, 0, 'latin1');
    head.writeUInt32LE(json.length, 4);
    const pad = Buffer.alloc((4 - ((8 + json.length) % 4)) % 4);
    const view = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
    const arrays = [this.keyText, this.keyList, this.reusedAt, this.reusedId, this.blockStart, this.frameCells, this.shared, this.rest, this.listLength, this.frameKind, this.cellCount];
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
    const keyBlocks = Math.ceil(header.keyCount / KEY_BLOCK) + 1;
    const keyText = u32(keyBlocks);
    const keyList = u32(keyBlocks);
    const reusedAt = u32(header.reused);
    const reusedId = u32(header.reused);
    const blockStart = u32(Math.ceil(header.frames / BLOCK) + 1);
    const frameCells = header.cellWidth === 2 ? take(new Uint16Array(header.cellRefs)) : u32(header.cellRefs);
    const shared = take(makeArray(header.sharedWidth, header.keyCount));
    const rest = take(makeArray(header.restWidth, header.keyCount));
    const listLength = take(makeArray(header.listWidth, header.keyCount));
    const frameKind = take(makeArray(header.kindWidth, header.frames));
    const cellCount = take(makeArray(header.countWidth, header.frames));
    if (at + header.textLength * header.textWidth !== buffer.length) return undefined;
    // One byte a letter when the text allows (latin1 gives V8 a one-byte string).
    const text = buffer.toString(header.textWidth === 2 ? 'utf16le' : 'latin1', at, buffer.length);
    const frames = new PackedFrames(cells, header.shapes, header.kinds, text, shared, rest, keyText, listLength, keyList, reusedAt, reusedId, frameKind, cellCount, blockStart, frameCells);
    return { frames, extra: header.extra };
  }
}
