/**
 * The cartridge engine as a text analyser: each token's analyses from MorphologyService.analyze,
 * mapped to readings (TokenAnalysis). Used for every language that has no learned analyser.
 *
 * Probability: the engine ranks analyses by a plausibility score (a root in the lexicon +10, a
 * plain cell over a variant +2, no object marker +1, positive +0.5, a bare stem -3; see
 * src/morphology/analyzer.ts). A token's readings get p_i = exp(s_i) / Σ_j exp(s_j) over its
 * analyses (a softmax of the scores), so one point of score is a factor e ≈ 2.7 in odds and a
 * lexicon root outweighs a guess by e^10.
 *
 * Context: a cartridge's `context.yaml` (optional) names the tags of its readings and gives rules that
 * move probability between a word's readings by its neighbours (na 'with' after kuwa, a noun before a
 * word that agrees with it) and reads an unknown capitalised word inside a sentence as a proper name.
 * The readings of a text are adjusted left to right, then cut.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';
import type { AnalysisView, MorphologyService } from '../morphology/service.js';
import type { Morpheme, RankOptions, TextAnalyzer, TokenAnalysis } from './types.js';
import type { Result } from '../result.js';
import { HYPHENS } from './tokenize.js';

/** The readings kept by default: the most probable ones that together hold this share ... */
export const DEFAULT_MASS = 0.95;
/** ... but never more than this many (`all` returns every reading). */
export const DEFAULT_MAX_READINGS = 5;

/** Softmax of plausibility scores (see the module comment). */
export function probabilitiesOf(scores: readonly number[]): number[] {
  if (scores.length === 0) return [];
  const top = Math.max(...scores);
  const weights = scores.map((s) => Math.exp(s - top));
  const sum = weights.reduce((a, b) => a + b, 0);
  return weights.map((w) => w / sum);
}

/** Readings most probable first, cut to those holding DEFAULT_MASS of the probability (at most DEFAULT_MAX_READINGS) unless `all`. */
export function cutReadings<T extends { probability: number }>(readings: readonly T[], options: RankOptions = {}): T[] {
  const sorted = [...readings].sort((a, b) => b.probability - a.probability);
  if (options.all) return sorted;
  const kept: T[] = [];
  let mass = 0;
  for (const r of sorted) {
    if (kept.length >= DEFAULT_MAX_READINGS || (kept.length > 0 && mass >= DEFAULT_MASS)) break;
    kept.push(r);
    mass += r.probability;
  }
  return kept;
}

/** A noun class id as the tag set writes it: 1 -> 01, 1a -> 01a, 10 -> 10. */
function classTag(id: string | undefined): string {
  const m = /^c?(\d+)([a-z]*)$/.exec(id ?? '');
  return m ? `${m[1]!.padStart(2, '0')}${m[2]}` : '';
}

/**
 * The part of speech of an engine analysis in SADiLaR-II-style tags: V, N09, NLOC, POSS10, REL,
 * COP, ADJ07, ...; a word class the table does not know is written upper-case.
 */
export function posOf(features: AnalysisView['features']): string {
  const wc = features.word_class;
  if (wc === 'verb') return 'V';
  if (wc === 'noun') {
    switch (features.form) {
      case 'locative':
        return 'NLOC';
      case 'possessive':
        return `POSS${classTag(features.possessee)}`;
      case 'copulative':
      case 'negative_copulative':
        return 'COP';
      case 'relative_possessive':
        return 'REL';
      default:
        return `N${classTag(features.noun_class)}`;
    }
  }
  if (wc.startsWith('adjective')) return wc === 'adjective' ? `ADJ${classTag(features.subject)}` : 'REL';
  return wc.toUpperCase();
}

/** The coarse word class of an analysis (a noun's derived forms are their own class: a locative is not a noun). */
export function wordClassOf(features: AnalysisView['features']): string {
  if (features.word_class !== 'noun') return features.word_class.startsWith('adjective_rel') ? 'relative' : features.word_class;
  switch (features.form) {
    case 'locative':
      return 'locative';
    case 'possessive':
      return 'possessive';
    case 'copulative':
    case 'negative_copulative':
      return 'copulative';
    case 'relative_possessive':
      return 'relative';
    default:
      return 'noun';
  }
}

/** The morphemes of an analysis: each filled slot of each word, the root slot with the root as canonical form. */
export function morphemesOf(view: Pick<AnalysisView, 'words' | 'root'>): Morpheme[] {
  const out: Morpheme[] = [];
  for (const word of view.words) {
    for (const [slot, filled] of Object.entries(word.slots)) {
      out.push({ surface: filled.form, canonical: slot === 'root' ? view.root : filled.form, tag: filled.id ? `${slot}:${filled.id}` : slot });
    }
  }
  return out;
}

/** An engine analysis as a reading, with its probability. */
export function readingOf(view: AnalysisView, probability: number): TokenAnalysis {
  const morphemes = morphemesOf(view);
  return {
    lemma: view.lemma,
    pos: posOf(view.features),
    word_class: wordClassOf(view.features),
    morphemes,
    probability,
    guess: !view.in_lexicon,
    source: !view.in_lexicon ? 'guess' : morphemes.length <= 1 ? 'lexicon' : 'rule',
    gloss: view.gloss,
    stem_source: view.in_lexicon ? 'cartridge' : null,
  };
}

const contextRuleSchema = z
  .object({
    /** The word (or words: na and its forms with a referential, naye, nao, nazo) the rule is for; any word when absent. */
    word: z.union([z.string(), z.array(z.string()).min(1)]).optional(),
    prefer: z.string(),
    after: z
      .object({
        lemma: z.array(z.string()).default([]),
        extension: z.array(z.string()).default([]),
        word_class: z.array(z.string()).default([]),
        /** Word classes that may stand between (the rule looks past words read first as these: ikaandikwa baadaye na ...). */
        across: z.array(z.string()).default([]),
        /** With `word_class: [verb]`: only a verb of these kinds (`[finite]`: a verb with a tense or relative marker, not an infinitive). */
        verbal: z.array(z.enum(['infinitive', 'finite'])).default([]),
      })
      .strict()
      .optional(),
    /**
     * Holds when the first reading of the next word (punctuation breaks the link) is a verb of one of the kinds `verbal`
     * (`[infinitive]`: na before kupata is 'and', joining two infinitives) or of one of the word classes `word_class`.
     */
    before: z
      .object({
        verbal: z.array(z.enum(['infinitive', 'finite'])).default([]),
        word_class: z.array(z.string()).default([]),
        /** Or the next word's first reading has one of these lemmas. */
        lemma: z.array(z.string()).default([]),
      })
      .strict()
      .optional(),
    /**
     * Holds when one of the `within` words on either side of the word (punctuation inside the sentence skipped, the
     * sentence's end a limit) is read first with one of the lemmas `lemma`: a word of the same field close by, as in a
     * list (mito na maziwa 'rivers and lakes'; bahari, maziwa au mito).
     */
    near: z
      .object({ lemma: z.array(z.string()).min(1), within: z.number().int().positive().default(2) })
      .strict()
      .optional(),
    /** Prefer only the readings of class `prefer` with one of these lemmas (one homograph over another of the same class: maziwa 'lakes', of ziwa, over maziwa 'milk'). */
    lemma: z.array(z.string()).default([]),
    agrees_with_next: z.boolean().default(false),
    agrees_with_previous: z.boolean().default(false),
    /** Prefer only the readings of class `prefer` in this mood (imperative: the bare stem of a command). */
    mood: z.string().optional(),
    /** Prefer only the readings of class `prefer` not in this mood (`imperative`: a bare stem with extensions, wak-iw-a, is not the auxiliary wa-ki-w-a). */
    not_mood: z.string().optional(),
    /** Prefer only the readings with none of these verb extensions (`[causative]`: the known verb ongeza 'add' over onge-z-a, the causative of ongea). */
    without_extension: z.array(z.string()).default([]),
    /** Holds only for the first word of a sentence or clause (no word before it back to punctuation or the text's start). */
    clause_start: z.boolean().default(false),
    /** Holds only right after one of these punctuation marks (`[","]`: a clause opened inside its sentence, not the sentence's first word). */
    after_mark: z.array(z.string()).default([]),
    /** Holds only for a word standing by itself between punctuation marks or the text's edges (an answer or a call: `Ndiyo, ...`, `Karibu, dada!`). */
    alone: z.boolean().default(false),
    /** Holds only for the last word of its clause (a punctuation mark or the text's end after it: alikaa naye. 'sat with him'). */
    clause_end: z.boolean().default(false),
    over: z.string().optional(),
    weight: z.number().positive().default(4),
    source: z.string(),
  })
  .strict();

