/**
 * lexicon.tsv: roots and stems, one row each, validated column by column. The header names the
 * columns (in any order); `lemma`, `gloss` and `source` are required, and a row's source starts
 * with an id declared in cartridge.yaml's `sources`. A bad row stops loading with the file, line
 * and column named (docs/cartridges.md).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/** The columns a lexicon may have, in the order docs/cartridges.md lists them. */
export const LEXICON_COLUMNS = ['lemma', 'word_class', 'gloss', 'flags', 'noun_class', 'plural', 'form', 'source'] as const;
export type LexiconColumn = (typeof LEXICON_COLUMNS)[number];
const REQUIRED: readonly LexiconColumn[] = ['lemma', 'gloss', 'source'];

const text = z.string().trim();
const WORD = /^\S(.*\S)?$/u;
const CLASS_NAME = /^[a-z_]+$/;
const FLAGS = /^[a-z_]+( *, *[a-z_]+)*$/;
// A noun class id (1, 1a, 9); an invariable word may instead agree with a person (1sg .. 2pl: sina 'I have not').
const NOUN_CLASS = /^(\d{1,2}[a-z]?|[12](sg|pl))$/;
const word = z.string().regex(WORD, 'no leading or trailing space');

/** One row as written: every column a string (an empty cell is ''), with what each may hold. */
export const lexiconRowSchema = z
  .object({
    lemma: word,
    /** verb, noun, adjective, a words.yaml class, or any class name for words nothing inflects; empty = verb. */
    word_class: z.union([z.literal(''), z.string().regex(CLASS_NAME, 'a class name: lower-case letters and _')]),
    /** The English base form. */
    gloss: word,
    /**
     * Comma-separated flags: `short`, `keeps_fv`, `capital`, `underived`, `perfect_state`, `no_object` and `two_objects`
     * are read by the engine (the last two, a verb's objects, exclude each other); others annotate.
     */
    flags: z.union([z.literal(''), z.string().regex(FLAGS, 'comma-separated flag names (short, keeps_fv, ...)')]),
    /** Nouns: the class id (1, 1a, 9, ...); an invariable word: the class or person (1sg, 2pl) it agrees with. */
    noun_class: z.union([z.literal(''), z.string().regex(NOUN_CLASS, 'a noun class id such as 1, 1a or 9, or a person such as 1sg')]),
    /** An irregular plural, '-' for none. */
    plural: text,
    /** An invariable word written otherwise than its lemma. */
    form: text,
    /** A source id from cartridge.yaml, with chapter or page where the source has them. */
    source: word,
  })
  .strict();
export type LexiconRow = z.infer<typeof lexiconRowSchema>;

/**
 * A row as `lexiconRowSchema` parses it, checked with the schema's own patterns without the schema:
 * null when a cell breaks one (the schema then names the cell). About a tenth of a millisecond a row
 * less than the schema in a fresh process (zod's first calls), which is most of reading a lexicon.
 */
function quickRow(raw: Record<LexiconColumn, string>): LexiconRow | null {
  if (!WORD.test(raw.lemma) || !WORD.test(raw.gloss) || !WORD.test(raw.source)) return null;
  if (raw.word_class !== '' && !CLASS_NAME.test(raw.word_class)) return null;
  if (raw.flags !== '' && !FLAGS.test(raw.flags)) return null;
  if (raw.noun_class !== '' && !NOUN_CLASS.test(raw.noun_class)) return null;
  return { ...raw, plural: raw.plural.trim(), form: raw.form.trim() };
}

/** A lexicon entry as the engine reads it. */
export interface LexiconEntry {
  lemma: string;
  word_class: string;
  gloss: string;
  /** Nouns: class id (1, 1a, 3, ...) and an irregular plural ('-' = none). */
  noun_class?: string;
  plural?: string;
  /**
   * An invariable word (a word class that neither verbs.yaml, nouns.yaml nor words.yaml inflects: a
   * conjunction, a demonstrative, a copula) written otherwise than its lemma: `ambao` of the lemma `amba`.
   */
  form?: string;
  /** Flags: 'short' (takes stem support), 'keeps_fv' (loan verb keeping its final vowel), 'no_object' / 'two_objects' (a verb's objects), ... */
  flags: string[];
  source: string;
}

/**
 * Reads and validates `file`. `sourceIds` are the ids cartridge.yaml declares: a row's source must
 * start with one of them (a reader that has not loaded cartridge.yaml, such as the text analyser
 * keeping its start-up light, passes `undefined`; the cartridge loader checks the sources). Throws
 * `<folder>/lexicon.tsv:<line>: column <name>: <what is wrong>`.
 */
export function readLexicon(file: string, sourceIds: readonly string[] | undefined): LexiconEntry[] {
  const name = `${path.basename(path.dirname(file))}/${path.basename(file)}`;
  const lines = readFileSync(file, 'utf8').split(/\r?\n/);
  const header = (lines[0] ?? '').split('\t');
  const where = (line: number, column: string) => `${name}:${line}: column ${column}`;
  header.forEach((h, i) => {
    if (!(LEXICON_COLUMNS as readonly string[]).includes(h)) throw new Error(`${where(1, h || String(i + 1))}: unknown column; the columns are ${LEXICON_COLUMNS.join(', ')}`);
    if (header.indexOf(h) !== i) throw new Error(`${where(1, h)}: named twice`);
  });
  for (const column of REQUIRED) if (!header.includes(column)) throw new Error(`${where(1, column)}: missing (${REQUIRED.join(', ')} are required)`);
  const known = sourceIds === undefined ? undefined : new Set(sourceIds);
  const entries: LexiconEntry[] = [];
  lines.slice(1).forEach((line, i) => {
    const number = i + 2;
    if (line.length === 0) return;
    const cells = line.split('\t');
    if (cells.length > header.length) throw new Error(`${where(number, String(header.length + 1))}: ${cells.length} cells for ${header.length} columns`);
    const raw = Object.fromEntries(LEXICON_COLUMNS.map((c) => [c, cells[header.indexOf(c)] ?? ''])) as Record<LexiconColumn, string>;
    let row = quickRow(raw);
    if (!row) {
      const parsed = lexiconRowSchema.safeParse(raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        const column = String(issue.path[0] ?? '') as LexiconColumn;
        const missing = raw[column] === '' ? 'empty; it is required' : issue.message;
        throw new Error(`${where(number, column)}: ${missing}`);
      }
      row = parsed.data;
    }
    const id = /^[^\s,;(]+/u.exec(row.source)?.[0] ?? '';
    if (known && !known.has(id)) throw new Error(`${where(number, 'source')}: "${id}" is not a source of cartridge.yaml (${[...known].join(', ') || 'it declares none'})`);
    const flags = row.flags
      .split(',')
      .map((f) => f.trim())
      .filter(Boolean);
    // A verb's objects: none (no_object) or two (two_objects), never both, and only on a verb.
    const objects = flags.filter((f) => f === 'no_object' || f === 'two_objects');
    if (objects.length > 1) throw new Error(`${where(number, 'flags')}: no_object and two_objects exclude each other`);
    if (objects.length > 0 && (row.word_class || 'verb') !== 'verb') throw new Error(`${where(number, 'flags')}: ${objects[0]} is a flag of verbs, not of a ${row.word_class}`);
    entries.push({
      lemma: row.lemma,
      word_class: row.word_class || 'verb',
      gloss: row.gloss,
      flags,
      ...(row.noun_class ? { noun_class: row.noun_class } : {}),
      ...(row.plural ? { plural: row.plural } : {}),
      ...(row.form ? { form: row.form } : {}),
      source: row.source,
    });
  });
  return entries;
}
