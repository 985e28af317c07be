/**
 * The learnt text models (learned-model.ts) in one binary file each, so a process reads a model with
 * a file read, a few string decodes and typed-array copies instead of parsing its TSV files (about
 * 1.5 s for the largest model on the shared 2-core machine, most of it building Maps and collecting
 * the garbage; docs/benchmarks.md). The model folder's TSV files stay the source (the learner writes
 * and reads them); this file is derived from them and never committed.
 *
 * In the file, and in memory once read, the string-keyed tables of a model (word forms, template
 * pairs, stem lexicon, ranker weights, context names) are `PackedTable`s: every key in one string
 * with offsets, an open-addressing hash table of the keys' numbers, the values in a typed array.
 * The file holds those arrays as they are in memory (the hash table included), so reading builds no
 * Map and hashes nothing.
 *
 * Files are kept as `<cacheDir>/<iso>.<js|ts>.<hash>.model`, the hash over the model folder's files
 * (names and bytes) and this module's and learned-model's code, so a changed model or loader is never
 * served from a stale file. Built by `npm run build:frames` (scripts/build-frames.mjs), else by the
 * first run that reads the model; a folder that cannot be written only costs the TSV read. Writes are
 * atomic (temporary file + rename). A file that is not one of these, or not of this format, is read
 * from the TSV files again and replaced. The hash is noted in `<iso>.<js|ts>-key.json` with the
 * files' sizes and times, so a process reads and hashes the model folder only when they changed
 * (`notedFolderKey`).
 *
 * Besides the model's own tables, the file holds what the first unseen word would otherwise build
 * from every template (the template indexes by written prefix and suffix, the prefix templates
 * sorted for composition, their tag bigrams): a process decodes only the templates a word meets.
 */
import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { folderKey, notedFolderKey, replaceCacheFile, updateWithFiles } from '../file-digest.js';
import {
  ContextWeights,
  formEntries,
  hashOf,
  isContextFeature,
  lemmaCounts,
  loadModel,
  loadModelInBackground,
  prefixOrderOf,
  type LearnedModel,
  type PrefixOrder,
  type PrefixTemplate,
  type SuffixTemplate,
  type TemplateIndex,
  type TemplateList,
  type Lookup,
  type Lines,
  withTaggerFile,
} from './learned-model.js';
import { formatSegmentation } from './sadii.js';
import type { Morpheme } from './types.js';
import { runSteps, runStepsInSlices } from '../steps.js';

/** Bumped when the file's layout changes. */
const FORMAT = 3;
const MAGIC = 'LGTM';

/**
 * String -> number, read-only: key i is `text` from `starts[i]` to `starts[i + 1]` (UTF-16 offsets),
 * its value `numbers[i]`; `slots` is an open-addressing hash table (as many slots as a power of two
 * at least twice the keys) of key number + 1 (0: empty). Iterates in key order.
 */
export class PackedTable implements Lookup<number> {
  readonly size: number;

  constructor(
    readonly text: string,
    readonly starts: Uint32Array,
    readonly slots: Uint32Array,
    readonly numbers: Uint32Array | Float64Array,
  ) {
    this.size = starts.length - 1;
  }

  /** The entries packed, in their order (keys distinct); values in a Float64Array, or (`whole`) a Uint32Array when every one fits. */
  static of(entries: Iterable<[string, number]>, whole = true): PackedTable {
    const list = [...entries];
    const starts = new Uint32Array(list.length + 1);
    for (let i = 0; i < list.length; i++) starts[i + 1] = starts[i]! + list[i]![0].length;
    const fits = whole && list.every(([, v]) => Number.isInteger(v) && v >= 0 && v <= 0xffffffff);
    const values = fits ? Uint32Array.from(list, ([, v]) => v) : Float64Array.from(list, ([, v]) => v);
    let size = 16;
    while (size < list.length * 2) size *= 2;
    const slots = new Uint32Array(size);
    for (let i = 0; i < list.length; i++) {
      let slot = hashOf(list[i]![0]) & (size - 1);
      while (slots[slot] !== 0) slot = (slot + 1) & (size - 1);
      slots[slot] = i + 1;
    }
    return new PackedTable(list.map(([k]) => k).join(''), starts, slots, values);
  }

