/**
 * An analyser's frame index packed into a few typed arrays and one string, instead of hundreds
 * of thousands of small objects (the largest cartridge has about 200,000 frames under 72,000 keys; as JS objects
 * the frames of every language took some 160 MiB of heap, packed they take a tenth of that).
 *
 * - every string (the keys, then each frame's text before and after the root and its lemma
 *   prefix) is stored once, back to back in one string; string i is `text[starts[i]..starts[i+1])`;
 * - the keys are strings 0..keyCount-1 in code-unit order, found by binary search;
 * - a key's frames are a run of frame ids, a frame's cells a run of cell ids (indices into the
 *   paradigm's cells, which the cartridge determines);
 * - a frame is decoded into a plain `Frame` when an analysis looks at it.
 *
 * The same arrays are the file the frame cache keeps on disk (`toBuffer` / `fromBuffer`): loading
 * is copying a few arrays, not parsing JSON.
 */
import { endianness } from 'node:os';
import type { Cell } from './generator.js';
import type { CellList } from './packed-cells.js';
import { compareAt, stringAt } from './string-table.js';

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

const NONE = 0xffffffff;
const MAGIC = 'LGF2';
const EMPTY = new Uint32Array(0);

/** The header of the file form: counts, the shape table and whatever the owner adds (`extra`). */
interface Header {
  endian: string;
  cells: number;
  shapes: Shape[];
  keyCount: number;
  strings: number;
  textLength: number;
  frames: number;
  keyFrames: number;
  cellRefs: number;
  cellWidth: 2 | 4;
  extra: unknown;
}

export class PackedFrames {
  private constructor(
    private readonly cells: CellList,
    private readonly shapes: readonly Shape[],
    private readonly text: string,
    private readonly starts: Uint32Array,
    private readonly keyCount: number,
    /** keyCount + 1 offsets into keyFrames. */
    private readonly keyStart: Uint32Array,
    private readonly keyFrames: Uint32Array,
    /** Per frame: before, after, lemma prefix (NONE: none) string ids, and the shape id. */
    private readonly frameFields: Uint32Array,
    /** frames + 1 offsets into frameCells. */
    private readonly cellStart: Uint32Array,
    private readonly frameCells: Uint16Array | Uint32Array,
  ) {}

  /** How many frames the index holds. */
  get size(): number {
    return this.cellStart.length - 1;
  }

  /**
   * Packs frames found by key (each list in its order) over the paradigm's `cells` (the objects the
   * frames hold); the index then gives its cells from `list` (the same cells, packed: packed-cells.ts).
   */
  static pack(byKey: ReadonlyMap<string, readonly Frame[]>, cells: readonly Cell[], list: CellList = cells): PackedFrames {
    const cellIds = new Map(cells.map((c, i) => [c, i]));
    const keys = [...byKey.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const strings = [...keys];
    const stringIds = new Map(keys.map((k, i) => [k, i]));
    const stringId = (s: string | undefined): number => {
      if (s === undefined) return NONE;
      let id = stringIds.get(s);
      if (id === undefined) stringIds.set(s, (id = strings.push(s) - 1));
      return id;
    };
    const shapes: Shape[] = [];
    const shapeIds = new Map<string, number>();
    const frameIds = new Map<Frame, number>();
    const fields: number[] = [];
    const cellStart: number[] = [0];
    const frameCells: number[] = [];
    const keyStart: number[] = [0];
    const keyFrames: number[] = [];
    for (const key of keys) {
      for (const frame of byKey.get(key)!) {
        let id = frameIds.get(frame);
        if (id === undefined) {
          id = frameIds.size;
          frameIds.set(frame, id);
          const s = frame.shape;
          const shapeKey = `${s.initial}\u0000${s.ownFinalVowel}\u0000${s.short}\u0000${s.enclitic ?? '\u0001'}`;
          let shape = shapeIds.get(shapeKey);
          if (shape === undefined) shapeIds.set(shapeKey, (shape = shapes.push(s) - 1));
          fields.push(stringId(frame.before), stringId(frame.after), stringId(frame.lemmaPrefix), shape);
          for (const cell of frame.cells) {
            const c = cellIds.get(cell);
            if (c === undefined) throw new Error('a frame names a cell outside the paradigm');
            frameCells.push(c);
          }
          cellStart.push(frameCells.length);
        }
        keyFrames.push(id);
      }
      keyStart.push(keyFrames.length);
    }
    const starts = new Uint32Array(strings.length + 1);
    let at = 0;
    strings.forEach((s, i) => {
      starts[i] = at;
      at += s.length;
    });
    starts[strings.length] = at;
    return new PackedFrames(
      list,
      shapes,
      strings.join(''),
      starts,
      keys.length,
      Uint32Array.from(keyStart),
      Uint32Array.from(keyFrames),
      Uint32Array.from(fields),
      Uint32Array.from(cellStart),
      cells.length <= 0xffff ? Uint16Array.from(frameCells) : Uint32Array.from(frameCells),
    );
  }

  /** The ids of the frames found by `key`, in their order (empty when none). */
  at(key: string): Uint32Array {
    let lo = 0;
    let hi = this.keyCount - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const c = this.#compare(key, mid);
      if (c === 0) return this.keyFrames.subarray(this.keyStart[mid]!, this.keyStart[mid + 1]!);
      if (c < 0) hi = mid - 1;
      else lo = mid + 1;
    }
    return EMPTY;
  }

