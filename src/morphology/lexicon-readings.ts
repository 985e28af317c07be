/**
 * What the analyzer reads from the lexicon rather than from frames (src/morphology/analyzer.ts):
 * the lexical index of every form of the non-verb entries, the invariable words, nouns read as
 * their own citation form, and the lexicon's classes and stems that decide whether a reading is known.
 */
import type { LexiconEntry } from '../cartridge/cartridge.js';
import { INVARIABLE, score, type Analysis } from './analysis-ranking.js';
import { runSteps } from '../steps.js';
import type { Cell, Generated, Generator, Lexeme } from './generator.js';
import type { NounClass } from './nouns.js';

/** Work one lexicon entry a step (src/steps.ts); `Generator` here is the morphology generator. */
type Steps<T> = globalThis.Generator<void, T>;

/** Text without the cartridge's optional marks (vowel length): what input written without them matches. */
export function plainSpelling(generator: Generator): (text: string) => string {
  const marks = Object.entries(generator.cartridge.metadata.orthography.optional_marks);
  return (text) => (marks.length === 0 ? text : marks.reduce((t, [marked, plain]) => t.replaceAll(marked, plain), text));
}

/**
 * A generated form as the standard orthography writes it: without the optional marks when the
 * cartridge says the spelling leaves them out (metadata.orthography.written: false), else unchanged.
 */
export function writtenSpelling(generator: Generator): (text: string) => string {
  return generator.cartridge.metadata.orthography.written === false ? plainSpelling(generator) : (text) => text;
}

export class LexiconReadings {
  constructor(private readonly generator: Generator) {}

  get plain(): (text: string) => string {
    return plainSpelling(this.generator);
  }

  /** A lexeme of a derived class (words.yaml `stems_from`) whose stem the lexicon has in a source class is known. */
  knownAsStem(lexeme: Lexeme, wordClass: string): Lexeme {
    if (lexeme.inLexicon) return lexeme;
    const from = this.generator.cartridge.words?.classes.find((c) => c.id === wordClass)?.stems_from ?? [];
    const source = from.map((c) => this.generator.lexeme(lexeme.lemma, c)).find((l) => l.inLexicon);
    if (source) return { ...lexeme, inLexicon: true, gloss: source.gloss };
    // ... or as the stem of a noun of the lexicon (kienyeji 'in the local way' from mw-enyeji 'local person'),
    // or a noun's plural (kimataifa 'internationally' from ma-taifa 'nations').
    const known = (this.#nounStems().has(lexeme.lemma) || this.#nounPlurals().has(lexeme.lemma)) && !this.#lemmas().has(lexeme.lemma);
    return from.includes('noun') && known ? { ...lexeme, inLexicon: true } : lexeme;
  }

  #plurals?: Map<string, string>;
  /** The plural citation forms of the lexicon's nouns that differ from their singular (taifa: mataifa), by lemma. */
  #nounPluralOf(): Map<string, string> {
    return (this.#plurals ??= runSteps(this.#pluralSteps()));
  }

  *#pluralSteps(): Steps<Map<string, string>> {
    const plurals = new Map<string, string>();
    const nouns = this.generator.nouns;
    for (const entry of this.generator.cartridge.lexicon) {
      if (entry.word_class !== 'noun' || !nouns) continue;
      yield;
      const cls = nouns.classify(entry.lemma, entry.noun_class);
      if (!cls?.plural) continue;
      const cell: Cell = { word_class: 'noun', polarity: 'positive', noun_class: cls.id, number: 'pl', form: 'full' };
      try {
        const plural = this.generator.generate(entry.lemma, cell).surface;
        if (plural !== entry.lemma) plurals.set(entry.lemma, plural);
      } catch {
        continue;
      }
    }
    return plurals;
  }

