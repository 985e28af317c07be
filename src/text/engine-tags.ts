/**
 * The annotated text's tags for the cartridge engine's readings (engine-readings.ts), learnt from the text
 * itself: the learn script reads each annotated verb with the engine, keeps the engine reading of the gold
 * lemma, and counts which gold tag each engine morpheme stands for where both cut the word at the same
 * letters (the engine's `subject:c2` spanning the letters of the gold `SC2`), and which gold part of speech
 * each engine word class has (a verb in the relative mood: the text's `REL`). The commonest pairing wins.
 * The table is meta.yaml `engine_tags` of a text model; a tag or class it does not name stays the engine's. A tag
 * with a class (`subject:c2`) has its own row where the text names it otherwise often enough, else takes the row of
 * its slot (`subject:{id}`); never a row that names another class or gives a person a class (`table`).
 */
import type { MorphologyService } from '../morphology/service.js';
import { alignSurfaces } from './align.js';
import { EngineReadings } from './engine-readings.js';
import type { SadiiParagraph } from './sadii.js';
import type { Morpheme, TokenAnalysis } from './types.js';

/** The most distinct verb and relative forms of the text read by the engine when learning the table. */
export const ENGINE_TAG_FORMS = 4000;

/**
 * The table of `paragraphs` (annotated text of `language`): each verb and relative form (the first ENGINE_TAG_FORMS
 * distinct ones) read by the engine, its reading of the gold lemma paired with the gold; null when the engine has no
 * cartridge of the language.
 */
export function learnEngineTags(language: string, paragraphs: readonly SadiiParagraph[], morphology: MorphologyService, log: (line: string) => void = () => {}): EngineTags | null {
  if (!morphology.engine(language).ok) return null;
  const engine = new EngineReadings(language, morphology);
  const counter = new EngineTagCounter();
  const done = new Set<string>();
  let paired = 0;
  for (const p of paragraphs) {
    for (const t of p.tokens) {
      // The tag without its class number (`REL`, `V`; learned-analyzer.ts's posGroupOf, not imported: it imports this module).
      const group = t.pos.replace(/\d+a?$/u, '');
      if ((group !== 'V' && group !== 'REL') || done.size >= ENGINE_TAG_FORMS) continue;
      const form = t.token.toLowerCase();
      if (done.has(form)) continue;
      done.add(form);
      const reading = engine.readings(form).find((r) => r.lemma.toLowerCase() === t.lemma.toLowerCase());
      if (!reading) continue;
      const surfaces = alignSurfaces(
        form,
        t.morphemes.map((m) => m.canonical),
      );
      counter.add(form, { pos: t.pos, morphemes: t.morphemes.map((m, i) => ({ surface: surfaces[i] ?? '', canonical: m.canonical, tag: m.tag })) }, reading);
      paired++;
    }
  }
  const table = counter.table();
  log(`engine tags: ${paired} of ${done.size} verb forms paired; ${Object.keys(table.tags).length} tags, ${Object.keys(table.pos).length} word classes`);
  return table;
}

/** Engine morpheme tag -> the text's tag (`{id}` stands for a class number), engine word class -> the text's POS. */
export interface EngineTags {
  tags: Record<string, string>;
  pos: Record<string, string>;
}

const CLASS_ID = /^(.*):c?(\d+a?)$/u;

/** `subject:c2` -> [`subject:{id}`, `2`]; a tag without a class number -> [tag, '']. */
function generalised(tag: string): [string, string] {
  const m = CLASS_ID.exec(tag);
  return m ? [`${m[1]}:{id}`, m[2]!] : [tag, ''];
}

/** The text's tag of one engine morpheme tag under `table`, or undefined when it names none. */
export function textTagOf(tag: string, table: Readonly<Record<string, string>>): string | undefined {
  const [key, id] = generalised(tag);
  return (table[tag] ?? (id === '' ? undefined : table[key]))?.replace('{id}', id);
}

/** `reading` with the text's tags: its POS by its word class, its morphemes' tags by the table (either kept where it names none). */
export function withTextTags<T extends Pick<TokenAnalysis, 'pos' | 'word_class' | 'morphemes'>>(reading: T, tags: EngineTags): T {
  const pos = tags.pos[reading.word_class] ?? reading.pos;
  const morphemes = reading.morphemes.map((m) => {
    const tag = textTagOf(m.tag, tags.tags);
    return tag === undefined || tag === m.tag ? m : { ...m, tag };
  });
  return { ...reading, pos, morphemes };
}