  /** The frame with this id, decoded. */
  frame(id: number): Frame {
    const f = id * 4;
    const cells: Cell[] = [];
    for (let k = this.cellStart[id]!, end = this.cellStart[id + 1]!; k < end; k++) cells.push(this.cells.at(this.frameCells[k]!)!);
    const prefix = this.frameFields[f + 2]!;
    return {
      cells,
      shape: this.shapes[this.frameFields[f + 3]!]!,
      ...(prefix !== NONE ? { lemmaPrefix: this.#string(prefix) } : {}),
      before: this.#string(this.frameFields[f]!),
      after: this.#string(this.frameFields[f + 1]!),
    };
  }

  #string(id: number): string {
    return stringAt(this.text, this.starts, id);
  }

  #compare(key: string, id: number): number {
    return compareAt(key, this.text, this.starts, id);
  }

  /** The file form: a magic, a JSON header (with `extra`, the owner's own data) and the arrays. */
  toBuffer(extra: unknown): Buffer {
    const header: Header = {
      endian: endianness(),
      cells: this.cells.length,
      shapes: [...this.shapes],
      keyCount: this.keyCount,
      strings: this.starts.length - 1,
      textLength: this.text.length,
      frames: this.size,
      keyFrames: this.keyFrames.length,
      cellRefs: this.frameCells.length,
      cellWidth: this.frameCells instanceof Uint16Array ? 2 : 4,
      extra,
    };
    const json = Buffer.from(JSON.stringify(header), 'utf8');
    const head = Buffer.alloc(8);
    head.write(MAGIC, 0, 'latin1');
    head.writeUInt32LE(json.length, 4);
    const pad = Buffer.alloc((4 - ((8 + json.length) % 4)) % 4);
    const view = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
    const cellsPad = Buffer.alloc(this.frameCells.byteLength % 4);
    return Buffer.concat([head, json, pad, view(this.starts), view(this.keyStart), view(this.keyFrames), view(this.frameFields), view(this.cellStart), view(this.frameCells), cellsPad, Buffer.from(this.text, 'utf16le')]);
  }

  /** Reads `toBuffer`'s form over the paradigm's `cells`; undefined for a buffer that is not one or does not fit. */
  static fromBuffer(buffer: Buffer, cells: CellList): { frames: PackedFrames; extra: unknown } | undefined {
    if (buffer.length < 8 || buffer.toString('latin1', 0, 4) !== MAGIC) return undefined;
    const jsonLength = buffer.readUInt32LE(4);
    const header = JSON.parse(buffer.toString('utf8', 8, 8 + jsonLength)) as Header;
    if (header.endian !== endianness() || header.cells !== cells.length) return undefined;
    let at = 8 + jsonLength;
    at += (4 - (at % 4)) % 4;
    // Copied out of the file's buffer: aligned, and the buffer is not kept.
    const take = <T extends Uint32Array | Uint16Array>(make: (n: number) => T, count: number): T => {
      const array = make(count);
      const bytes = array.byteLength;
      if (at + bytes > buffer.length) throw new Error('truncated frame file');
      new Uint8Array(array.buffer).set(buffer.subarray(at, at + bytes));
      at += bytes;
      return array;
    };
    const u32 = (n: number) => new Uint32Array(n);
    const starts = take(u32, header.strings + 1);
    const keyStart = take(u32, header.keyCount + 1);
    const keyFrames = take(u32, header.keyFrames);
    const frameFields = take(u32, header.frames * 4);
    const cellStart = take(u32, header.frames + 1);
    const frameCells = header.cellWidth === 2 ? take((n) => new Uint16Array(n), header.cellRefs) : take(u32, header.cellRefs);
    at += frameCells.byteLength % 4;
    if (at + header.textLength * 2 !== buffer.length) return undefined;
    const text = buffer.toString('utf16le', at, at + header.textLength * 2);
    const frames = new PackedFrames(cells, header.shapes, text, starts, header.keyCount, keyStart, keyFrames, frameFields, cellStart, frameCells);
    return { frames, extra: header.extra };
  }
}