  /** The number of `key`, or -1. */
  indexOf(key: string): number {
    const mask = this.slots.length - 1;
    for (let slot = hashOf(key) & mask; ; slot = (slot + 1) & mask) {
      const taken = this.slots[slot]!;
      if (taken === 0) return -1;
      const start = this.starts[taken - 1]!;
      if (this.starts[taken]! - start !== key.length) continue;
      let k = 0;
      while (k < key.length && this.text.charCodeAt(start + k) === key.charCodeAt(k)) k++;
      if (k === key.length) return taken - 1;
    }
  }

  get(key: string): number | undefined {
    const i = this.indexOf(key);
    return i < 0 ? undefined : this.numbers[i];
  }

  has(key: string): boolean {
    return this.indexOf(key) >= 0;
  }

  keyAt(i: number): string {
    return this.text.slice(this.starts[i], this.starts[i + 1]);
  }

  *keys(): Generator<string> {
    for (let i = 0; i < this.size; i++) yield this.keyAt(i);
  }

  *values(): Generator<number> {
    for (let i = 0; i < this.size; i++) yield this.numbers[i]!;
  }

  *[Symbol.iterator](): Generator<[string, number]> {
    for (let i = 0; i < this.size; i++) yield [this.keyAt(i), this.numbers[i]!];
  }
}

/**
 * The lines of a text kept as the one string and where each line starts, not a string a line: a
 * model's readings.tsv (65,000 lines in the largest) is decoded line by line on first use
 * (`readingAt`). Line i is what `text.split('\n')[i]` would be.
 */
export class TextLines implements Lines {
  readonly length: number;

  private constructor(
    private readonly text: string,
    /** Line i starts at starts[i] and ends one before starts[i + 1] (its newline, or the end of the text). */
    private readonly starts: Uint32Array,
  ) {
    this.length = starts.length - 1;
  }

  static of(text: string): TextLines {
    let count = 1;
    for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) count++;
    const starts = new Uint32Array(count + 1);
    let i = 1;
    for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) starts[i++] = at + 1;
    starts[count] = text.length + 1;
    return new TextLines(text, starts);
  }

  at(index: number): string | undefined {
    if (!(index >= 0 && index < this.length)) return undefined;
    return this.text.slice(this.starts[index], this.starts[index + 1]! - 1);
  }
}

type Kind = 'utf8' | 'u32' | 'u16' | 'f64';
type Section = string | Uint32Array | Uint16Array | Float64Array;

interface Header {
  format: number;
  language: string;
  scale: number;
  /** The longest written prefix and suffix of a template. */
  maxPrefix: number;
  maxSuffix: number;
  meta: Record<string, unknown>;
  readings: number;
  /** name -> [byte offset after the header, byte length, kind] */
  sections: Record<string, [number, number, Kind]>;
}

const kindOf = (data: Section): Kind => (typeof data === 'string' ? 'utf8' : data instanceof Uint32Array ? 'u32' : data instanceof Uint16Array ? 'u16' : 'f64');

/**
 * The prefix and suffix templates, every string and morpheme once: the strings as JSON, the rest as
 * numbers (string, morpheme and morpheme-list ids), so a template is decoded on its first use alone.
 */
