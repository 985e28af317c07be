/**
 * Tone-marked lexical data and the pairs computed from it once read: tonal pairs (identical
 * segments, different tones) and minimal pairs (one tone or one segment apart). The items come
 * from reference/tone/ (Bantu Basic Vocabulary Database stems, Chan's tone-marked numerals) and
 * from tone-marked entries the cartridges cite; nothing is typed in by hand.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { readTsv } from '../language-codes.js';
import type { MinimalPair, TonalPair, ToneItem } from './api.js';
import { stripTones } from './marks.js';
import { runSteps } from '../steps.js';

/** A tone-marked item with the language and variety it belongs to. */
export interface LanguageItem extends ToneItem {
  language: string;
  variety: string | null;
}

const TONE_MARK: Record<string, string> = { '\u0301': 'H', '\u0300': 'L', '\u0302': 'F', '\u030C': 'R', '\u0304': 'M', '\u030B': 'H', '\u030F': 'L' };
/** Vowel letters of the sources' IPA (an unmarked vowel counts as a tone position, written ·). */
const VOWELS = new Set([...'aeiouɛɔəɪʊɨʉæɑɒyøɯʌɜœɐ']);

/** The tone of each vowel (or tone-marked letter), in order: H, L, F, R, M, or · for an unmarked vowel. */
export function toneString(form: string): string {
  let out = '';
  // One pass over the clusters, no arrays per letter: this runs for every reference row (8,000) when the tone data is read.
  for (const [cluster] of form.normalize('NFD').matchAll(/\P{M}\p{M}*/gu)) {
    let mark: string | undefined;
    for (const c of cluster) if ((mark = TONE_MARK[c]) !== undefined) break;
    if (mark) out += mark;
    else if (VOWELS.has(cluster[0]!.toLowerCase())) out += '·';
  }
  return out;
}

/** Whether a tone string (toneString) has at least one tone mark. */
function marked(tones: string): boolean {
  return /[HLFRM]/.test(tones);
}

function item(language: string, variety: string | null, form: string, gloss: string, dataset: string, source: string): LanguageItem {
  const clean = form.normalize('NFC').trim();
  return { language, variety, form: clean, segments: stripTones(clean), tones: toneString(clean), gloss, source: { dataset, source } };
}

/** Rows of the reference files read between two pauses of `referenceToneSteps`. */
const ROWS_PER_STEP = 128;

/** Stems of the Bantu Basic Vocabulary Database that carry tone marks. */
export function readBantuBvd(file: string): LanguageItem[] {
  return runSteps(bantuBvdSteps(file));
}

function* bantuBvdSteps(file: string): Generator<void, LanguageItem[]> {
  return yield* tsvSteps(file, (r, out) => {
    if (r.has_tone_diacritic === '1' && r.form && r.iso639_3) {
      const i = item(r.iso639_3, null, r.form, (r.concepticon_gloss || r.concept_id || '').toLowerCase(), 'bantubvd', r.source || 'bantubvd');
      if (marked(i.tones)) out.push(i);
    }
  });
}

/** The items `take` makes of a TSV file's rows (none when the file is missing), pausing every `ROWS_PER_STEP` rows. */
function* tsvSteps(file: string, take: (row: Record<string, string>, out: LanguageItem[]) => void): Generator<void, LanguageItem[]> {
  const out: LanguageItem[] = [];
  if (!existsSync(file)) return out;
  const rows = readTsv(file);
  yield;
  for (let n = 0; n < rows.length; n++) {
    take(rows[n]!, out);
    if ((n + 1) % ROWS_PER_STEP === 0) yield;
  }
  return out;
}

/** Tone-marked numerals of Chan's tables (rows flagged for checking are left out; alternatives split). */
export function readChanNumerals(file: string): LanguageItem[] {
  return runSteps(chanNumeralsSteps(file));
}

function* chanNumeralsSteps(file: string): Generator<void, LanguageItem[]> {
  return yield* tsvSteps(file, (r, out) => {
    if (r.flag || !r.iso639_3 || !r.form_auto) return;
    for (const form of r.form_auto.split(/\s*[,/]\s*/)) {
      if (!form || !marked(toneString(form))) continue;
      out.push(item(r.iso639_3, r.chan_name || null, form, `numeral ${r.number}`, 'chan-numerals', `Chan, Numeral Systems of the World's Languages: ${r.source_file ?? r.chan_name}`));
    }
  });
}

/** The items of reference/tone/. */
export function readReferenceTone(dir: string): LanguageItem[] {
  return runSteps(referenceToneSteps(dir));
}

/** `readReferenceTone` as steps: a pause (`yield`) every ROWS_PER_STEP rows, for a load in slices. */
export function* referenceToneSteps(dir: string): Generator<void, LanguageItem[]> {
  const bvd = yield* bantuBvdSteps(path.join(dir, 'bantubvd.tsv'));
  const chan = yield* chanNumeralsSteps(path.join(dir, 'chan-numerals.tsv'));
  return [...bvd, ...chan];
}

const key = (i: LanguageItem) => `${i.language}\u0000${i.variety ?? ''}`;

