/**
 * The learnt text model of one language (files under `languages/<iso>/text/`, written by
 * scripts/learn-text-model.ts) and the candidate readings it yields for any token:
 *  - forms.tsv + readings.tsv: the word forms of the annotated text with their readings and counts;
 *  - patterns.tsv: word templates (the morphemes before and after a stem, with their written and
 *    canonical forms and tags, a stem rewrite, how the lemma is made from the stem) that read
 *    words never seen in the text;
 *  - lexicon.tsv: stems with their tag, noun class and frequency, which tell a likely guess from an
 *    unlikely one;
 *  - weights.tsv: the ranker's feature weights (learned-analyzer.ts).
 * Nothing here knows a language: every fact comes from the files.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { formatSegmentation, parseSegmentation } from './sadii.js';
import type { Morpheme } from './types.js';

/** A reading of a whole word, as stored. */
export interface StoredReading {
  lemma: string;
  pos: string;
  morphemes: Morpheme[];
}

/** A word template: the written and canonical morphemes around a stem, learnt from the annotated words. */
export interface Pattern {
  count: number;
  /** Written letters before the stem (lower case) and after it. */
  prefix: string;
  suffix: string;
  pos: string;
  before: Morpheme[];
  stemTag: string;
  after: Morpheme[];
  /** The lemma is the canonical stem followed by these letters (`sebenz` + `a`). */
  lemmaAdd: string;
  /** How the written stem differs from the canonical one: `^p>ph` (at its start) or `tsh>b` (last occurrence); '' when it does not. */
  rewrite: string;
  /** The stem keeps the letter case of the token (abbreviations, names) rather than being lower-cased. */
  keepCase: boolean;
  /** Noun class of the prefixes before the stem ('' when none). */
  nounClass: string;
}

export interface LearnedModel {
  language: string;
  readings: StoredReading[];
  /** Lower-cased word form -> [reading index, count] pairs, most frequent first. */
  forms: Map<string, Array<[number, number]>>;
  patterns: Pattern[];
  /** `prefix\tsuffix` -> pattern indices. */
  patternIndex: Map<string, number[]>;
  prefixes: Set<string>;
  suffixes: Set<string>;
  maxPrefix: number;
  maxSuffix: number;
  /** `stem\ttag\tclass` -> count, `stem\ttag` -> count and `stem` -> count. */
  lexicon: Map<string, number>;
  weights: Map<string, number>;
  /** Multiplies the ranker's scores before the softmax (fitted on the training text). */
  scale: number;
  meta: Record<string, unknown>;
}

/** One candidate reading of a token before ranking. */
export interface Candidate {
  lemma: string;
  pos: string;
  morphemes: Morpheme[];
  guess: boolean;
  source: 'lexicon' | 'rule' | 'guess';
  /** Features of the reading that do not depend on the neighbours. */
  features: string[];
  /** lemma, POS and segmentation: identifies the reading. */
  key: string;
}

/** What to leave out of the counts when reading a training token as if unseen (leave-one-out). */
export interface LeaveOut {
  reading: number;
  pattern: number;
  lexStem: string;
  lexTag: string;
  lexClass: string;
}

const NOUN_CLASS = /^(?:[A-Za-z]*Pre)(\d+a?)$/;

/** The noun class carried by the last class-marked prefix among `before` ('' when none). */
export function nounClassOf(before: readonly Morpheme[]): string {
  for (let i = before.length - 1; i >= 0; i--) {
    const match = NOUN_CLASS.exec(before[i]!.tag);
    if (match) return match[1]!;
  }
  return '';
}

export function readingKey(lemma: string, pos: string, morphemes: ReadonlyArray<Pick<Morpheme, 'canonical' | 'tag'>>): string {
  return `${lemma}\t${pos}\t${formatSegmentation(morphemes)}`;
}

/** `rewrite` as stored: the written part and the canonical part, anchored at the stem's start or not. */
export function stemRewrite(surface: string, canonical: string): string {
  const s = surface.toLowerCase();
  const c = canonical.toLowerCase();
  if (s === c) return '';
  let cp = 0;
  while (cp < s.length && cp < c.length && s[cp] === c[cp]) cp++;
  let cs = 0;
  while (cs < s.length - cp && cs < c.length - cp && s[s.length - 1 - cs] === c[c.length - 1 - cs]) cs++;
  if (cp <= 1) return `^${s.slice(0, s.length - cs)}>${c.slice(0, c.length - cs)}`;
  const from = s.slice(cp - 1, s.length - cs);
  const to = c.slice(cp - 1, c.length - cs);
  return `${from}>${to}`;
}