const textContextSchema = z
  .object({
    tags: z.record(z.string(), z.string()).default({}),
    classes: z.record(z.string(), z.string()).default({}),
    names: z.boolean().default(false),
    /**
     * Noun classes whose nouns also take the concords of other classes (nouns of kinship of class 1a with the class 9
     * possessive: mama yako 'your mother'): `agrees_with_previous` counts the noun as agreeing with those classes too.
     */
    also_agrees: z
      .object({ classes: z.record(z.string(), z.array(z.string().min(1)).min(1)), source: z.string() })
      .strict()
      .optional(),
    /** Regular expressions (lower case, Unicode) for a word shape the language's own words never have: a sentence-initial unknown word of that shape is a name, a small-letter word of that shape with no reading a foreign word. */
    foreign_shapes: z
      .object({ patterns: z.array(z.string().min(1)).min(1), source: z.string() })
      .strict()
      .optional(),
    /**
     * Nouns of peoples: inside a sentence, a capitalised word no lexicon knows, guessed as a noun of `class` (Waganda
     * 'Ugandans', Wakaranga), is that people's noun, its lemma the guessed singular with a capital (Mganda), not a
     * name; unless a capitalised word stands right before or after it (`Profesa Wangari`, `Wangari Maathai`) or the
     * verb after it agrees with one of `not_before_subject` (a person's name: `Wangari alizaliwa`).
     */
    peoples: z
      .object({ class: z.string().min(1), not_before_subject: z.array(z.string().min(1)).default([]), source: z.string() })
      .strict()
      .optional(),
    /**
     * Names of languages: a capitalised word no lexicon knows, beginning with `prefix` and guessed as a noun of `class`,
     * is a language's noun, its lemma the word as written, not a name or an adverb of manner, when its context says so: it
     * follows one of `heads` and the possessive `link` ('the language of X'), the word after it agrees with `class`, or
     * one of `joins` ('and', 'or', a comma, a parenthesis; a parenthesised aside is passed over) links it to a language's
     * noun the lexicon writes with a capital or one found so. The cartridge's context file gives the words and examples.
     */
    languages: z
      .object({
        class: z.string().min(1),
        prefix: z.string().min(1),
        heads: z.array(z.string().min(1)).default([]),
        /** The lemma of the possessive of association between a head and the language's noun ('the language of X'). */
        link: z.string().min(1),
        joins: z.array(z.string().min(1)).default([]),
        source: z.string(),
      })
      .strict()
      .optional(),
    /**
     * A small-letter word no lexicon knows right after a language's noun (a word quoted 'in English') or right after a name
     * that opens a parenthesis (the second word of a Latin binomial) is a foreign word quoted in the text, read as itself.
     */
    quoted_foreign: z
      .object({
        /** The nouns naming the text's own language: a word after one of them is a word of the text's language, not quoted. */
        own: z.array(z.string().min(1)).default([]),
        source: z.string(),
      })
      .strict()
      .optional(),
    rules: z.array(contextRuleSchema).default([]),
    contractions: z
      .object({
        hosts: z.array(z.string()).min(1),
        suffixes: z.array(z.object({ form: z.string().min(1), stem: z.string().min(1), replaces_final_vowel: z.boolean().default(false) }).strict()).min(1),
        tag: z.string().default('possessive'),
        source: z.string(),
      })
      .strict()
      .optional(),
    /**
     * Enclitics written after a verb no lexicon reads otherwise: the locative -po, -ko, -mo after kuwa 'be'
     * (kuwepo 'to be present', alikuwepo, ikiwemo 'including', huwepo), the verb's final -a written as `final_vowels`.
     * Read as the verb of one of `lemmas`, the enclitic its last morpheme.
     */
    enclitics: z
      .object({
        forms: z.array(z.string().min(1)).min(1),
        lemmas: z.array(z.string().min(1)).min(1),
        final_vowels: z.array(z.string().length(1)).min(1).default(['a']),
        /** The final vowel of the host verb as the lexicon reads it (kuwa), which `final_vowels` stand for before the enclitic. */
        host_final: z.string().length(1).default('a'),
        /** Lemmas of copula readings that take the enclitic after their written form (a relative copula + -po 'which is there'). */
        copulas: z.array(z.string().min(1)).default([]),
        tag: z.string().default('Enclitic'),
        source: z.string(),
      })
      .strict()
      .optional(),
    /**
     * A morpheme written after a tense marker that the verb grammar does not build: -sha- 'already' (from kwisha
     * 'finish') after -me- and -ki- (imeshachukua 'has already taken', yakishapungua 'when they have already
     * lessened'). A word no lexicon knows that has one is read as the verb without it, the morpheme put back after
     * the tense marker.
     */
    infixes: z
      .array(
        z
          .object({
            after: z.array(z.string().min(1)).min(1),
            /** The tags the tense marker carries in a reading (context.yaml `morpheme_tags`: Perf, Sit), so an object concord of its form is not taken for it. */
            marker_tags: z.array(z.string().min(1)).default([]),
            form: z.string().min(1),
            tag: z.string().min(1),
            source: z.string(),
          })
          .strict(),
      )
      .optional(),
    /**
     * Reduplication: a word no lexicon knows that repeats the end of a known word (vidogovidogo = vidogo + vidogo,
     * huhamahama = huhama + hama, palepale = pale + pale) is read as that word, the repeated part one morpheme more.
     */
    reduplication: z
      .object({
        /** The fewest letters of the repeated part (kaka, baba: words of their own, not a repetition). */
        min_repeat: z.number().int().min(1).default(4),
        /** The word classes a repetition keeps (a noun repeated is a word of its own: takataka 'rubbish'). */
        word_classes: z.array(z.string()).min(1),
        /** The word classes whose lemma is the whole repeated form (demonstratives and adverbs: palepale, katikati). */
        whole_lemma: z.array(z.string()).default([]),
        tag: z.string().default('Redup'),
        source: z.string(),
      })
      .strict()
      .optional(),
    derived_nouns: z
      .object({
        patterns: z
          .array(
            z
              .object({
                /** The word class of the base the lexicon must know (a verb for -aji, a noun for mwana-). */
                from: z.enum(['verb', 'noun']),
                /** A stem before the base (ana of mwana-) ... */
                before: z.string().default(''),
                /** ... and a suffix after it (aji) that takes the place of the base's final `replaces` (a). */
                suffix: z.string().default(''),
                replaces: z.string().default(''),
                /** The noun classes whose prefixes the derived noun takes (1, 2: the agent; 14: the act). */
                classes: z.array(z.string().min(1)).min(1),
                /**
                 * The base is a noun of this class, its own prefix in place of the derived noun's (the language
                 * Kifaransa = ki- + the stem of Mfaransa 'French person'); it must carry the lexicon's `capital`
                 * flag (a noun of a people), whose capital the derived noun keeps.
                 */
                base_class: z.string().min(1).optional(),
              })
              .strict(),
          )
          .min(1),
        source: z.string(),
      })
      .strict()
      .optional(),
    /**
     * A word no lexicon knows, written with the prefix of a derived word class, after a word whose first
     * reading has one of the lemmas `after` (the -a of association: ya kibiolojia 'biological', vya kishenzi
     * 'savage'): a word of that class on an unknown stem (lemma: the word without the prefix). The prefix
     * written with a hyphen (ki-Hindi, ki-ulimwengu) marks the word so wherever it stands.
     */
    derived_after: z
      .object({
        after: z.array(z.string().min(1)).min(1),
        prefix: z.string().min(1),
        word_class: z.string().min(1),
        /** The shortest stem read so. */
        min_stem: z.number().int().min(1).default(3),
        /**
         * Nouns that name a place by the -a of association and a name (Mkoa wa Kilimanjaro 'Kilimanjaro Region'): after
         * one of them and the -a, a capitalised word read as a name stays the name.
         */
        not_after_heads: z.array(z.string().min(1)).default([]),
        source: z.string(),
      })
      .strict()
      .optional(),
    morpheme_tags: z
      .object({
        whole: z.record(z.string(), z.string()).default({}),
        slots: z.record(z.string(), z.record(z.string(), z.string())).default({}),
        source: z.string(),
      })
      .strict()
      .optional(),
  })
  .strict();

/** A cartridge's running-text data (context.yaml): reading tags, proper names, context rules. */
export type TextContext = z.infer<typeof textContextSchema>;

/** The cartridge's context.yaml, or undefined when it has none. */
export function loadTextContext(cartridgeDir: string): TextContext | undefined {
  const file = path.join(cartridgeDir, 'context.yaml');
  return existsSync(file) ? textContextSchema.parse(parse(readFileSync(file, 'utf8'))) : undefined;
}

/** What the context rules look at in a reading besides its lemma and word class. */
interface ReadingFacts {
  /** The noun classes the word's own form has (watoto: 2) or agrees with (jekundu: 5, hiyo: 4 and 9); none for invariables. */
  agrees: string[];
  /** The verb extensions of the reading (passive, reciprocal, ...). */
  extensions: string[];
  /** A verb reading's marking: an infinitive (ku-), or a finite form with a tense, aspect or relative marker. */
  verbal?: 'infinitive' | 'finite';
  /** A verb reading's mood (imperative, subjunctive, ...). */
  mood?: string;
}

