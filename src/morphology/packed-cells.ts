/**
 * The paradigm's cells (paradigm-cells.ts) packed: a row of small numbers per cell instead of an
 * object per cell. The analyser of a large cartridge holds tens of thousands of cells (87,000 over
 * the eleven engines, about 80 bytes each as objects), and an analysis looks at few of them: a cell
 * becomes an object the first time it is asked for, and stays that object (so the same id gives the
 * same object, as the array did).
 */
import type { Cell } from './generator.js';

/** Cells by id: an array of them, or a `PackedCells`. */
export interface CellList {
  readonly length: number;
  at(id: number): Cell | undefined;
}

export class PackedCells implements CellList {
  readonly length: number;
  readonly #made: Array<Cell | undefined>;

  private constructor(
    /** Each shape's keys, in the order the cell had them (JSON and key order stay the same). */
    private readonly shapes: ReadonlyArray<readonly string[]>,
    /** Every distinct value. */
    private readonly values: readonly string[],
    /** Per cell: its shape id, then one value id per key of its shape (`width` numbers a cell). */
    private readonly rows: Uint16Array,
    private readonly width: number,
  ) {
    this.length = rows.length / width;
    this.#made = new Array<Cell | undefined>(this.length);
  }

  /** The cells packed; the array itself when a cell has a value that is not a string (nothing to gain). */
  static of(cells: readonly Cell[]): CellList {
    // Two passes that make nothing per cell (a warm-up packs tens of thousands): each cell's shape,
    // found by walking its keys down a tree of the key orders seen, then its values.
    interface Node {
      next: Map<string, Node>;
      keys: string[];
      shape?: number;
    }
    const root: Node = { next: new Map(), keys: [] };
    const shapes: string[][] = [];
    const shapeOf = new Uint32Array(cells.length);
    let width = 1;
    for (let i = 0; i < cells.length; i++) {
      let node = root;
      for (const key in cells[i]) {
        let next = node.next.get(key);
        if (!next) node.next.set(key, (next = { next: new Map(), keys: [...node.keys, key] }));
        node = next;
      }
      if (node.shape === undefined) {
        node.shape = shapes.push(node.keys) - 1;
        width = Math.max(width, node.keys.length + 1);
      }
      shapeOf[i] = node.shape;
    }
    const values: string[] = [];
    const valueIds = new Map<string, number>();
    // (more than 65,536 shapes or values would take wider rows: no paradigm comes near, so such cells stay objects)
    if (shapes.length > 0xffff) return cells as Cell[];
    const rows = new Uint16Array(cells.length * width);
    for (let i = 0; i < cells.length; i++) {
      const cell = cells[i] as unknown as Record<string, unknown>;
      const keys = shapes[shapeOf[i]!]!;
      rows[i * width] = shapeOf[i]!;
      for (let k = 0; k < keys.length; k++) {
        const value = cell[keys[k]!];
        if (typeof value !== 'string') return cells as Cell[];
        let id = valueIds.get(value);
        if (id === undefined) valueIds.set(value, (id = values.push(value) - 1));
        if (id > 0xffff) return cells as Cell[];
        rows[i * width + 1 + k] = id;
      }
    }
    return new PackedCells(shapes, values, rows, width);
  }

  /** The cell with this id (made on first use, then kept). */
  at(id: number): Cell | undefined {
    if (!(id >= 0 && id < this.length)) return undefined;
    return (this.#made[id] ??= this.#make(id));
  }

  #make(id: number): Cell {
    const at = id * this.width;
    const keys = this.shapes[this.rows[at]!]!;
    const cell: Record<string, string> = {};
    for (let k = 0; k < keys.length; k++) cell[keys[k]!] = this.values[this.rows[at + 1 + k]!]!;
    return cell as unknown as Cell;
  }
}