function templateSections(model: LearnedModel, out: Record<string, Section>): void {
  const strings = new Map<string, number>();
  const s = (text: string): number => {
    let id = strings.get(text);
    if (id === undefined) strings.set(text, (id = strings.size));
    return id;
  };
  const morphemes = new Map<string, number>();
  const morphemeList: number[] = [];
  const lists = new Map<string, number>();
  const listStarts: number[] = [0];
  const listItems: number[] = [];
  const list = (ms: readonly Morpheme[]): number => {
    const ids = ms.map((m) => {
      const key = `${m.surface}\t${m.canonical}\t${m.tag}`;
      let id = morphemes.get(key);
      if (id === undefined) {
        morphemes.set(key, (id = morphemes.size));
        morphemeList.push(s(m.surface), s(m.canonical), s(m.tag));
      }
      return id;
    });
    const key = ids.join(' ');
    let id = lists.get(key);
    if (id === undefined) {
      lists.set(key, (id = lists.size));
      listItems.push(...ids);
      listStarts.push(listItems.length);
    }
    return id;
  };
  const prefixes = [...model.prefixTemplates].flatMap((t) => [t.count, s(t.prefix), s(t.pos), list(t.before), s(t.stemTag), s(t.rewrite), t.keepCase ? 1 : 0, s(t.nounClass)]);
  const suffixes = [...model.suffixTemplates].flatMap((t) => [t.count, s(t.suffix), list(t.after), s(t.stemTag), s(t.lemmaAdd), s(t.rewrite)]);
  out['templates.strings'] = JSON.stringify([...strings.keys()]);
  out['templates.morphemes'] = Uint32Array.from(morphemeList);
  out['templates.listStarts'] = Uint32Array.from(listStarts);
  out['templates.listItems'] = Uint32Array.from(listItems);
  out['templates.prefixes'] = Uint32Array.from(prefixes);
  out['templates.suffixes'] = Uint32Array.from(suffixes);
}

/** Templates of a model file, each decoded on its first use (`at`) and kept. */
class LazyTemplates<T> implements TemplateList<T> {
  readonly #items: Array<T | undefined>;

  constructor(
    readonly length: number,
    private readonly decode: (id: number) => T,
  ) {
    this.#items = new Array<T | undefined>(length);
  }

  at(id: number): T | undefined {
    if (!(id >= 0 && id < this.length)) return undefined;
    return (this.#items[id] ??= this.decode(id));
  }

  *[Symbol.iterator](): Generator<T> {
    for (let i = 0; i < this.length; i++) yield this.at(i)!;
  }
}

/** The templates of a model file's sections; morphemes and their lists are shared, as the TSV reader shares them. */
function decodeTemplates(
  strings: readonly string[],
  morphemeIds: Uint32Array,
  listStarts: Uint32Array,
  listItems: Uint32Array,
  p: Uint32Array,
  q: Uint32Array,
): { prefixTemplates: TemplateList<PrefixTemplate>; suffixTemplates: TemplateList<SuffixTemplate> } {
  const s = strings;
  const morphemes: Array<Morpheme | undefined> = [];
  const morpheme = (id: number): Morpheme => (morphemes[id] ??= Object.freeze({ surface: s[morphemeIds[id * 3]!]!, canonical: s[morphemeIds[id * 3 + 1]!]!, tag: s[morphemeIds[id * 3 + 2]!]! }));
  const lists: Array<Morpheme[] | undefined> = [];
  const list = (id: number): Morpheme[] => {
    let made = lists[id];
    if (!made) {
      made = [];
      for (let k = listStarts[id]!; k < listStarts[id + 1]!; k++) made.push(morpheme(listItems[k]!));
      lists[id] = made = Object.freeze(made) as Morpheme[];
    }
    return made;
  };
  const prefixTemplates = new LazyTemplates<PrefixTemplate>(p.length / 8, (id) => {
    const i = id * 8;
    return { count: p[i]!, prefix: s[p[i + 1]!]!, pos: s[p[i + 2]!]!, before: list(p[i + 3]!), stemTag: s[p[i + 4]!]!, rewrite: s[p[i + 5]!]!, keepCase: p[i + 6] === 1, nounClass: s[p[i + 7]!]! };
  });
  const suffixTemplates = new LazyTemplates<SuffixTemplate>(q.length / 6, (id) => {
    const i = id * 6;
    return { count: q[i]!, suffix: s[q[i + 1]!]!, after: list(q[i + 2]!), stemTag: s[q[i + 3]!]!, lemmaAdd: s[q[i + 4]!]!, rewrite: s[q[i + 5]!]! };
  });
  return { prefixTemplates, suffixTemplates };
}

/** Written prefix or suffix -> template ids, packed: the table gives where a key's ids start in `ids` (their number, then each id). */
class PackedTemplateIndex implements TemplateIndex {
  constructor(
    readonly table: PackedTable,
    readonly ids: Uint32Array,
  ) {}