/** Terminal punctuation: the next word starts a sentence. */
const TERMINAL = /^[.!?\u2026:;]+$/u;

/** The engine's analyses of `language`'s words as readings; readings of a form are remembered (up to `cacheSize` forms). */
export class EngineTextAnalyzer implements TextAnalyzer {
  readonly #cache = new Map<string, TokenAnalysis[]>();
  readonly #facts = new WeakMap<TokenAnalysis, ReadingFacts>();
  #context?: TextContext | null;
  #shapes?: RegExp[];
  #plurals?: Map<string, string>;

  constructor(
    readonly language: string,
    private readonly morphology: MorphologyService,
    private readonly cacheSize = 20_000,
  ) {}

  /** Reads the cartridge's running-text data (context.yaml) now, not on the first text (a warm-up step). */
  prepare(): void {
    this.#textContext();
  }

  /** Each token's readings, adjusted by its neighbours (see the module comment), then cut. */
  analyzeTokens(tokens: readonly string[], options: RankOptions = {}): TokenAnalysis[][] {
    const context = this.#textContext();
    const all = tokens.map((token) => this.readings(token));
    if (!context) return all.map((readings) => cutReadings(readings, options));
    const names = context.names ? this.#names(tokens, all) : new Set<number>();
    const peoples = context.peoples ? this.#peoples(tokens, all, context.peoples) : new Map<number, TokenAnalysis>();
    for (const i of peoples.keys()) names.delete(i);
    const languages = context.languages ? this.#languages(tokens, all, context.languages) : new Map<number, TokenAnalysis>();
    for (const i of languages.keys()) names.delete(i);
    // A small word no lexicon knows between two names is a part of the name (Dar es Salaam).
    for (const i of [...names]) if (names.has(i + 2) && /^\p{Ll}+$/u.test(tokens[i + 1] ?? '') && !all[i + 1]!.some((r) => !r.guess)) names.add(i + 1);
    const chosen: Array<TokenAnalysis | undefined> = [];
    const out: TokenAnalysis[][] = [];
    tokens.forEach((token, i) => {
      let readings = all[i]!;
      const people = peoples.get(i);
      if (names.has(i)) readings = this.#name(token, readings);
      else if (people) readings = this.#ruleFirst([people], readings);
      else if (languages.has(i)) readings = this.#ruleFirst([languages.get(i)!], readings);
      else if (context.quoted_foreign && this.#quoted(tokens, all, i, names, languages)) readings = this.#guessFirst(this.#foreign(token), readings);
      else if (readings.length === 0 && !/^\p{Lu}/u.test(token) && /\p{L}/u.test(token) && this.#foreignShape(token)) readings = [this.#foreign(token)];
      if (context.derived_after && !languages.has(i) && !all[i]!.some((r) => !r.guess) && !this.#foreignShape(token) && !(names.has(i) && namesAPlace(tokens, chosen, i, context.derived_after)))
        readings = this.#derivedAfter(token, readings, context.derived_after, previousWord(tokens, chosen, i));
      const after = nextWord(tokens, i);
      const near = (within: number): string[] => nearLemmas(tokens, chosen, all, i, within);
      const mark = i > 0 && !/[\p{L}\p{Nd}]/u.test(tokens[i - 1]!) ? tokens[i - 1] : undefined;
      readings = this.#adjust(token, readings, context, wordsBefore(tokens, chosen, i), all[after] ?? [], after === -1, near, mark);
      chosen.push(readings[0]);
      out.push(cutReadings(readings, options));
    });
    return out;
  }

  /**
   * The capitalised tokens read first as proper names. The languages with `names: true` write common
   * words small inside a sentence and names of people and places with a capital, so inside a
   * sentence (quoted speech starts one) a capitalised word is a name when
   * - no lexicon knows it (or it has no reading at all);
   * - the lexicon knows it only as a word that is never a title's head (a verb, an adjective, ...),
   *   unless it follows a capitalised noun it may qualify (`Baraza Kuu`, `Nchi Wanachama`) or a name and
   *   the -a of association (`Afrika ya Kati` 'Central Africa': the adverb kati 'middle' inside a name keeps
   *   its reading, as the nouns do);
   * - it follows a name and is no known noun (`Tembo Mdogo` once `Tembo` is one; in `Korea Kaskazini` the
   *   noun kaskazini 'north' stays the noun, as capitalised common nouns inside names do: `Umoja wa Mataifa`).
   * A capitalised noun followed by a capitalised word that qualifies it without agreeing with its class
   * (`Tembo Mdogo`: tembo is class 9, mdogo class 1) is a character's name, at a sentence's start too;
   * animate nouns take class 1/2 concords (Ashton 1944, agreement of animate nouns), so the pair reads
   * as a being called by its kind, as in `Sungura Mjanja`.
   * At a sentence's start a capitalised word is a name when the same form is one elsewhere in the text,
   * or when it has no known reading and its shape is one the language's own words never have
   * (context.yaml `foreign_shapes`, e.g. a final consonant or a letter its spelling does not use).
   * In a title-case sentence (a headline: see `titleCase`) the capital marks the title, not a name: there
   * a capitalised word is a name only when it has no known reading and is not read as a marked verb (its
   * likeliest guess a verb, one of its guesses an infinitive or a verb with a tense, aspect or relative
   * marker: `Kudai`, `Imejitenga` stay verbs), or is
   * one of a character's name pair.
   */
  #names(tokens: readonly string[], all: readonly TokenAnalysis[][]): Set<number> {
    const names = new Set<number>();
    const capital = tokens.map((t) => /^\p{Lu}/u.test(t) && /\p{L}/u.test(t));
    const start = tokens.map((_, i) => sentenceStart(tokens, i));
    const title = titleCase(tokens, capital);
    const known = (i: number) => all[i]!.filter((r) => !r.guess);
    const isNoun = (r: TokenAnalysis) => r.word_class === 'noun' || r.word_class === 'locative';
    // a known word after a name and the -a of association, a part of a longer name written with its capital (Afrika ya Kati 'Central Africa')
    // (or after a capitalised noun and a possessive: a name's part 'the Middle X', not an adverb)
    const ofName = (i: number) => i >= 2 && (names.has(i - 2) || (capital[i - 2] === true && known(i - 2).some(isNoun))) && !capital[i - 1] && known(i - 1).some((r) => r.word_class === 'possessive');
    // a capitalised noun and a capitalised qualifier that does not agree with it: a character's name
    const pairs = new Set<number>();
    for (let i = 0; i + 1 < tokens.length; i++) {
      if (!capital[i] || !capital[i + 1] || start[i + 1]) continue;
      const nouns = known(i).filter((r) => r.word_class === 'noun');
      const qualifiers = known(i + 1).filter((r) => r.word_class === 'adjective');
      if (nouns.length === 0 || qualifiers.length === 0 || known(i + 1).some(isNoun)) continue;
      const own = nouns.flatMap((r) => this.#facts.get(r)?.agrees ?? []);
      const agrees = qualifiers.some((r) => (this.#facts.get(r)?.agrees ?? []).some((c) => own.includes(c)));
      if (!agrees && own.length > 0) pairs.add(i).add(i + 1);
    }
    tokens.forEach((token, i) => {
      if (!capital[i]) return;
      if (pairs.has(i)) names.add(i);
      else if (title[i]) {
        if (known(i).length === 0 && !this.#verbal(all[i]!)) names.add(i);
      } else if (start[i]) {
        if (all[i]!.length === 0 || (known(i).length === 0 && (this.#foreignShape(token) || this.#subjectDisagrees(all[i]!, all[nextWord(tokens, i)] ?? [])))) names.add(i);
      } else if (known(i).length === 0 || (names.has(i - 1) && !known(i).some(isNoun))) names.add(i);
      else if (!known(i).some(isNoun) && !(i > 0 && capital[i - 1] && known(i - 1).some(isNoun)) && !ofName(i)) names.add(i);
    });
    // one name, one reading: the form read as a name somewhere is a name wherever it is capitalised
    const forms = new Set([...names].map((i) => tokens[i]!));
    tokens.forEach((token, i) => {
      if (capital[i] && forms.has(token) && !(title[i] && known(i).length > 0)) names.add(i);
    });
    return names;
  }

  /**
   * The tokens that are nouns of peoples (context.yaml `peoples`), each with its reading: the guessed noun of the
   * people's class, its lemma written with a capital as the lexicon writes the nouns of peoples (Mzungu, Mreno).
   */
  #peoples(tokens: readonly string[], all: readonly TokenAnalysis[][], spec: NonNullable<TextContext['peoples']>): Map<number, TokenAnalysis> {
    const out = new Map<number, TokenAnalysis>();
    const capital = tokens.map((t) => /^\p{Lu}/u.test(t) && /\p{L}/u.test(t));
    const title = titleCase(tokens, capital);
    tokens.forEach((_, i) => {
      if (!capital[i] || title[i] || sentenceStart(tokens, i) || capital[i - 1] || capital[i + 1]) return;
      if (all[i]!.some((r) => !r.guess)) return;
      const noun = all[i]!.find((r) => r.word_class === 'noun' && (this.#facts.get(r)?.agrees ?? []).includes(spec.class));
      if (!noun) return;
      const verb = (all[nextWord(tokens, i)] ?? []).find((r) => !r.guess);
      if (verb && ['verb', 'have', 'copula'].includes(verb.word_class) && (this.#facts.get(verb)?.agrees ?? []).some((c) => spec.not_before_subject.includes(c))) return;
      out.set(i, this.#ruleReading(noun, { lemma: capitalised(noun.lemma), guess: false }));
    });
    return out;
  }

  /** Whether token i is a foreign word quoted after a language's noun or after a name opening a parenthesis (context.yaml `quoted_foreign`). */
  #quoted(tokens: readonly string[], all: readonly TokenAnalysis[][], i: number, names: ReadonlySet<number>, languages: ReadonlyMap<number, TokenAnalysis>): boolean {
    if (i < 1 || !/^\p{Ll}+$/u.test(tokens[i]!) || all[i]!.some((r) => !r.guess)) return false;
    if (names.has(i - 1) && tokens[i - 2] === '(') return true;
    const spec = this.#textContext()?.languages;
    const own = this.#textContext()?.quoted_foreign?.own ?? [];
    if (!spec || !/^\p{Lu}/u.test(tokens[i - 1]!) || own.includes(tokens[i - 1]!.toLowerCase())) return false;
    return languages.has(i - 1) || all[i - 1]!.some((r) => !r.guess && r.word_class === 'noun' && (this.#facts.get(r)?.agrees ?? []).includes(spec.class) && this.#capital(r.lemma.toLowerCase(), 'noun'));
  }

  /**
   * The tokens that are nouns of languages (context.yaml `languages`), each with its reading: the guessed noun of the
   * language's class, its lemma the word as written, as the lexicon writes the language nouns it lists.
   */
  #languages(tokens: readonly string[], all: readonly TokenAnalysis[][], spec: NonNullable<TextContext['languages']>): Map<number, TokenAnalysis> {
    const out = new Map<number, TokenAnalysis>();
    const capital = tokens.map((t) => /^\p{Lu}/u.test(t) && /\p{L}/u.test(t));
    const title = titleCase(tokens, capital);
    const ofClass = (r: TokenAnalysis) => (this.#facts.get(r)?.agrees ?? []).includes(spec.class);
    const guessed = (i: number): TokenAnalysis | undefined => {
      const token = tokens[i]!;
      if (!capital[i] || title[i] || !token.toLowerCase().startsWith(spec.prefix) || token.length <= spec.prefix.length + 2 || all[i]!.some((r) => !r.guess)) return undefined;
      const guess = all[i]!.find((r) => r.word_class === 'noun' && ofClass(r) && r.lemma.toLowerCase() === token.toLowerCase());
      if (guess) return guess;
      // (a stem opening with a vowel has no guess of the class)
      const tags = this.#textContext()?.morpheme_tags?.slots.noun ?? {};
      const stem = token.slice(spec.prefix.length);
      const made: TokenAnalysis = {
        lemma: token.toLowerCase(),
        pos: this.#tag('noun', spec.class),
        word_class: 'noun',
        morphemes: [
          { surface: token.slice(0, spec.prefix.length), canonical: spec.prefix, tag: (tags.prefix ?? 'prefix').replace('{id}', spec.class) },
          { surface: stem, canonical: stem.toLowerCase(), tag: tags.stem ?? 'stem' },
        ],
        probability: 1,
        guess: true,
        source: 'guess',
        stem_source: null,
        gloss: null,
      };
      this.#facts.set(made, { agrees: [spec.class], extensions: [] });
      return made;
    };
    const language = (i: number) => out.has(i) || (capital[i] === true && all[i]!.some((r) => !r.guess && r.word_class === 'noun' && ofClass(r) && this.#capital(r.lemma.toLowerCase(), 'noun')));
    // the word linked to token i by joins only (a parenthesised aside passed over), looking `step` (-1 left, +1 right)
    const linked = (i: number, step: -1 | 1): number => {
      let j = i + step;
      let joined = false;
      while (j >= 0 && j < tokens.length) {
        const t = tokens[j]!;
        const open = step < 0 ? ')' : '(';
        const close = step < 0 ? '(' : ')';
        if (t === open) {
          let k = j + step;
          while (k >= 0 && k < tokens.length && tokens[k] !== close) k += step;
          if (k < 0 || k >= tokens.length) return -1;
          j = k + step;
          joined = true;
          continue;
        }
        if (!spec.joins.includes(t.toLowerCase())) break;
        joined = true;
        j += step;
      }
      return joined && j >= 0 && j < tokens.length ? j : -1;
    };
    const after = (i: number) =>
      (all[i - 1] ?? []).some((r) => !r.guess && r.word_class === 'possessive' && r.lemma === spec.link) && (all[i - 2] ?? []).some((r) => !r.guess && r.word_class === 'noun' && spec.heads.includes(r.lemma));
    const agrees = (i: number) => {
      const next = all[i + 1]?.[0];
      return next !== undefined && !next.guess && !['noun', 'proper_noun'].includes(next.word_class) && ofClass(next);
    };
    for (let changed = true; changed;) {
      changed = false;
      tokens.forEach((_, i) => {
        if (out.has(i)) return;
        const noun = guessed(i);
        if (!noun) return;
        const left = linked(i, -1);
        const right = linked(i, 1);
        if (after(i) || agrees(i) || (left >= 0 && language(left)) || (right >= 0 && language(right))) {
          out.set(i, this.#ruleReading(noun, { lemma: capitalised(noun.lemma), guess: false }));
          changed = true;
        }
      });
    }
    return out;
  }

  /**
   * Whether a word that only has guessed readings is not the subject of the verb after it: that verb
   * (or copula) is known and the word's most probable guess is no noun (`Amina ni`: a guessed verb
   * before a copula) or a noun whose class the verb's subject concord does not show (`Mombasa iko`: a
   * guessed class 3 noun before a class 9 concord). A sentence's first word so placed is a name.
   */
  #subjectDisagrees(readings: readonly TokenAnalysis[], next: readonly TokenAnalysis[]): boolean {
    const verb = next.find((r) => !r.guess);
    if (!verb || !['verb', 'have', 'copula'].includes(verb.word_class) || verb !== next[0]) return false;
    const guess = readings[0];
    const subject = this.#facts.get(verb)?.agrees ?? [];
    // An infinitive is a noun of class 15 and a subject like any other (`Kuambukizwa hutokea`; Ashton 1944,
    // the infinitive as a noun of the ku- class).
    if (guess && this.#facts.get(guess)?.verbal === 'infinitive') return subject.length > 0 && !subject.includes('15');
    if (!guess || guess.word_class !== 'noun') return true;
    return subject.length > 0 && !(this.#facts.get(guess)?.agrees ?? []).some((c) => subject.includes(c));
  }

  /** Whether a word's likeliest reading is a verb and one of its verb readings is marked as one (an infinitive, a tense, aspect or relative marker). */
  #verbal(readings: readonly TokenAnalysis[]): boolean {
    return readings[0]?.word_class === 'verb' && readings.some((r) => r.word_class === 'verb' && this.#facts.get(r)?.verbal !== undefined);
  }

  /** A token read first as a proper name (lemma as written), its other readings after it. */
  #name(token: string, readings: TokenAnalysis[]): TokenAnalysis[] {
    return this.#guessFirst(this.#asItself(token, 'proper_noun', readings.length > 0 ? 0.9 : 1), readings);
  }

  /**
   * A word written small that has no reading at all and a shape the language's own words never have (context.yaml
   * `foreign_shapes`: a final consonant, a letter its spelling does not use) is a foreign word quoted in the text
   * (`bachelor`, `master`), read as itself.
   */
  #foreign(token: string): TokenAnalysis {
    const reading = this.#asItself(token, 'foreign', 1);
    this.#facts.set(reading, { agrees: [], extensions: [] });
    return reading;
  }

  /** The token read as itself, one morpheme, a guess of `wordClass` (a proper name, a foreign word). */
  #asItself(token: string, wordClass: 'proper_noun' | 'foreign', probability: number): TokenAnalysis {
    return {
      lemma: token,
      pos: this.#tag(wordClass, undefined),
      word_class: wordClass,
      morphemes: [{ surface: token, canonical: token, tag: this.#textContext()?.morpheme_tags?.whole[wordClass] ?? wordClass }],
      probability,
      guess: true,
      source: 'guess',
      stem_source: null,
      gloss: null,
    };
  }

  /** A guessed reading (no agreement facts) put before `readings`, which keep a tenth of their probability. */
  #guessFirst(guess: TokenAnalysis, readings: TokenAnalysis[]): TokenAnalysis[] {
    this.#facts.set(guess, { agrees: [], extensions: [] });
    return [guess, ...readings.map((r) => this.#copy(r, r.probability * 0.1))];
  }

  /** The readings with the context rules applied: each rule that holds adds its weight to the log-odds of the readings it prefers (known stems only). */
  #adjust(
    token: string,
    readings: TokenAnalysis[],
    context: TextContext,
    before: ReadonlyArray<TokenAnalysis | undefined>,
    next: TokenAnalysis[],
    lastInClause = false,
    near: (within: number) => string[] = () => [],
    mark?: string,
  ): TokenAnalysis[] {
    if (readings.length < 2) return readings;
    const previous = before[0];
    const lower = token.toLowerCase();
    const bonus = readings.map(() => 0);
    for (const rule of context.rules) {
      if (rule.word !== undefined && !(typeof rule.word === 'string' ? [rule.word] : rule.word).includes(lower)) continue;
      if (!readings.some((r) => r.word_class === rule.prefer && !r.guess)) continue;
      // (a rule of agreement also chooses between readings of one class: nguo zao is class 10, not 9)
      const preferred = (r: TokenAnalysis): boolean =>
        r.word_class === rule.prefer &&
        (rule.lemma.length === 0 || rule.lemma.includes(r.lemma)) &&
        (rule.mood === undefined || this.#facts.get(r)?.mood === rule.mood) &&
        (rule.not_mood === undefined || this.#facts.get(r)?.mood !== rule.not_mood) &&
        !(this.#facts.get(r)?.extensions ?? []).some((e) => rule.without_extension.includes(e));
      if (!rule.agrees_with_next && readings.every(preferred)) continue;
      if (rule.clause_start && before.length > 0) continue;
      if (rule.after_mark.length > 0 && (mark === undefined || !rule.after_mark.includes(mark))) continue;
      if (rule.alone && (before.length > 0 || !lastInClause)) continue;
      if (rule.clause_end && !lastInClause) continue;
      // (an infinitive read first stays first: the imperative of a monosyllable keeps ku- too, kula, kuwa)
      if (rule.mood !== undefined && this.#facts.get(readings[0]!)?.verbal === 'infinitive') continue;
      // A word whose first reading agrees itself (wake 'his' after its noun) agrees with the next word for that reason.
      if (rule.agrees_with_next && !['verb', 'have', 'noun'].includes(readings[0]!.word_class) && (this.#facts.get(readings[0]!)?.agrees.length ?? 0) > 0) continue;
      if (rule.over !== undefined && (readings[0]!.word_class !== rule.over || readings[0]!.guess)) continue;
      if (rule.agrees_with_previous && (previous === undefined || !['noun', 'proper_noun'].includes(previous.word_class))) continue;
      if (rule.before) {
        const verbal = next[0]?.word_class === 'verb' ? this.#facts.get(next[0])?.verbal : undefined;
        const ofClass = next[0] !== undefined && (rule.before.word_class.includes(next[0].word_class) || rule.before.lemma.includes(next[0].lemma));
        if (!ofClass && (verbal === undefined || !rule.before.verbal.includes(verbal))) continue;
      }
      if (rule.near) {
        const lemmas = rule.near.lemma;
        if (!near(rule.near.within).some((l) => lemmas.includes(l))) continue;
      }
      if (rule.after) {
        const after = rule.after;
        const word = before.find((r) => r === undefined || !after.across.includes(r.word_class));
        const facts = word && this.#facts.get(word);
        const holds = word !== undefined && (after.lemma.includes(word.lemma) || after.word_class.includes(word.word_class) || (facts?.extensions ?? []).some((e) => after.extension.includes(e)));
        if (!holds) continue;
        if (after.verbal.length > 0 && !(facts?.verbal !== undefined && after.verbal.includes(facts.verbal))) continue;
      }
      readings.forEach((r, k) => {
        if (r.word_class !== rule.prefer || r.guess) return;
        if (rule.lemma.length > 0 && !rule.lemma.includes(r.lemma)) return;
        if (rule.mood !== undefined && this.#facts.get(r)?.mood !== rule.mood) return;
        if (rule.not_mood !== undefined && this.#facts.get(r)?.mood === rule.not_mood) return;
        if ((this.#facts.get(r)?.extensions ?? []).some((e) => rule.without_extension.includes(e))) return;
        if (rule.agrees_with_previous) {
          const own = this.#facts.get(r)?.agrees ?? [];
          const nounClasses = this.#facts.get(previous!)?.agrees ?? [];
          const theirs = [...nounClasses, ...nounClasses.flatMap((c) => context.also_agrees?.classes[c] ?? [])];
          // a name (no class of its own) takes the concords of class 1 or 9 (Ashton 1944: names of people, places)
          if (!own.some((c) => theirs.includes(c) || (previous!.word_class === 'proper_noun' && ['1', '9'].includes(c)))) return;
        }
        if (rule.agrees_with_next) {
          const ownClasses = this.#facts.get(r)?.agrees ?? [];
          const own = [...ownClasses, ...ownClasses.flatMap((c) => context.also_agrees?.classes[c] ?? [])];
          const agrees = next.some((n) => n.word_class !== 'noun' && n.word_class !== 'proper_noun' && (this.#facts.get(n)?.agrees ?? []).some((c) => own.includes(c)));
          if (!agrees) return;
        }
        bonus[k] = bonus[k]! + rule.weight;
      });
    }
    if (bonus.every((b) => b === 0)) return readings;
    const weights = readings.map((r, k) => r.probability * Math.exp(bonus[k]!));
    const sum = weights.reduce((a, b) => a + b, 0);
    return readings.map((r, k) => this.#copy(r, weights[k]! / sum)).sort((a, b) => b.probability - a.probability);
  }

  /** A reading with another probability (the cached one is left as it is). */
  #copy(reading: TokenAnalysis, probability: number): TokenAnalysis {
    const copy = { ...reading, probability };
    const facts = this.#facts.get(reading);
    if (facts) this.#facts.set(copy, facts);
    return copy;
  }

  /** A reading a text rule makes from another (`changes` to it), with the other's facts. */
  #ruleReading(from: TokenAnalysis, changes: Partial<TokenAnalysis>): TokenAnalysis {
    const reading: TokenAnalysis = { ...from, ...changes, source: 'rule' };
    this.#facts.set(reading, this.#facts.get(from) ?? { agrees: [], extensions: [] });
    return reading;
  }

  /** The readings a text rule found first, sharing 0.9 of the probability in their own proportions; the others after, with 0.1. */
  #ruleFirst(found: TokenAnalysis[], readings: TokenAnalysis[]): TokenAnalysis[] {
    const total = found.reduce((a, r) => a + r.probability, 0) || 1;
    return [...found.map((r) => this.#copy(r, (0.9 * r.probability) / total)), ...readings.map((r) => this.#copy(r, r.probability * 0.1))];
  }

  /** Whether `token` has a shape the language's own words never have (context.yaml `foreign_shapes`). */
  #foreignShape(token: string): boolean {
    const shapes = this.#textContext()?.foreign_shapes;
    if (!shapes) return false;
    this.#shapes ??= shapes.patterns.map((p) => new RegExp(p, 'u'));
    const lower = token.toLowerCase();
    return this.#shapes.some((re) => re.test(lower));
  }

  #textContext(): TextContext | undefined {
    if (this.#context === undefined) {
      const engine = this.morphology.engine(this.language);
      this.#context = engine.ok ? (loadTextContext(engine.value.cartridge.dir) ?? null) : null;
      this.#plurals = new Map((engine.ok ? (engine.value.cartridge.nouns?.classes ?? []) : []).flatMap((c) => (c.plural ? [[c.id, c.plural] as [string, string]] : [])));
    }
    return this.#context ?? undefined;
  }

  #capitals?: Set<string>;
  #stemCapitals = new Set<string>();
  /**
   * Whether the lexicon writes `lemma` (of `wordClass`) with a capital: rows flagged `capital`, the nouns of
   * peoples and languages (Mwafrika 'African'). The engine works on the small letters; the reading's lemma gets the capital.
   */
  #capital(lemma: string, wordClass: string): boolean {
    if (!this.#capitals) {
      const engine = this.morphology.engine(this.language);
      const lexicon = engine.ok ? engine.value.cartridge.lexicon : [];
      this.#capitals = new Set(lexicon.filter((e) => e.flags.includes('capital')).map((e) => `${e.lemma}\t${e.word_class}`));
      // A word of a class made on noun stems (words.yaml `stems_from: [noun]`) written with a capital keeps the capital of
      // the noun it is made on: its lemma is that noun's stem, written with a capital as the noun is (`#capitalStem`).
      const nouns = engine.ok ? engine.value.generator.nouns : undefined;
      const derived = (engine.ok ? (engine.value.cartridge.words?.classes ?? []) : []).filter((c) => c.stems_from?.includes('noun')).map((c) => c.id);
      for (const entry of lexicon) {
        if (entry.word_class !== 'noun' || !entry.flags.includes('capital') || !nouns || derived.length === 0) continue;
        const cls = nouns.classify(entry.lemma, entry.noun_class);
        const stem = cls ? nouns.split(entry.lemma, cls) : undefined;
        if (stem) for (const id of derived) this.#stemCapitals.add(`${stem}\t${id}`);
      }
    }
    return this.#capitals.has(`${lemma}\t${wordClass}`);
  }

  /** Whether `form`, written with a capital, is a word made on the stem `lemma` of a noun the lexicon writes with a capital. */
  #capitalStem(form: string, lemma: string, wordClass: string): boolean {
    this.#capital(lemma, wordClass);
    return /^\p{Lu}/u.test(form) && this.#stemCapitals.has(`${lemma}\t${wordClass}`);
  }

  /** The tag of a word class in the cartridge's tag set (`{class}`: the class, two digits), else the engine's own. */
  #tag(wordClass: string, nounClass: string | undefined, fallback?: string): string {
    const template = this.#textContext()?.tags[wordClass];
    if (template === undefined) return fallback ?? wordClass.toUpperCase();
    const tags = this.#textContext()?.classes ?? {};
    return template.replace('{class}', nounClass !== undefined && tags[nounClass] !== undefined ? tags[nounClass]! : classTag(nounClass));
  }

  /** The class a reading's own form has or agrees with. */
  #agrees(view: AnalysisView): string | undefined {
    const f = view.features;
    if (f.word_class === 'noun') {
      if (f.form !== 'full' && f.form !== undefined) return undefined;
      this.#textContext();
      return f.number === 'pl' ? (this.#plurals?.get(f.noun_class ?? '') ?? f.noun_class) : f.noun_class;
    }
    const m = /^c(\d+[a-z]*)$/u.exec(f.subject ?? '');
    return m ? m[1] : undefined;
  }

  /**
   * A word no lexicon knows that is a known noun of a host class with a contracted possessive after it
   * (context.yaml `contractions`: mamake 'his mother' = mama + -ke, mwenzangu = mwenz(i) + -angu): the
   * noun's reading, with the possessive as its last morpheme, first.
   */
  #contracted(form: string, readings: TokenAnalysis[]): TokenAnalysis[] {
    const spec = this.#textContext()?.contractions;
    if (!spec) return readings;
    const lower = form.toLowerCase();
    for (const suffix of spec.suffixes) {
      if (!lower.endsWith(suffix.form) || lower.length <= suffix.form.length + 1) continue;
      const rest = lower.slice(0, -suffix.form.length);
      const hosts = suffix.replaces_final_vowel ? ['a', 'i', 'e', 'o', 'u'].map((v) => rest + v) : [rest];
      for (const host of hosts) {
        const noun = this.readings(host).find((r) => r.word_class === 'noun' && !r.guess && (this.#facts.get(r)?.agrees ?? []).some((c) => spec.hosts.includes(c.replace(/^c/u, ''))));
        if (!noun) continue;
        const tagged = this.#textContext()?.morpheme_tags?.slots.possessive?.stem ?? spec.tag;
        const own = noun.morphemes.map((m, k) => (k === noun.morphemes.length - 1 && suffix.replaces_final_vowel ? { ...m, surface: m.surface.slice(0, -1) } : m));
        return [this.#ruleReading(noun, { morphemes: [...own, { surface: suffix.form, canonical: suffix.stem, tag: tagged }], probability: 0.9 }), ...readings.map((r) => this.#copy(r, r.probability * 0.1))];
      }
    }
    return readings;
  }

  /** Whether a verb reading is the bare stem of a known verb with an extension (hamia = hama + the applicative, the base of mhamiaji). */
  #derivedStem(reading: TokenAnalysis): boolean {
    const facts = this.#facts.get(reading);
    return reading.word_class === 'verb' && facts?.mood === 'imperative' && facts.extensions.length > 0;
  }

  /**
   * A word no lexicon knows that is a verb of the cartridge's `enclitics.lemmas` with an enclitic after its final
   * vowel (context.yaml `enclitics`: kuwepo = ku-w-e + -po, ikiwemo = i-ki-w-e + -mo), or a copula of
   * `enclitics.copulas` with the enclitic after its written form (lililopo = lililo + -po): the verb's or copula's
   * readings, the enclitic their last morpheme, first.
   */
  #enclitic(form: string, readings: TokenAnalysis[]): TokenAnalysis[] {
    const spec = this.#textContext()?.enclitics;
    if (!spec) return readings;
    const lower = form.toLowerCase();
    for (const enclitic of spec.forms) {
      if (spec.copulas.length > 0 && lower.endsWith(enclitic) && lower.length > enclitic.length + 2) {
        const copulas = this.readings(lower.slice(0, -enclitic.length)).filter((r) => r.word_class === 'copula' && !r.guess && spec.copulas.includes(r.lemma));
        if (copulas.length > 0) {
          const found = copulas.map((copula) => this.#ruleReading(copula, { morphemes: [...copula.morphemes, { surface: enclitic, canonical: enclitic, tag: spec.tag }] }));
          return this.#ruleFirst(found, readings);
        }
      }
      for (const vowel of spec.final_vowels) {
        if (!lower.endsWith(vowel + enclitic) || lower.length <= vowel.length + enclitic.length + 1) continue;
        const host = lower.slice(0, -(vowel.length + enclitic.length)) + spec.host_final;
        const verbs = this.readings(host).filter((r) => r.word_class === 'verb' && !r.guess && spec.lemmas.includes(r.lemma));
        if (verbs.length === 0) continue;
        const found = verbs.map((verb) => {
          const own = verb.morphemes.map((m, k) => (k === verb.morphemes.length - 1 ? { ...m, surface: m.surface.slice(0, -1) + vowel } : m));
          return this.#ruleReading(verb, { morphemes: [...own, { surface: enclitic, canonical: enclitic, tag: spec.tag }] });
        });
        return this.#ruleFirst(found, readings);
      }
    }
    return readings;
  }

  /**
   * A word no lexicon knows with one of context.yaml `infixes` after a tense marker (ime-sha-chukua): the readings of
   * the verb without it that have that tense marker there, the infix put back after it, first.
   */
  #infixed(form: string, readings: TokenAnalysis[]): TokenAnalysis[] {
    const lower = form.toLowerCase();
    for (const infix of this.#textContext()?.infixes ?? []) {
      for (const marker of infix.after) {
        const at = lower.indexOf(marker + infix.form, 1);
        if (at < 0) continue;
        const cut = at + marker.length;
        const verbs = this.readings(lower.slice(0, cut) + lower.slice(cut + infix.form.length)).filter((r) => r.word_class === 'verb' && !r.guess);
        const found: TokenAnalysis[] = [];
        for (const verb of verbs) {
          // the tense marker must be the morpheme that ends where the infix stood
          let end = 0;
          const k = verb.morphemes.findIndex((m) => (end += m.surface.length) === cut && m.surface.toLowerCase() === marker && (infix.marker_tags.length === 0 || infix.marker_tags.includes(m.tag)));
          if (k < 0) continue;
          const morphemes = [...verb.morphemes.slice(0, k + 1), { surface: form.slice(cut, cut + infix.form.length), canonical: infix.form, tag: infix.tag }, ...verb.morphemes.slice(k + 1)];
          found.push(this.#ruleReading(verb, { morphemes }));
        }
        if (found.length === 0) continue;
        return this.#ruleFirst(found, readings);
      }
    }
    return readings;
  }

  /**
   * A word no lexicon knows that repeats the end of a known word (context.yaml `reduplication`: vidogovidogo,
   * huhamahama, palepale): the known word's readings, the repeated part their last morpheme, first. The longest
   * repeated part is tried first.
   */
  #reduplicated(form: string, readings: TokenAnalysis[]): TokenAnalysis[] {
    const spec = this.#textContext()?.reduplication;
    if (!spec || !/^\p{L}+$/u.test(form)) return readings;
    const lower = form.toLowerCase();
    for (let size = Math.floor(lower.length / 2); size >= spec.min_repeat; size--) {
      const repeat = lower.slice(-size);
      const base = lower.slice(0, -size);
      if (!base.endsWith(repeat)) continue;
      // (a verb repeats its stem after its prefixes, huhama-hama; a bare stem said twice is a word of its own)
      const known = this.readings(base).filter((r) => !r.guess && spec.word_classes.includes(r.word_class) && (r.word_class !== 'verb' || base.length > size));
      if (known.length === 0) continue;
      const found = known.map((r) =>
        this.#ruleReading(r, { lemma: spec.whole_lemma.includes(r.word_class) ? lower : r.lemma, morphemes: [...r.morphemes, { surface: form.slice(-size), canonical: repeat, tag: spec.tag }] }),
      );
      return this.#ruleFirst(found, readings);
    }
    return readings;
  }

  /**
   * A word no lexicon knows that is a noun made from a known verb or noun (context.yaml `derived_nouns`:
   * the agent mchoraji 'draughtsman' = m- + chor(a) + -aji, its plural wachoraji, the act uchimbaji
   * 'mining' = u- + chimb(a) + -aji; wanaharakati 'activists' = w- + ana + harakati): the noun's reading,
   * its citation form the singular's, first. A language made from a people's noun (`base_class`: Kifaransa of
   * Mfaransa) comes first even when the word has known readings (the manner adverb ki- + the people's stem,
   * 'in the French way', is the rarer reading); the other patterns only for a word no lexicon knows.
   */
  #derived(form: string, readings: TokenAnalysis[], known: boolean): TokenAnalysis[] {
    const spec = this.#textContext()?.derived_nouns;
    const engine = this.morphology.engine(this.language);
    if (!spec || !engine.ok) return readings;
    const classes = engine.value.cartridge.nouns?.classes ?? [];
    const fits = (stem: string, p: { stem?: string | undefined }) => p.stem === undefined || new RegExp(p.stem, 'u').test(stem);
    const lower = form.toLowerCase();
    for (const pattern of spec.patterns) {
      if (known && pattern.base_class === undefined) continue;
      if (!lower.endsWith(pattern.suffix)) continue;
      const rest = lower.slice(0, lower.length - pattern.suffix.length);
      for (const id of pattern.classes) {
        const cls = classes.find((c) => c.id === id);
        for (const prefix of cls?.prefixes ?? []) {
          if (prefix.full === '' || !rest.startsWith(prefix.full)) continue;
          const root = rest.slice(prefix.full.length);
          if (!root.startsWith(pattern.before) || !fits(root, prefix)) continue;
          const base = root.slice(pattern.before.length) + pattern.replaces;
          if (base.length < 2) continue;
          let capital = false;
          if (pattern.base_class !== undefined) {
            const own = classes.find((c) => c.id === pattern.base_class)?.prefixes ?? [];
            const people = own.filter((q) => fits(base, q)).map((q) => q.full + base);
            if (!people.some((word) => this.readings(word).some((r) => r.word_class === pattern.from && !r.guess && r.lemma.toLowerCase() === word && this.#capital(word, r.word_class)))) continue;
            capital = true;
          } else if (!this.readings(base).some((r) => r.word_class === pattern.from && !r.guess && (r.lemma === base || this.#derivedStem(r)))) continue;
          const stem = root + pattern.suffix;
          const singular = classes.find((c) => c.plural === id) ?? cls!;
          const citation = singular.prefixes.find((q) => fits(stem, q)) ?? singular.prefixes[0]!;
          const tags = this.#textContext()?.morpheme_tags?.slots.noun ?? {};
          // a word of a singular class is its own citation form, as written (Kiafrika, Kiingereza: the prefix before a
          // vowel the word keeps, where the class's citation prefix would be ch-)
          const lemma = singular === cls ? prefix.full + stem : citation.lemma + stem;
          const reading: TokenAnalysis = {
            lemma: capital ? capitalised(lemma) : lemma,
            pos: this.#tag('noun', id),
            word_class: 'noun',
            morphemes: [
              { surface: form.slice(0, prefix.full.length), canonical: prefix.full, tag: (tags.prefix ?? 'prefix').replace('{id}', id) },
              { surface: form.slice(prefix.full.length), canonical: stem, tag: tags.stem ?? 'stem' },
            ],
            probability: 0.9,
            guess: false,
            source: 'rule',
            gloss: null,
            stem_source: 'cartridge',
          };
          this.#facts.set(reading, { agrees: [id], extensions: [] });
          return [reading, ...readings.map((r) => this.#copy(r, r.probability * 0.1))];
        }
      }
    }
    return readings;
  }

  /** The reading of context.yaml `derived_after` first when it holds (a word no lexicon knows, or its prefix hyphened: see the schema; never a word of a foreign shape, `Kiwix`, which the rules for names read). */
  #derivedAfter(token: string, readings: TokenAnalysis[], spec: NonNullable<TextContext['derived_after']>, previous: TokenAnalysis | undefined): TokenAnalysis[] {
    const hyphened = [...HYPHENS].some((h) => token.toLowerCase().startsWith(spec.prefix + h));
    if (!hyphened && (!previous || !spec.after.includes(previous.lemma))) return readings;
    if (!token.toLowerCase().startsWith(spec.prefix)) return readings;
    const cut = spec.prefix.length + (hyphened ? 1 : 0);
    const stem = token.slice(cut);
    if (stem.length < spec.min_stem || !/^\p{L}+$/u.test(stem)) return readings;
    const tags = this.#textContext()?.morpheme_tags?.slots[spec.word_class] ?? {};
    // A capitalised word is made on a name (Kibelgiji 'Belgian' on the stem of Ubelgiji 'Belgium'): its stem keeps the capital,
    // as a name written after the prefix's hyphen does (ki-Hindi).
    // (a stem the lexicon knows written small stays small, even inside a capitalised name)
    const small = stem.toLowerCase();
    const knownSmall = this.readings(small).some((r) => !r.guess && r.lemma === small);
    const capital = (/^\p{Lu}/u.test(token) || /^\p{Lu}/u.test(stem)) && !knownSmall;
    const reading: TokenAnalysis = {
      lemma: capital ? capitalised(stem) : stem,
      pos: this.#tag(spec.word_class, undefined),
      word_class: spec.word_class,
      morphemes: [
        { surface: token.slice(0, cut), canonical: spec.prefix, tag: tags.prefix ?? 'prefix' },
        { surface: stem, canonical: stem.toLowerCase(), tag: tags.stem ?? 'stem' },
      ],
      probability: 0.9,
      guess: true,
      source: 'guess',
      gloss: null,
      stem_source: null,
    };
    return this.#guessFirst(reading, readings);
  }

  /**
   * Runs the engine's analyses of the forms not remembered yet in slices that yield to the event
   * loop (MorphologyService.analyzeInSlices) and remembers their readings, so that `analyzeTokens`
   * on them then holds the loop only for the ranking: a long or pathological word costs tens of ms.
   */
  async prepareTokens(tokens: readonly string[]): Promise<void> {
    for (const form of tokens) {
      if (this.#cache.has(form)) continue;
      const result = await this.morphology.analyzeInSlices(form, this.language);
      const lower = form.toLowerCase();
      const small = lower !== form ? await this.morphology.analyzeInSlices(lower, this.language) : undefined;
      if (!this.#cache.has(form)) this.#remember(form, this.#readingsOf(form, result, small));
    }
  }

  /** Every reading of one form, most probable first. */
  readings(form: string): TokenAnalysis[] {
    const cached = this.#cache.get(form);
    if (cached) return cached;
    const lower = form.toLowerCase();
    const readings = this.#readingsOf(form, this.morphology.analyze(form, this.language), lower !== form ? this.morphology.analyze(lower, this.language) : undefined);
    this.#remember(form, readings);
    return readings;
  }

  #remember(form: string, readings: TokenAnalysis[]): void {
    if (this.#cache.size >= this.cacheSize) this.#cache.delete(this.#cache.keys().next().value!);
    this.#cache.set(form, readings);
  }

  /** The readings of `form` from the engine's analyses of it and, for a capitalised form, of it written small. */
  #readingsOf(form: string, result: Result<AnalysisView[]>, small: Result<AnalysisView[]> | undefined): TokenAnalysis[] {
    const views = result.ok ? [...result.value] : [];
    // A capitalised word (a sentence's first, a title) is also read as the word written small:
    // the engine reads the exact form first and would otherwise only guess a name-like noun.
    if (small?.ok) views.push(...small.value);
    const probabilities = probabilitiesOf(views.map((v) => v.score));
    const tagged = views.map((v, i) => {
      const reading = readingOf(v, probabilities[i]!);
      if (v.in_lexicon && (this.#capital(reading.lemma, reading.word_class) || this.#capitalStem(form, reading.lemma, reading.word_class))) reading.lemma = capitalised(reading.lemma);
      const agrees = this.#agrees(v);
      if (this.#textContext()) reading.pos = this.#tag(reading.word_class, reading.word_class === 'noun' ? agrees : undefined, reading.pos);
      const tags = this.#textContext()?.morpheme_tags;
      if (tags) reading.morphemes = morphemeTags(reading, agrees, tags);
      const verbal = v.features.word_class !== 'verb' ? undefined : v.features.mood === 'infinitive' ? 'infinitive' : v.words.some((w) => w.slots.tam?.form || w.slots.relative?.form) ? 'finite' : undefined;
      this.#facts.set(reading, {
        agrees: agrees !== undefined ? [agrees] : [],
        extensions: v.words.flatMap((w) => (w.slots.extensions?.id ?? '').split(/[^a-z_]+/u).filter(Boolean)),
        ...(verbal ? { verbal } : {}),
        ...(v.features.word_class === 'verb' && v.features.mood ? { mood: v.features.mood } : {}),
      });
      return reading;
    });
    let readings = merge(tagged, this.#facts);
    if (!readings.some((r) => !r.guess)) readings = this.#contracted(form, readings);
    if (!readings.some((r) => !r.guess)) readings = this.#enclitic(form, readings);
    if (!readings.some((r) => !r.guess)) readings = this.#reduplicated(form, readings);
    if (!readings.some((r) => !r.guess)) readings = this.#infixed(form, readings);
    readings = this.#derived(
      form,
      readings,
      readings.some((r) => !r.guess),
    );
    return readings;
  }
}

/**
 * A reading's morphemes with the tags of the cartridge's annotated text (context.yaml `morpheme_tags`):
 * a word of one morpheme takes the `whole` tag of its word class, else its part-of-speech tag; each
 * morpheme of a longer word the tag `slots[word class]` gives for its engine tag (`tam:perfect`), else
 * for its slot (`subject`, `{id}` standing for the slot's class: `subject:c2` -> `SC{id}` -> `SC2`);
 * joined extensions (`extensions:applicative+passive`) each part's tag, joined with `+`. A morpheme
 * the table does not name keeps the engine's tag.
 */
function morphemeTags(reading: TokenAnalysis, agrees: string | undefined, tags: NonNullable<TextContext['morpheme_tags']>): Morpheme[] {
  const fill = (template: string, id: string) => template.replace('{id}', id.replace(/^c(?=\d)/u, '')).replace('{class}', agrees ?? '');
  if (reading.morphemes.length === 1) {
    const whole = tags.whole[reading.word_class];
    return [{ ...reading.morphemes[0]!, tag: whole !== undefined ? fill(whole, '') : reading.pos }];
  }
  const table = tags.slots[reading.word_class] ?? {};
  const one = (tag: string): string | undefined => {
    if (table[tag] !== undefined) return fill(table[tag], '');
    const colon = tag.indexOf(':');
    const slot = colon < 0 ? tag : tag.slice(0, colon);
    const id = colon < 0 ? '' : tag.slice(colon + 1);
    if (id.includes('+')) {
      const parts = id.split('+').map((p) => one(`${slot}:${p}`));
      return parts.every((p) => p !== undefined) ? parts.join('+') : undefined;
    }
    return table[slot] !== undefined ? fill(table[slot], id) : undefined;
  };
  return reading.morphemes.map((m) => ({ ...m, tag: one(m.tag) ?? m.tag }));
}

/**
 * Readings that a caller cannot tell apart (same lemma, part of speech and morphemes: the engine
 * found them through different cells, such as two object readings without an object marker) as
 * one, their probabilities summed; most probable first.
 */
function merge(readings: TokenAnalysis[], facts?: WeakMap<TokenAnalysis, ReadingFacts>): TokenAnalysis[] {
  const byKey = new Map<string, TokenAnalysis>();
  for (const r of readings) {
    const key = [r.lemma, r.pos, r.guess, ...r.morphemes.map((m) => `${m.surface}|${m.canonical}|${m.tag}`)].join('\u0001');
    const seen = byKey.get(key);
    if (seen) seen.probability += r.probability;
    else {
      const copy = { ...r };
      const known = facts?.get(r);
      if (known) facts!.set(copy, { ...known, agrees: [...known.agrees] });
      byKey.set(key, copy);
      continue;
    }
    // The same reading found through another cell (hiyo of class 4 and of class 9) agrees with both.
    const into = facts?.get(seen);
    for (const c of facts?.get(r)?.agrees ?? []) if (into && !into.agrees.includes(c)) into.agrees.push(c);
  }
  return [...byKey.values()].sort((a, b) => b.probability - a.probability);
}

/** Opening quotation marks (a straight double quote opens when no word comes right before it). */
const OPENING_QUOTE = /^[\u201c\u201e\u00ab\u2018]+$/u;

/**
 * Whether token i starts a sentence: nothing but punctuation since the text's start or the last
 * terminal mark, or right after an opening quote (quoted speech starts with a capital).
 */
function sentenceStart(tokens: readonly string[], i: number): boolean {
  const before = tokens[i - 1];
  if (before !== undefined && (OPENING_QUOTE.test(before) || (before === '"' && !/[\p{L}\p{Nd}]/u.test(tokens[i - 2] ?? '')))) return true;
  for (let k = i - 1; k >= 0; k--) {
    const t = tokens[k]!;
    if (/[\p{L}\p{Nd}]/u.test(t)) return false;
    if (TERMINAL.test(t)) return true;
  }
  return true;
}

/** `word` with its first letter written as a capital. */
function capitalised(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** The shortest word a title-case sentence must write with a capital: shorter ones (na, ya, wa, la, kwa, lako) may stay small. */
const TITLE_WORD = 5;

/**
 * Which tokens lie in a title-case sentence, a headline such as `Wanaharakati Waomba Ulinzi kwa Makabila
 * Yanayopinga Uchimbaji Madini`: every word of TITLE_WORD letters or more starts with a capital, and at
 * least three words do. Running text writes its verbs and most nouns small, so a sentence of names has a
 * small word among its long ones (`Kim Jong Il, dikteta wa Korea Kaskazini amefariki`).
 */
function titleCase(tokens: readonly string[], capital: readonly boolean[]): boolean[] {
  const out = tokens.map(() => false);
  let from = 0;
  const close = (to: number) => {
    const words = [];
    for (let k = from; k < to; k++) if (/\p{L}/u.test(tokens[k]!)) words.push(k);
    const long = words.filter((k) => (tokens[k]!.match(/\p{L}/gu) ?? []).length >= TITLE_WORD);
    if (long.length > 0 && long.every((k) => capital[k]) && words.filter((k) => capital[k]).length >= 3) for (const k of words) out[k] = true;
    from = to + 1;
  };
  tokens.forEach((t, i) => {
    if (TERMINAL.test(t)) close(i);
  });
  close(tokens.length);
  return out;
}

/** The first reading chosen for the word before token i (punctuation between them breaks the link), if any. */
function previousWord(tokens: readonly string[], chosen: ReadonlyArray<TokenAnalysis | undefined>, i: number): TokenAnalysis | undefined {
  const k = i - 1;
  return k >= 0 && /[\p{L}\p{Nd}]/u.test(tokens[k]!) ? chosen[k] : undefined;
}

/** Whether token i follows the -a of association after a noun that names a place by a name (`not_after_heads`: Mkoa wa Kilimanjaro). */
function namesAPlace(tokens: readonly string[], chosen: ReadonlyArray<TokenAnalysis | undefined>, i: number, rule: { after: readonly string[]; not_after_heads: readonly string[] }): boolean {
  const before = wordsBefore(tokens, chosen, i);
  return before.length >= 2 && before[0] !== undefined && rule.after.includes(before[0].lemma) && before[1]?.word_class === 'noun' && rule.not_after_heads.includes(before[1].lemma);
}

/** The first readings chosen for the words before token i, nearest first, back to punctuation or the start. */
function wordsBefore(tokens: readonly string[], chosen: ReadonlyArray<TokenAnalysis | undefined>, i: number): Array<TokenAnalysis | undefined> {
  const out: Array<TokenAnalysis | undefined> = [];
  for (let k = i - 1; k >= 0 && /[\p{L}\p{Nd}]/u.test(tokens[k]!); k--) out.push(chosen[k]);
  return out;
}

/**
 * The lemmas of the first readings of up to `within` words on either side of token i in its sentence: punctuation inside
 * the sentence is passed over, terminal punctuation ends the search (the words before as chosen, those after as read first).
 */
function nearLemmas(tokens: readonly string[], chosen: ReadonlyArray<TokenAnalysis | undefined>, all: readonly TokenAnalysis[][], i: number, within: number): string[] {
  const out: string[] = [];
  for (let k = i - 1, n = 0; k >= 0 && n < within && !TERMINAL.test(tokens[k]!); k--) {
    if (!/[\p{L}\p{Nd}]/u.test(tokens[k]!)) continue;
    n++;
    const lemma = chosen[k]?.lemma;
    if (lemma !== undefined) out.push(lemma);
  }
  for (let k = i + 1, n = 0; k < tokens.length && n < within && !TERMINAL.test(tokens[k]!); k++) {
    if (!/[\p{L}\p{Nd}]/u.test(tokens[k]!)) continue;
    n++;
    const lemma = all[k]?.[0]?.lemma;
    if (lemma !== undefined) out.push(lemma);
  }
  return out;
}

/** The index of the word right after token i, or -1 when punctuation or the end comes first. */
function nextWord(tokens: readonly string[], i: number): number {
  const k = i + 1;
  return k < tokens.length && /[\p{L}\p{Nd}]/u.test(tokens[k]!) ? k : -1;
}