/** The `engine_tags` of a model's meta.yaml, or null when it has none (or not in this shape). */
export function engineTagsOf(meta: Readonly<Record<string, unknown>>): EngineTags | null {
  const raw = meta.engine_tags as { tags?: unknown; pos?: unknown } | undefined;
  if (!raw || typeof raw !== 'object') return null;
  const table = (x: unknown): Record<string, string> => (x && typeof x === 'object' ? Object.fromEntries(Object.entries(x).filter((e): e is [string, string] => typeof e[1] === 'string')) : {});
  return { tags: table(raw.tags), pos: table(raw.pos) };
}

/** The letters [start, end) of each morpheme of a word, from their written forms; null when they do not spell the word. */
function spans(word: string, morphemes: readonly Pick<Morpheme, 'surface'>[]): Array<[number, number]> | null {
  const out: Array<[number, number]> = [];
  let at = 0;
  for (const m of morphemes) {
    out.push([at, at + m.surface.length]);
    at += m.surface.length;
  }
  return at === word.length ? out : null;
}

/** Counts pairings of engine readings with gold readings of the same words (`add`), then keeps the commonest (`table`). */
export class EngineTagCounter {
  readonly #tags = new Map<string, Map<string, number>>();
  readonly #pos = new Map<string, Map<string, number>>();

  /** One annotated word: its gold reading (morphemes with their written letters) and the engine reading of the same lemma. */
  add(word: string, gold: Pick<TokenAnalysis, 'pos' | 'morphemes'>, engine: Pick<TokenAnalysis, 'word_class' | 'morphemes'>): void {
    count(this.#pos, engine.word_class, gold.pos);
    const own = spans(word, engine.morphemes);
    const theirs = spans(word, gold.morphemes);
    if (!own || !theirs) return;
    const byStart = new Map(theirs.map(([s, e], k) => [`${s} ${e}`, gold.morphemes[k]!.tag]));
    engine.morphemes.forEach((m, k) => {
      const [s, e] = own[k]!;
      if (s === e) return;
      const goldTag = byStart.get(`${s} ${e}`);
      if (goldTag === undefined) return;
      const [key, id] = generalised(m.tag);
      // A class number the gold tag ends with as well stands for any class (`SC2` for `subject:c2`: `SC{id}`, counted
      // for the class and for every class); a gold tag of another class (the engine's c4 for the gold's SC9) only for the class.
      if (id !== '' && goldTag.endsWith(id) && !/\d$/u.test(goldTag.slice(0, -id.length))) {
        const template = `${goldTag.slice(0, -id.length)}{id}`;
        count(this.#tags, key, template);
        count(this.#tags, m.tag, template);
      } else count(this.#tags, m.tag, goldTag);
    });
  }

  /**
   * The commonest gold tag of each engine tag met at least `min` times, when it holds at least half of them (likewise for
   * word classes). A row that would contradict the engine's own agreement is left out: the text's class 9 for the
   * engine's class 4 (i- is both, and the engine offers each reading), or a class for a person (si- as 1pl or class 7),
   * would tag a reading with the agreement of another reading; such a tag keeps its slot's row.
   */
  table(min = 5): EngineTags {
    const tags = Object.fromEntries(Object.entries(commonest(this.#tags, min)).filter(([engine, text]) => agrees(engine, text)));
    return { tags, pos: commonest(this.#pos, min) };
  }
}

const PERSON = /:[123](?:sg|pl)$/u;
const TEXT_CLASS = /(?<!\d)(\d+a?)$/u;

/** Whether the text's tag `text` names the agreement of the engine tag `engine` (or none): a class for the same class, no class for a person. */
function agrees(engine: string, text: string): boolean {
  const named = text.includes('{id}') ? undefined : TEXT_CLASS.exec(text)?.[1];
  if (named === undefined) return true;
  if (PERSON.test(engine)) return false;
  const [, id] = generalised(engine);
  return id === '' || id === named;
}

function count(map: Map<string, Map<string, number>>, key: string, value: string): void {
  let counts = map.get(key);
  if (!counts) map.set(key, (counts = new Map()));
  counts.set(value, (counts.get(value) ?? 0) + 1);
}

function commonest(map: ReadonlyMap<string, ReadonlyMap<string, number>>, min: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of [...map.keys()].sort()) {
    const counts = [...map.get(key)!].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    const total = counts.reduce((sum, [, n]) => sum + n, 0);
    const [best, n] = counts[0]!;
    if (total >= min && 2 * n >= total) out[key] = best;
  }
  return out;
}