  static of(model: LearnedModel, which: 'prefix' | 'suffix'): PackedTemplateIndex {
    const index = which === 'prefix' ? model.prefixIndex : model.suffixIndex;
    const keys = new Set<string>();
    for (const t of which === 'prefix' ? model.prefixTemplates : model.suffixTemplates) keys.add('prefix' in t ? t.prefix : t.suffix);
    const entries: Array<[string, number]> = [];
    const ids: number[] = [];
    for (const key of keys) {
      entries.push([key, ids.length]);
      const list = [...(index.get(key) ?? [])];
      ids.push(list.length, ...list);
    }
    return new PackedTemplateIndex(PackedTable.of(entries), Uint32Array.from(ids));
  }

  get(written: string): Uint32Array | undefined {
    const i = this.table.indexOf(written);
    if (i < 0) return undefined;
    const at = this.table.numbers[i]!;
    return this.ids.subarray(at + 1, at + 1 + this.ids[at]!);
  }
}

function orderSections(order: PrefixOrder, out: Record<string, Section>): void {
  out['order.forward'] = Uint32Array.from(order.forward);
  out['order.forwardKeys'] = JSON.stringify(order.forwardKeys);
  out['order.backward'] = Uint32Array.from(order.backward);
  out['order.backwardKeys'] = JSON.stringify(order.backwardKeys);
  tableSections('order.bigrams', PackedTable.of(order.bigrams), out);
  out['order.hyphenTags'] = JSON.stringify(order.hyphenTags);
}

function tableSections(name: string, table: PackedTable, out: Record<string, Section>): void {
  out[`${name}.keys`] = table.text;
  out[`${name}.starts`] = table.starts;
  out[`${name}.slots`] = table.slots;
  out[`${name}.values`] = table.numbers;
}

/** A model (loaded from its TSV files, or built in memory) as the bytes of its binary file. */
export function encodeModel(model: LearnedModel): Buffer {
  const sections: Record<string, Section> = {};
  // A loaded model's readings are undecoded lines (a sparse array of decoded ones beside them).
  const readingLines: string[] = [];
  for (let i = 0; i < model.readings.length; i++) {
    const r = model.readings[i];
    readingLines.push(model.rawReadings?.at(i) ?? (r ? `${r.lemma}\t${r.pos}\t${formatMorphemes(r.morphemes)}` : ''));
  }
  sections.readings = readingLines.join('\n');
  // Each form's readings in one array: at a form's start, how many pairs, then reading and count of each.
  const lists: number[] = [];
  const forms: Array<[string, number]> = [];
  for (const [form] of model.forms) {
    const entries = formEntries(model, form)!;
    forms.push([form, lists.length]);
    lists.push(entries.length);
    for (const [r, c] of entries) lists.push(r, c);
  }
  tableSections('forms', PackedTable.of(forms), sections);
  sections.formLists = Uint32Array.from(lists);
  templateSections(model, sections);
  // What the first unseen word would build from every template (the indexes, `prefixOrderOf`), built now.
  const prefixIndex = PackedTemplateIndex.of(model, 'prefix');
  tableSections('index.prefix', prefixIndex.table, sections);
  sections['index.prefixIds'] = prefixIndex.ids;
  const suffixIndex = PackedTemplateIndex.of(model, 'suffix');
  tableSections('index.suffix', suffixIndex.table, sections);
  sections['index.suffixIds'] = suffixIndex.ids;
  orderSections(prefixOrderOf(model), sections);
  tableSections('pairs', PackedTable.of(model.pairs), sections);
  tableSections('lexicon', PackedTable.of(model.lexicon), sections);
  if (model.related) tableSections('related', PackedTable.of(model.related), sections);
  if (model.cartridge) tableSections('cartridge', PackedTable.of(model.cartridge), sections);
  // What the first unseen word would count (`lemmaCounts`), counted now.
  tableSections('lemmas', PackedTable.of(lemmaCounts(model)), sections);
  // A model built in memory keeps its context weights among the rest (`ContextWeights.of` picks them out).
  const context = model.context ?? ContextWeights.of(model.weights);
  const weights = model.context ? [...model.weights] : [...model.weights].filter(([feature]) => !isContextFeature(feature) || !feature.includes('|'));
  tableSections('weights', PackedTable.of(weights, false), sections);
  tableSections('runs', PackedTable.of(context.runs), sections);
  sections['context.starts'] = context.starts;
  sections['context.posIds'] = context.posIds;
  sections['context.values'] = context.values;
  const posNames: string[] = [];
  for (const [pos, id] of context.posIndex) posNames[id] = pos;
  sections['context.pos'] = JSON.stringify(posNames);

  const parts: Buffer[] = [];
  const layout: Header['sections'] = {};
  let offset = 0;
  for (const [name, data] of Object.entries(sections)) {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    layout[name] = [offset, bytes.length, kindOf(data)];
    parts.push(bytes);
    const pad = (8 - (bytes.length % 8)) % 8;
    if (pad) parts.push(Buffer.alloc(pad));
    offset += bytes.length + pad;
  }
  const header: Header = {
    format: FORMAT,
    language: model.language,
    scale: model.scale,
    maxPrefix: model.maxPrefix,
    maxSuffix: model.maxSuffix,
    meta: model.meta,
    readings: readingLines.length,
    sections: layout,
  };
  let headerBytes = Buffer.from(JSON.stringify(header), 'utf8');
  const headerPad = (8 - ((8 + headerBytes.length) % 8)) % 8;
  headerBytes = Buffer.concat([headerBytes, Buffer.alloc(headerPad, 0x20)]);
  const start = Buffer.alloc(8);
  start.write(MAGIC, 0, 'latin1');
  start.writeUInt32LE(headerBytes.length, 4);
  return Buffer.concat([start, headerBytes, ...parts]);
}

/** A reading's segmentation and written morphemes as readings.tsv holds them (a model built in memory has no lines). */
function formatMorphemes(morphemes: readonly Morpheme[]): string {
  return `${formatSegmentation(morphemes)}\t${morphemes.map((m) => m.surface).join('|')}`;
}

/** The model in a binary file's bytes, or null when the bytes are not a model file of this format. */
export function decodeModel(bytes: Buffer): LearnedModel | null {
  return runSteps(decodeModelSteps(bytes));
}

/** `decodeModel` as steps: a pause (`yield`) after each large part, for a load in the background. */
function* decodeModelSteps(bytes: Buffer): Generator<void, LearnedModel | null> {
  if (bytes.length < 8 || bytes.toString('latin1', 0, 4) !== MAGIC) return null;
  const headerLength = bytes.readUInt32LE(4);
  let header: Header;
  try {
    header = JSON.parse(bytes.toString('utf8', 8, 8 + headerLength)) as Header;
  } catch {
    return null;
  }
  if (header.format !== FORMAT) return null;
  const base = 8 + headerLength;
  const section = (name: string): [number, number, Kind] => {
    const s = header.sections[name];
    if (!s || base + s[0] + s[1] > bytes.length) throw new Error(`model file: section ${name} missing or cut short`);
    return s;
  };
  const text = (name: string): string => {
    const [at, length] = section(name);
    const part = bytes.subarray(base + at, base + at + length);
    // ASCII (the shipped models' text is) decoded as Latin-1: the same string, a plain copy.
    return part.toString(isAscii(part) ? 'latin1' : 'utf8');
  };
  // Copies (not views), so the file's bytes can be collected once read.
  const array = <T extends Uint32Array | Uint16Array | Float64Array>(name: string): T => {
    const [at, length, kind] = section(name);
    const start = bytes.byteOffset + base + at;
    const copy = bytes.buffer.slice(start, start + length);
    return (kind === 'u32' ? new Uint32Array(copy) : kind === 'u16' ? new Uint16Array(copy) : new Float64Array(copy)) as T;
  };
  const table = (name: string): PackedTable => new PackedTable(text(`${name}.keys`), array(`${name}.starts`), array(`${name}.slots`), array(`${name}.values`));
  const rawReadings = header.readings === 0 ? [] : TextLines.of(text('readings'));
  yield;
  const posIndex = new Map<string, number>((JSON.parse(text('context.pos')) as string[]).map((pos, id) => [pos, id]));
  const context = ContextWeights.packed(table('runs'), posIndex, array('context.starts'), array('context.posIds'), array('context.values'));
  yield;
  const { prefixTemplates, suffixTemplates } = decodeTemplates(
    JSON.parse(text('templates.strings')) as string[],
    array('templates.morphemes'),
    array('templates.listStarts'),
    array('templates.listItems'),
    array('templates.prefixes'),
    array('templates.suffixes'),
  );
  const prefixIndex = new PackedTemplateIndex(table('index.prefix'), array('index.prefixIds'));
  const suffixIndex = new PackedTemplateIndex(table('index.suffix'), array('index.suffixIds'));
  const prefixOrder: PrefixOrder = {
    forward: array<Uint32Array>('order.forward'),
    forwardKeys: JSON.parse(text('order.forwardKeys')) as string[],
    backward: array<Uint32Array>('order.backward'),
    backwardKeys: JSON.parse(text('order.backwardKeys')) as string[],
    bigrams: table('order.bigrams'),
    hyphenTags: JSON.parse(text('order.hyphenTags')) as Array<[string, boolean]>,
  };
  yield;
  const forms = table('forms');
  const formLists = array<Uint32Array>('formLists');
  const pairs = table('pairs');
  const lexicon = table('lexicon');
  const related = header.sections['related.keys'] ? table('related') : undefined;
  const cartridge = header.sections['cartridge.keys'] ? table('cartridge') : undefined;
  const lemmas = table('lemmas');
  yield;
  const weights = table('weights');
  yield;
  return {
    language: header.language,
    readings: new Array(rawReadings.length),
    rawReadings,
    forms,
    formLists,
    prefixTemplates,
    suffixTemplates,
    pairs,
    lexicon,
    ...(related ? { related } : {}),
    ...(cartridge ? { cartridge } : {}),
    lemmas,
    weights,
    context,
    scale: header.scale,
    meta: header.meta,
    prefixIndex,
    suffixIndex,
    maxPrefix: header.maxPrefix,
    maxSuffix: header.maxSuffix,
    prefixOrder,
  };
}

const here = path.dirname(fileURLToPath(import.meta.url));
/** Whether the loader runs compiled (dist/) or from source (tsx): each keeps its own files. */
const flavour = path.extname(fileURLToPath(import.meta.url)).slice(1);
let loaderHash: string | undefined;

/** Where the shipped models' files are kept: `dist/text-models` of the package, from `dist/text/` and from `src/text/` alike. */
export const textModelCacheDir = path.resolve(here, '..', '..', 'dist', 'text-models');

/**
 * The cache key of a model folder: its files' names and bytes, and the code that reads and writes
 * them. With `noteFile`, hashed once and then taken from that note while the files are unchanged
 * (`notedFolderKey`).
 */
export function modelKey(modelDir: string, noteFile?: string): string {
  loaderHash ??= updateWithFiles(createHash('sha256').update(`text-model ${FORMAT}\0`), here, [`learned-model.${flavour}`, `model-file.${flavour}`]).digest('hex');
  return noteFile ? notedFolderKey(modelDir, loaderHash, noteFile) : folderKey(modelDir, loaderHash);
}

/** The model file of `modelDir` (a cartridge's `text/` folder) in `cacheDir`; its key noted beside it (`<iso>.<js|ts>-key.json`). */
function fileOf(modelDir: string, cacheDir: string): { iso: string; file: string } {
  const iso = path.basename(path.dirname(path.resolve(modelDir)));
  return { iso, file: path.join(cacheDir, `${iso}.${flavour}.${modelKey(modelDir, path.join(cacheDir, `${iso}.${flavour}-key.json`))}.model`) };
}

/**
 * Whether the model folder still has the key its file name was made from after its TSV files were
 * read: a folder edited during the read would have its new content kept under the old key (served
 * to later runs as current), so its model is not written and the next run reads the TSV files again.
 * (The key is taken from its note while the files' sizes and times are unchanged: a stat of each.)
 */
function unchanged(modelDir: string, cacheDir: string, file: string): boolean {
  return fileOf(modelDir, cacheDir).file === file;
}

/** Reads a model's file in steps; null when there is none, or it is not a model file of this format. */
function* readFileSteps(file: string): Generator<void, LearnedModel | null> {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return null;
  }
  try {
    return yield* decodeModelSteps(bytes);
  } catch {
    return null;
  }
}

