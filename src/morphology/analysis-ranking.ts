/**
 * How the analyzer ranks its readings (src/morphology/analyzer.ts): the analysis it returns and
 * the score that orders readings like the probability they will be given.
 */
import type { Cell, Generated, Lexeme } from './generator.js';

export interface Analysis {
  lemma: string;
  root: string;
  in_lexicon: boolean;
  gloss: string | null;
  cell: Cell;
  generated: Generated;
  /** Higher is more plausible. */
  score: number;
}

export function syllables(text: string): number {
  return (text.match(/[aeiou]+/gu) ?? []).length;
}

/** Whether a verb form is nothing but its root and final affixes (a bare imperative). */
function isBare(generated: Generated): boolean {
  return generated.words.length === 1 && generated.words[0]!.morphs.every((m) => ['root', 'fv', 'post_final'].includes(m.slot));
}

/**
 * Score of an invariable word of the lexicon (na, kwa, katika): as a closed-class agreeing word with a
 * plain cell (see score), and a little more, so that kwa 'with, by' comes before kwa 'of' (class 15).
 */
export const INVARIABLE = 15 + 3.5 + 0.01;

/** Readings most plausible first; equal scores by lemma. */
export function byScore(analyses: Analysis[]): Analysis[] {
  return analyses.sort((a, b) => b.score - a.score || a.lemma.localeCompare(b.lemma));
}

/**
 * What a guessed reading's affixes say for it: a tense or relative marker is good evidence of a verb,
 * a subject, object or negative marker or a final vowel other than the default some; a noun
 * prefix about as much as a subject and a tense marker together would not.
 */
const EVIDENCE: Record<string, number> = { tam: 1, relative: 1, subject: 0.5, object: 0.5, negation: 0.5, pre_initial: 0.5, extensions: 0.5, prefix: 0.9 };

/**
 * How much of the word a known stem spells: its root, or the derived stem the cartridge lists for it
 * when the form is built on that (a lexical derivative such as a monosyllable's passive spells the
 * whole derived stem, so it is not outranked by a longer root that needs a regular extension to
 * spell the same letters).
 */
function spelled(lexeme: Lexeme, generated: Generated): number {
  let length = lexeme.root.length;
  for (const morph of generated.words.flatMap((w) => w.morphs)) {
    if (morph.slot === 'root' && morph.form.startsWith(lexeme.root)) length = Math.max(length, morph.form.length);
  }
  return length;
}

/**
 * Plausibility, a score that orders readings like the probability they will be given: a closed-class
 * word of the lexicon first, then known stems (the more of the word the known stem spells, the
 * better: hali as a noun before ha-l-i 'does not eat'), then guesses by the evidence of their affixes;
 * among readings of one stem, plain cells over variants and reflexive/object readings.
 */
export function score(lexeme: Lexeme, cell: Cell, generated: Generated, word: string, closed: boolean): number {
  let s = 0;
  if (isBare(generated)) s -= 3;
  if (lexeme.inLexicon) s += closed ? 15 : 10 + 3 * Math.min(1, spelled(lexeme, generated) / Math.max(1, word.length));
  else {
    const morphs = generated.words.flatMap((w) => w.morphs);
    s += morphs.reduce((sum, m) => sum + (EVIDENCE[m.slot] ?? 0), 0);
    // A guessed noun or agreeing word with no prefix to show for it: any word would read as one.
    // (a guessed class 9 noun still comes before a guessed bare imperative: unknown words are more often nouns)
    if (cell.word_class !== 'verb' && !morphs.some((m) => m.slot === 'prefix' && m.form !== '')) s -= 2.5;
    // Agreeing classes have few stems, mostly listed: a guessed one is less likely than a guessed verb or noun.
    if (cell.word_class !== 'verb' && cell.word_class !== 'noun') s -= 1.5;
    // A guessed stem read after the reflexive marker before the same letters read as part of the stem:
    // the reflexive is a common slot, a root that begins with its letters rare (-jitokeza: ji-tokeza).
    if (cell.object === 'refl') s += 1;
    // A guessed root read with a derivational extension other than the passive: an unknown derived stem is more often
    // a lexicalised verb of its own (a dictionary lists it as a headword) than a regular derivation of another unknown
    // root, so the whole stem comes first and the shorter root with the extension after it, still offered.
    s -= 0.75 * (cell.extensions ?? []).filter((e) => e !== 'passive').length;
    // A guessed loan-shaped verb (a root that keeps its own final vowel) with a subject prefix and nothing else to show
    // for a verb (no tense, negative, relative or extension, an object prefix at most; not the infinitive, whose prefix
    // is the verb's own): the prefix is as likely the first letters of an unknown loan noun ending in the same vowel,
    // which is the commoner word, so the guessed noun comes first.
    if (cell.word_class === 'verb' && cell.tense !== 'infinitive' && lexeme.ownFinalVowel !== null && !morphs.some((m) => ['tam', 'negation', 'relative', 'extensions', 'pre_initial'].includes(m.slot))) s -= 3.5;
    // A guessed root with extensions and nothing else (no subject, tense or prefix) is as bare as the plain stem:
    // its extensions are letters of the same word, not evidence of a verb.
    if (cell.extensions?.length && !isBare(generated) && generated.words.length === 1 && morphs.every((m) => ['root', 'fv', 'post_final', 'extensions'].includes(m.slot))) s -= 3;
  }
  if (!cell.variant) s += 2;
  if (!cell.object) s += 1;
  // A relative's head that no morph shows (an object relative written like the indicative) is a guess at
  // the head: after the readings without one.
  if (cell.head !== undefined && !generated.words.some((w) => w.morphs.some((m) => m.id === cell.head))) s -= 3;
  // Of two derivations that spell the same word (zaliwa: passive of zaa, or applicative + passive), the shorter first.
  s -= 0.25 * (cell.extensions?.length ?? 0);
  // A known stem's positive form before a negative one that spells the same word; a guess's negative
  // marker is evidence of its own (asiteswe: a-si-tes-w-e 'that he not be tortured' before a-sites-w-e).
  if (cell.polarity === 'positive' && lexeme.inLexicon) s += 0.5;
  return s;
}