  #pluralSet?: Set<string>;
  #nounPlurals(): Set<string> {
    this.#pluralSet ??= new Set(this.#nounPluralOf().values());
    return this.#pluralSet;
  }

  #citations?: Map<string, Analysis[]>;
  /**
   * A lexicon noun read as its own citation form where the class's prefix rule writes the singular
   * otherwise (kiatu, kiongozi: ki- before a vowel, where chakula, chombo have ch-): the lexicon is
   * the authority on the words it lists. Only nouns whose singular the generator does not spell.
   */
  citationReadings(word: string): Analysis[] {
    this.#citations ??= runSteps(this.#citationSteps());
    return this.#citations.get(word) ?? [];
  }

  *#citationSteps(): Steps<Map<string, Analysis[]>> {
    const citations = new Map<string, Analysis[]>();
    const nouns = this.generator.nouns;
    for (const entry of nouns ? this.generator.cartridge.lexicon : []) {
      if (entry.word_class !== 'noun') continue;
      yield;
      const cls = nouns!.classify(entry.lemma, entry.noun_class);
      // (the prefix as the citation writes it, its stem condition aside: mu-da, ch-ungu)
      const split = cls
        ? (nouns!.splitWith(entry.lemma, cls) ??
          nouns!.splitWith(
            entry.lemma,
            cls,
            cls.prefixes.map(({ stem: _, ...p }) => p),
          ))
        : undefined;
      if (!cls || !split) continue;
      const add = (reading: Analysis): void => {
        const key = this.plain((reading.generated?.surface ?? reading.lemma).normalize('NFC'));
        citations.set(key, [...(citations.get(key) ?? []), reading]);
      };
      const pluralReading = this.#ownPluralReading(entry, cls);
      if (pluralReading) add(pluralReading);
      const cell: Cell = { word_class: 'noun', polarity: 'positive', noun_class: cls.id, number: 'sg', form: 'full' };
      let surface: string | undefined;
      try {
        surface = this.generator.generate(entry.lemma, cell).surface;
      } catch {
        surface = undefined;
      }
      if (surface === entry.lemma) continue;
      add(this.#writtenNoun(entry, entry.lemma, cls, split));
    }
    return citations;
  }

  /**
   * The plural the lexicon gives to a noun of a class that has no plural class (an abstract in u-
   * whose plural is in ma-: uamuzi, maamuzi): the plural column is the authority, read with the
   * concords of the class its prefix shows, as a noun cited in that class is.
   */
  #ownPluralReading(entry: LexiconEntry, cls: NounClass): Analysis | undefined {
    const nouns = this.generator.nouns;
    if (!nouns || cls.plural !== undefined || !entry.plural || entry.plural === '-') return undefined;
    const pluralClass = nouns.classify(entry.plural);
    const split = pluralClass ? nouns.splitWith(entry.plural, pluralClass) : undefined;
    if (!pluralClass || !split || pluralClass.id === cls.id) return undefined;
    return this.#writtenNoun(entry, entry.plural, pluralClass, split);
  }

  /** The noun `entry` read as `written` (its citation, or the plural its row gives): the prefix of `cls`, then the stem. */
  #writtenNoun(entry: LexiconEntry, written: string, cls: NounClass, split: { stem: string; prefix: { full: string } }): Analysis {
    const cell: Cell = { word_class: 'noun', polarity: 'positive', noun_class: cls.id, number: 'sg', form: 'full' };
    const generated: Generated = {
      surface: written,
      words: [
        {
          surface: written,
          morphs: [
            { slot: 'prefix', form: split.prefix.full, id: cls.id },
            { slot: 'stem', form: split.stem },
          ],
          rules: [],
          polarity: 'positive',
        },
      ],
    };
    const lexeme = this.generator.lexeme(entry.lemma, 'noun');
    return { lemma: entry.lemma, root: lexeme.root, in_lexicon: true, gloss: lexeme.gloss, cell, generated, score: score(lexeme, cell, generated, written, false) };
  }

  #allLemmas?: Set<string>;
  /** Every lemma of the lexicon, of any class. */
  #lemmas(): Set<string> {
    this.#allLemmas ??= new Set(this.generator.cartridge.lexicon.map((e) => e.lemma));
    return this.#allLemmas;
  }

  #stems?: Set<string>;
  /** The stems of the lexicon's nouns: the citation form without its class prefix (mwenyeji: enyeji). */
  #nounStems(): Set<string> {
    return (this.#stems ??= runSteps(this.#stemSteps()));
  }

  *#stemSteps(): Steps<Set<string>> {
    const stems = new Set<string>();
    const nouns = this.generator.nouns;
    for (const entry of this.generator.cartridge.lexicon) {
      if (entry.word_class !== 'noun' || !nouns) continue;
      yield;
      const cls = nouns.classify(entry.lemma, entry.noun_class);
      const stem = cls ? nouns.split(entry.lemma, cls) : undefined;
      if (stem && stem !== entry.lemma) stems.add(stem);
    }
    return stems;
  }

  #shape?: RegExp;
  /** The shape a guessed noun must have (nouns.yaml guess_shape), else anything. */
  nounShape(): RegExp {
    this.#shape ??= new RegExp(this.generator.nouns?.grammar.guess_shape ?? '', 'u');
    return this.#shape;
  }

  #nounClasses?: Map<string, Set<string>>;
  /** The classes the lexicon gives a noun lemma. */
  nounClassesOf(lemma: string): Set<string> {
    this.#nounClasses ??= runSteps(this.#nounClassSteps());
    return this.#nounClasses.get(lemma) ?? new Set();
  }

  *#nounClassSteps(): Steps<Map<string, Set<string>>> {
    const classes = new Map<string, Set<string>>();
    for (const entry of this.generator.cartridge.lexicon) {
      if (entry.word_class !== 'noun') continue;
      yield;
      const id = this.generator.nouns?.classify(entry.lemma, entry.noun_class)?.id;
      if (id !== undefined) classes.set(entry.lemma, new Set([...(classes.get(entry.lemma) ?? []), id]));
    }
    return classes;
  }

  #closed?: Set<string>;
  /** Word classes the analyzer reads from the lexicon only: words.yaml classes marked closed and the invariable classes. */
  closedClasses(): Set<string> {
    this.#closed ??= new Set((this.generator.cartridge.words?.classes ?? []).filter((c) => c.closed).map((c) => c.id));
    return this.#closed;
  }

  #invariables?: Map<string, Array<{ entry: LexiconEntry; rank: number }>>;
  /**
   * Lexicon words of a class that nothing inflects (conjunctions, prepositions, demonstratives,
   * copulas, adverbs: any word_class that is not verb, noun or a words.yaml class) and rows that give
   * a `form` (a class 9 numeral mbili of the agreeing numeral wili), by their written form, each with
   * its row number (an earlier row of the same form ranks first).
   */
  invariableReadings(word: string): Analysis[] {
    this.#invariables ??= runSteps(this.#invariableSteps());
    return (this.#invariables.get(word) ?? []).map(({ entry, rank }) => {
      // The row agrees with a noun class (`9`: row c9) or a person (`1sg`: sina 'I have not').
      const agreement = entry.noun_class === undefined ? undefined : [`c${entry.noun_class}`, entry.noun_class].find((id) => this.generator.row(id));
      const cell: Cell = { word_class: entry.word_class, polarity: 'positive', ...(agreement ? { subject: agreement } : {}) };
      const generated: Generated = { surface: word, words: [{ surface: word, morphs: [{ slot: 'stem', form: word }], rules: [], polarity: 'positive' }] };
      // A closed-class word is read as the lexicon lists it; rows of the same form keep their order.
      return { lemma: entry.lemma, root: entry.lemma, in_lexicon: true, gloss: entry.gloss || null, cell, generated, score: INVARIABLE - rank * 1e-5 };
    });
  }

  *#invariableSteps(): Steps<Map<string, Array<{ entry: LexiconEntry; rank: number }>>> {
    const inflected = new Set(['verb', 'noun', ...(this.generator.cartridge.words?.classes ?? []).map((c) => c.id)]);
    const index = new Map<string, Array<{ entry: LexiconEntry; rank: number }>>();
    const lexicon = this.generator.cartridge.lexicon;
    for (let rank = 0; rank < lexicon.length; rank++) {
      const entry = lexicon[rank]!;
      if (inflected.has(entry.word_class) && entry.form === undefined) continue;
      if (rank % 64 === 0) yield;
      const form = this.plain((entry.form ?? entry.lemma).normalize('NFC'));
      index.set(form, [...(index.get(form) ?? []), { entry, rank }]);
    }
    return index;
  }

  /**
   * Every index above, one lexicon entry a step, for a warm-up in slices: the first analysis after
   * it builds none of them. An index a request built meanwhile is kept.
   */
  *indexSteps(): Steps<void> {
    if (!this.#allLemmas) {
      yield;
      this.#lemmas();
    }
    if (!this.#stems) this.#stems ??= yield* this.#stemSteps();
    if (!this.#plurals) this.#plurals ??= yield* this.#pluralSteps();
    if (!this.#citations) this.#citations ??= yield* this.#citationSteps();
    if (!this.#nounClasses) this.#nounClasses ??= yield* this.#nounClassSteps();
    if (!this.#invariables) this.#invariables ??= yield* this.#invariableSteps();
  }

  /** The lexical index, one lexicon entry per step. */
  *lexicalSteps(cells: Cell[]): Iterator<void, Map<string, Array<{ lemma: string; cell: Cell }>>> {
    const index = new Map<string, Array<{ lemma: string; cell: Cell }>>();
    const plain = this.plain;
    const derived = new Map((this.generator.cartridge.words?.classes ?? []).map((c) => [c.id, c.stems_from ?? []]));
    for (const entry of this.generator.cartridge.lexicon) {
      if (entry.word_class === 'verb') continue;
      yield;
      // A class derived from nouns takes the noun's stem as well as its citation form (ki-enyeji from
      // mw-enyeji), unless the stem is a lexicon word of its own (zima: kizima is the adjective).
      const nounClass = entry.word_class === 'noun' ? this.generator.nouns?.classify(entry.lemma, entry.noun_class) : undefined;
      const split = nounClass ? this.generator.nouns?.split(entry.lemma, nounClass) : undefined;
      const stem = split !== undefined && !this.#lemmas().has(split) ? split : undefined;
      for (const cell of cells) {
        if (cell.word_class !== entry.word_class && !derived.get(cell.word_class)?.includes(entry.word_class)) continue;
        if (cell.word_class === 'noun' && cell.noun_class !== this.generator.nouns?.classify(entry.lemma, entry.noun_class)?.id) continue;
        // (and the noun's plural: ki-mataifa 'internationally' from ma-taifa 'nations')
        const plural = cell.word_class !== entry.word_class ? this.#nounPluralOf().get(entry.lemma) : undefined;
        const lemmas = cell.word_class !== entry.word_class && stem && stem !== entry.lemma ? [entry.lemma, stem] : [entry.lemma];
        if (plural && !this.#lemmas().has(plural)) lemmas.push(plural);
        for (const lemma of lemmas) {
          let surface: string;
          try {
            surface = this.generator.generate(lemma, cell).surface;
          } catch {
            continue;
          }
          // (a stem's derivative that spells a noun of the lexicon is that noun: kiongozi is not ki- + ongozi)
          if (lemma !== entry.lemma && this.#lemmas().has(surface)) continue;
          for (const key of new Set([surface, plain(surface)])) {
            const list = index.get(key) ?? [];
            list.push({ lemma, cell });
            index.set(key, list);
          }
        }
      }
    }
    // Suppletive verb forms (verbs.irregular: njoo, nenda, nina) cannot be found by frames: each is listed by its surface.
    for (const irregular of this.generator.cartridge.verbs?.irregular ?? []) {
      yield;
      for (const cell of cells) {
        if (cell.word_class !== 'verb' || cell.tense !== irregular.tense || cell.polarity !== irregular.polarity || cell.variant !== irregular.variant) continue;
        if (Boolean(cell.object) !== Boolean(irregular.template?.includes('{object}'))) continue;
        let generated: Generated;
        try {
          generated = this.generator.generate(irregular.lemma, cell);
        } catch {
          continue;
        }
        if (!generated.words.some((w) => w.morphs.some((m) => m.id === 'irregular'))) continue;
        for (const key of new Set([generated.surface, plain(generated.surface)])) {
          const list = index.get(key) ?? [];
          if (!list.some((e) => e.lemma === irregular.lemma && e.cell === cell)) list.push({ lemma: irregular.lemma, cell });
          index.set(key, list);
        }
      }
    }
    return index;
  }
}