/** The canonical stem of a written stem under a rewrite, or null where the rewrite does not apply. */
export function applyRewrite(stem: string, rewrite: string): string | null {
  if (rewrite === '') return stem;
  const anchored = rewrite.startsWith('^');
  const body = anchored ? rewrite.slice(1) : rewrite;
  const gt = body.indexOf('>');
  const from = body.slice(0, gt);
  const to = body.slice(gt + 1);
  if (anchored) return stem.startsWith(from) ? to + stem.slice(from.length) : null;
  const at = stem.lastIndexOf(from);
  if (at < 0) return null;
  return stem.slice(0, at) + to + stem.slice(at + from.length);
}

function encodeMorphemes(morphemes: readonly Morpheme[]): [string, string] {
  return [formatSegmentation(morphemes), morphemes.map((m) => m.surface).join('|')];
}

function decodeMorphemes(segmentation: string, surfaces: string): Morpheme[] {
  if (segmentation === '') return [];
  const parsed = parseSegmentation(segmentation);
  const written = surfaces.split('|');
  return parsed.map((m, i) => ({ surface: written[i] ?? '', canonical: m.canonical, tag: m.tag }));
}

/** The model's files as text (the learn script writes them; `loadModel` reads them back). */
export function serializeModel(model: Omit<LearnedModel, 'patternIndex' | 'prefixes' | 'suffixes' | 'maxPrefix' | 'maxSuffix'>): Record<string, string> {
  const readings = ['lemma\tpos\tsegmentation\tsurfaces', ...model.readings.map((r) => [r.lemma, r.pos, ...encodeMorphemes(r.morphemes)].join('\t'))];
  const forms = ['form\treadings'];
  for (const [form, list] of [...model.forms].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
    forms.push(`${form}\t${list.map(([r, c]) => `${r}:${c}`).join(' ')}`);
  }
  const patterns = [
    'count\tprefix\tsuffix\tpos\tbefore\tbefore_surfaces\tstem_tag\tafter\tafter_surfaces\tlemma_add\trewrite\tkeep_case\tnoun_class',
    ...model.patterns.map((p) =>
      [p.count, p.prefix, p.suffix, p.pos, ...encodeMorphemes(p.before), p.stemTag, ...encodeMorphemes(p.after), p.lemmaAdd, p.rewrite, p.keepCase ? 1 : 0, p.nounClass].join('\t'),
    ),
  ];
  const lexicon = ['stem\ttag\tnoun_class\tcount'];
  for (const [key, count] of [...model.lexicon].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
    if (key.split('\t').length === 3) lexicon.push(`${key}\t${count}`);
  }
  const weights = ['feature\tweight'];
  for (const [feature, weight] of [...model.weights].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) weights.push(`${feature}\t${+weight.toFixed(4)}`);
  return {
    'readings.tsv': readings.join('\n') + '\n',
    'forms.tsv': forms.join('\n') + '\n',
    'patterns.tsv': patterns.join('\n') + '\n',
    'lexicon.tsv': lexicon.join('\n') + '\n',
    'weights.tsv': weights.join('\n') + '\n',
    'meta.json': JSON.stringify({ ...model.meta, language: model.language, scale: model.scale }, null, 2) + '\n',
  };
}

function rows(text: string): string[][] {
  const lines = text.split('\n');
  const out: string[][] = [];
  for (let i = 1; i < lines.length; i++) if (lines[i] !== '') out.push(lines[i]!.split('\t'));
  return out;
}

/** Adds the lexicon's three keys for one stem. */
export function addLexicon(lexicon: Map<string, number>, stem: string, tag: string, nounClass: string, count: number): void {
  for (const key of [`${stem}\t${tag}\t${nounClass}`, `${stem}\t${tag}`, stem]) lexicon.set(key, (lexicon.get(key) ?? 0) + count);
}

/** Builds the indexes of a model from its stored parts. */
export function indexModel(parts: Omit<LearnedModel, 'patternIndex' | 'prefixes' | 'suffixes' | 'maxPrefix' | 'maxSuffix'>): LearnedModel {
  const patternIndex = new Map<string, number[]>();
  const prefixes = new Set<string>();
  const suffixes = new Set<string>();
  let maxPrefix = 0;
  let maxSuffix = 0;
  parts.patterns.forEach((p, i) => {
    const key = `${p.prefix}\t${p.suffix}`;
    const list = patternIndex.get(key);
    if (list) list.push(i);
    else patternIndex.set(key, [i]);
    prefixes.add(p.prefix);
    suffixes.add(p.suffix);
    maxPrefix = Math.max(maxPrefix, p.prefix.length);
    maxSuffix = Math.max(maxSuffix, p.suffix.length);
  });
  return { ...parts, patternIndex, prefixes, suffixes, maxPrefix, maxSuffix };
}