/** Where a model read from its TSV files came from. */
export type ModelSource = 'file' | 'tsv';

/**
 * The model in `modelDir` (null when it has none): from its file in `cacheDir` when current, else
 * read from the TSV files, written there and read back from those bytes (so a process holds the same
 * packed model either way).
 */
export function loadModelFile(modelDir: string, cacheDir: string): { model: LearnedModel; source: ModelSource } | null {
  if (!existsSync(path.join(modelDir, 'meta.yaml'))) return null;
  const { iso, file } = fileOf(modelDir, cacheDir);
  const cached = withTaggerFile(runSteps(readFileSteps(file)), modelDir);
  if (cached) return { model: cached, source: 'file' };
  const read = loadModel(modelDir);
  return read ? { model: withTaggerFile(fromTsv(iso, file, read, unchanged(modelDir, cacheDir, file)), modelDir), source: 'tsv' } : null;
}

/** The same as `loadModelFile`, a TSV read done in slices that yield to the event loop. */
export async function loadModelFileInBackground(modelDir: string, cacheDir: string, sliceMs?: number): Promise<{ model: LearnedModel; source: ModelSource } | null> {
  if (!existsSync(path.join(modelDir, 'meta.yaml'))) return null;
  const { iso, file } = fileOf(modelDir, cacheDir);
  const cached = withTaggerFile(await runStepsInSlices(readFileSteps(file), sliceMs), modelDir);
  if (cached) return { model: cached, source: 'file' };
  const read = await loadModelInBackground(modelDir, sliceMs);
  return read ? { model: withTaggerFile(fromTsv(iso, file, read, unchanged(modelDir, cacheDir, file)), modelDir), source: 'tsv' } : null;
}

function fromTsv(iso: string, file: string, read: LearnedModel, keep: boolean): LearnedModel {
  const bytes = encodeModel(read);
  // Files of older versions of this model or loader are dead weight.
  if (keep) replaceCacheFile(file, bytes, `${iso}.${flavour}.`);
  return decodeModel(bytes)!;
}