/** Groups of items identical in segments (case-insensitive) with at least two tone patterns. */
export function tonalPairs(items: readonly LanguageItem[]): TonalPair[] {
  const groups = new Map<string, LanguageItem[]>();
  for (const i of items) {
    const k = `${key(i)}\u0000${i.segments.toLowerCase()}`;
    const list = groups.get(k) ?? [];
    if (!list.some((o) => o.form === i.form && o.gloss === i.gloss)) list.push(i);
    groups.set(k, list);
  }
  const pairs: TonalPair[] = [];
  for (const list of groups.values()) {
    if (new Set(list.map((i) => i.tones)).size < 2) continue;
    const first = list[0]!;
    pairs.push({ language: first.language, variety: first.variety, segments: first.segments, items: list.map(strip) });
  }
  return pairs.sort((a, b) => a.language.localeCompare(b.language) || (a.variety ?? '').localeCompare(b.variety ?? '') || a.segments.localeCompare(b.segments));
}

function strip(i: LanguageItem): ToneItem {
  return { form: i.form, segments: i.segments, tones: i.tones, gloss: i.gloss, source: i.source };
}

/** The combining diacritics of the blocks PLAIN_CLUSTERS admits (each extends the character before it). */
const MARKS = '\\u0300-\\u036F\\u1AB0-\\u1AFF\\u1DC0-\\u1DFF\\u20D0-\\u20FF\\uFE20-\\uFE2F';
/**
 * Text in which every user-perceived character (UAX #29 grapheme cluster) is one character of
 * these ranges followed by its combining diacritics: Latin letters and punctuation, IPA, Greek
 * letters the sources use, apostrophes, hyphens and spaces. None of them is a prepend, control,
 * Hangul, regional-indicator or joiner character, and every combining diacritic of the listed
 * blocks extends the character before it, so a cluster is one character and the marks after it.
 */
const PLAIN_CLUSTERS = new RegExp(`^[\\u0020-\\u007E\\u00A0-\\u00AC\\u00AE-\\u024F\\u0250-\\u02FF\\u0370-\\u03FF\\u1D00-\\u1DBF\\u1E00-\\u1EFF\\u2010-\\u2027${MARKS}]*$`, 'u');
/** One cluster of such text: a character and the marks after it, or marks with no character before them. */
const CLUSTER = new RegExp(`[^${MARKS}][${MARKS}]*|[${MARKS}]+`, 'gu');

/**
 * Made only for text outside PLAIN_CLUSTERS (no word of the tone data so far): an Intl.Segmenter
 * holds about 9.5 MiB of native memory once it has segmented a few thousand words (ICU's break
 * iterator; `process.memoryUsage().rss` after `gc()`, node 20), a warm server's largest single
 * native cost. A new one per word left about 25 MiB.
 */
let segmenter: Intl.Segmenter | undefined;

/** The grapheme clusters of `text`, as Intl.Segmenter's 'grapheme' granularity gives them. */
export function graphemes(text: string): string[] {
  if (PLAIN_CLUSTERS.test(text)) return text.match(CLUSTER) ?? [];
  return [...(segmenter ??= new Intl.Segmenter('und', { granularity: 'grapheme' })).segment(text)].map((s) => s.segment);
}

/** Pairs one tone apart (same segments) or one segment apart (same tones), within a language and variety. */
export function minimalPairs(items: readonly LanguageItem[]): MinimalPair[] {
  return runSteps(minimalPairSteps(items));
}

/** `minimalPairs` as steps (src/steps.ts), one item compared with the items after it a step: the comparison is quadratic. */
export function* minimalPairSteps(items: readonly LanguageItem[]): Generator<void, MinimalPair[]> {
  const byLanguage = new Map<string, LanguageItem[]>();
  for (const i of items) {
    const list = byLanguage.get(key(i)) ?? [];
    if (!list.some((o) => o.form === i.form)) list.push(i);
    byLanguage.set(key(i), list);
  }
  const out: MinimalPair[] = [];
  for (const list of byLanguage.values()) {
    const split = list.map((i) => ({ i, segs: graphemes(i.segments.toLowerCase()) }));
    for (let x = 0; x < split.length; x++) {
      yield;
      for (let y = x + 1; y < split.length; y++) {
        const a = split[x]!;
        const b = split[y]!;
        if (a.i.segments.toLowerCase() === b.i.segments.toLowerCase()) {
          const d = oneDifference([...a.i.tones], [...b.i.tones]);
          if (d !== undefined) out.push(pair(a.i, b.i, 'tone', `vowel ${d + 1}: ${a.i.tones[d]}/${b.i.tones[d]}`));
        } else if (a.i.tones === b.i.tones) {
          const d = oneDifference(a.segs, b.segs);
          if (d !== undefined) out.push(pair(a.i, b.i, 'segment', `segment ${d + 1}: ${a.segs[d]}/${b.segs[d]}`));
        }
      }
    }
  }
  return out;
}

/** The one index where two equally long sequences differ, or undefined. */
function oneDifference(a: string[], b: string[]): number | undefined {
  if (a.length !== b.length) return undefined;
  let at: number | undefined;
  for (let k = 0; k < a.length; k++) {
    if (a[k] === b[k]) continue;
    if (at !== undefined) return undefined;
    at = k;
  }
  return at;
}

function pair(a: LanguageItem, b: LanguageItem, kind: 'tone' | 'segment', difference: string): MinimalPair {
  return { language: a.language, variety: a.variety, kind, difference, a: strip(a), b: strip(b) };
}