/** The model in `dir` (a cartridge's `text/` folder), or null when it has none. */
export function loadModel(dir: string): LearnedModel | null {
  if (!existsSync(path.join(dir, 'meta.json'))) return null;
  const read = (name: string): string => readFileSync(path.join(dir, name), 'utf8');
  const meta = JSON.parse(read('meta.json')) as Record<string, unknown>;
  const readings = rows(read('readings.tsv')).map(([lemma, pos, seg, surf]) => ({ lemma: lemma!, pos: pos!, morphemes: decodeMorphemes(seg ?? '', surf ?? '') }));
  const forms = new Map<string, Array<[number, number]>>();
  for (const [form, list] of rows(read('forms.tsv'))) {
    forms.set(
      form!,
      list!.split(' ').map((pair) => {
        const colon = pair.lastIndexOf(':');
        return [Number(pair.slice(0, colon)), Number(pair.slice(colon + 1))] as [number, number];
      }),
    );
  }
  const patterns: Pattern[] = rows(read('patterns.tsv')).map((r) => ({
    count: Number(r[0]),
    prefix: r[1]!,
    suffix: r[2]!,
    pos: r[3]!,
    before: decodeMorphemes(r[4]!, r[5]!),
    stemTag: r[6]!,
    after: decodeMorphemes(r[7]!, r[8]!),
    lemmaAdd: r[9]!,
    rewrite: r[10]!,
    keepCase: r[11] === '1',
    nounClass: r[12] ?? '',
  }));
  const lexicon = new Map<string, number>();
  for (const [stem, tag, nounClass, count] of rows(read('lexicon.tsv'))) addLexicon(lexicon, stem!, tag!, nounClass!, Number(count));
  const weights = new Map<string, number>();
  for (const [feature, weight] of rows(read('weights.tsv'))) weights.set(feature!, Number(weight));
  return indexModel({ language: String(meta.language ?? path.basename(path.dirname(dir))), readings, forms, patterns, lexicon, weights, scale: Number(meta.scale ?? 1), meta });
}

/** Letters of a token reduced to their kind (`Aa-AAA`, `9.9`), runs collapsed. */
export function shapeOf(token: string): string {
  let shape = '';
  for (const ch of token) {
    const kind = /\p{Lu}/u.test(ch) ? 'A' : /\p{L}/u.test(ch) ? 'a' : /\p{N}/u.test(ch) ? '9' : ch;
    if (!shape.endsWith(kind)) shape += kind;
  }
  return shape.length > 8 ? shape.slice(0, 8) : shape;
}

function bin(count: number): number {
  return count <= 0 ? 0 : Math.min(8, 1 + Math.floor(Math.log2(count)));
}

/** Features of a candidate that depend on the token alone (the neighbours are added by the ranker). */
function baseFeatures(token: string, pos: string): string[] {
  const lower = token.toLowerCase();
  return [`pos=${pos}`, `shape=${shapeOf(token)}|${pos}`, `suf3=${lower.slice(-3)}|${pos}`, `pre3=${lower.slice(0, 3)}|${pos}`];
}

/** Candidates from the word-form table (null when the form was not seen, or only in the left-out token). */
export function seenCandidates(model: LearnedModel, token: string, leaveOut?: LeaveOut): Candidate[] | null {
  const list = model.forms.get(token.toLowerCase());
  if (!list) return null;
  let total = 0;
  const counted: Array<[number, number]> = [];
  for (const [r, c] of list) {
    const count = leaveOut && leaveOut.reading === r ? c - 1 : c;
    if (count > 0) {
      counted.push([r, count]);
      total += count;
    }
  }
  if (total === 0) return null;
  return counted.map(([r, count], rank) => {
    const reading = model.readings[r]!;
    const share = Math.min(9, Math.floor((count / total) * 10));
    return {
      lemma: reading.lemma,
      pos: reading.pos,
      morphemes: reading.morphemes,
      guess: false,
      source: 'lexicon',
      key: readingKey(reading.lemma, reading.pos, reading.morphemes),
      features: [...baseFeatures(token, reading.pos), 'seen', `share=${share}`, `rank=${Math.min(rank, 3)}`, `fcount=${bin(total)}|share=${share}`],
    };
  });
}

/** Candidates from the word templates, for a token not in the word-form table; at most `limit`, best first by a rough prior. */
export function patternCandidates(model: LearnedModel, token: string, leaveOut?: LeaveOut, limit = 40): Candidate[] {
  const lower = token.toLowerCase();
  const n = lower.length;
  const found: Array<{ candidate: Candidate; prior: number }> = [];
  const seen = new Set<string>();
  const lex = (key: string, stem: string, tag: string, nounClass: string, level: number): number => {
    let count = model.lexicon.get(key) ?? 0;
    if (leaveOut && count > 0 && leaveOut.lexStem === stem && (level === 0 || leaveOut.lexTag === tag) && (level < 2 || leaveOut.lexClass === nounClass)) count--;
    return count;
  };
  for (let p = 0; p <= Math.min(model.maxPrefix, n - 1); p++) {
    const prefix = lower.slice(0, p);
    if (!model.prefixes.has(prefix)) continue;
    for (let s = 0; s <= Math.min(model.maxSuffix, n - p - 1); s++) {
      const suffix = s === 0 ? '' : lower.slice(n - s);
      if (!model.suffixes.has(suffix)) continue;
      const ids = model.patternIndex.get(`${prefix}\t${suffix}`);
      if (!ids) continue;
      for (const id of ids) {
        const pattern = model.patterns[id]!;
        const count = leaveOut && leaveOut.pattern === id ? pattern.count - 1 : pattern.count;
        if (count <= 0) continue;
        const writtenStem = token.slice(p, n - s);
        if (writtenStem.length < 2 && p + s > 0) continue;
        const rewritten = applyRewrite(pattern.keepCase ? writtenStem : writtenStem.toLowerCase(), pattern.rewrite);
        if (rewritten === null || rewritten === '') continue;
        const lemma = rewritten + pattern.lemmaAdd;
        const morphemes: Morpheme[] = [];
        let at = 0;
        for (const m of pattern.before) {
          morphemes.push({ surface: token.slice(at, at + m.surface.length), canonical: m.canonical, tag: m.tag });
          at += m.surface.length;
        }
        morphemes.push({ surface: writtenStem, canonical: rewritten, tag: pattern.stemTag });
        at = n - s;
        for (const m of pattern.after) {
          morphemes.push({ surface: token.slice(at, at + m.surface.length), canonical: m.canonical, tag: m.tag });
          at += m.surface.length;
        }
        const key = readingKey(lemma, pattern.pos, morphemes);
        if (seen.has(key)) continue;
        seen.add(key);
        const exact = lex(`${rewritten}\t${pattern.stemTag}\t${pattern.nounClass}`, rewritten, pattern.stemTag, pattern.nounClass, 2);
        const tagged = lex(`${rewritten}\t${pattern.stemTag}`, rewritten, pattern.stemTag, pattern.nounClass, 1);
        const any = lex(rewritten, rewritten, pattern.stemTag, pattern.nounClass, 0);
        const guess = tagged === 0;
        const signature = `${pattern.before.map((m) => m.tag).join('-')}|${pattern.stemTag}|${pattern.after.map((m) => m.tag).join('-')}`;
        const last = rewritten.slice(-1).toLowerCase();
        const features = [
          ...baseFeatures(token, pattern.pos),
          'unseen',
          `pcount=${bin(count)}`,
          `ppos=${prefix}|${suffix}|${pattern.pos}`,
          `psig=${signature}|${pattern.pos}`,
          `lexexact=${bin(exact)}`,
          `lextag=${bin(tagged)}`,
          `lexany=${bin(any)}`,
          `lexexact>0|${pattern.stemTag}|${exact > 0}`,
          `cover=${Math.min(p + s, 12)}`,
          `slen=${Math.min(writtenStem.length, 10)}|${pattern.stemTag}`,
          `send=${'aeiou'.includes(last) ? 'V' : /\p{L}/u.test(last) ? 'C' : 'X'}|${pattern.stemTag}`,
          `rw=${pattern.rewrite}`,
          `rwstem=${pattern.rewrite === '' ? '' : 'r'}|${writtenStem.slice(0, 2).toLowerCase()}|${pattern.stemTag}`,
        ];
        const prior = Math.log(count + 1) + (exact > 0 ? 4 : tagged > 0 ? 2.5 : any > 0 ? 1 : 0) + 0.3 * (p + s);
        found.push({
          prior,
          candidate: { lemma, pos: pattern.pos, morphemes, guess, source: guess ? 'guess' : 'rule', key, features },
        });
      }
    }
  }
  found.sort((a, b) => b.prior - a.prior || (a.candidate.key < b.candidate.key ? -1 : 1));
  return found.slice(0, limit).map((f) => f.candidate);
}

/** Every candidate of a token: its seen readings, or the templates' readings when the form is new. */
export function candidatesOf(model: LearnedModel, token: string, leaveOut?: LeaveOut): Candidate[] {
  return seenCandidates(model, token, leaveOut) ?? patternCandidates(model, token, leaveOut);
}

/** Features linking a candidate's POS to the neighbouring tokens. */
export function contextFeatures(pos: string, previousPos: string, previous: string | undefined, next: string | undefined): string[] {
  const prev = previous === undefined ? '<s>' : previous.toLowerCase();
  const nxt = next === undefined ? '</s>' : next.toLowerCase();
  return [`pp=${previousPos}|${pos}`, `pw=${prev}|${pos}`, `nw=${nxt}|${pos}`, `ns=${nxt.slice(-2)}|${pos}`, `np=${nxt.slice(0, 2)}|${pos}`];
}
