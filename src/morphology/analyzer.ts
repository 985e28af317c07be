/**
 * Analysis by frames: every cell of the paradigm is generated once with a
 * placeholder root, which gives the text before and after the root (the frame).
 * A surface form is matched against the frames, the text between them proposes
 * a root (from the lexicon or not), and each proposal is kept only when
 * generating that cell with that root gives back exactly the surface form.
 * Frames are built once per cartridge, on first use.
 */
import { formationUsesHead, type Cell, type Generated, type Generator, type Lexeme } from './generator.js';
import type { LexiconEntry, Rule } from '../cartridge/cartridge.js';
import { grammarNounForms } from './nouns.js';
import { PackedFrames, type Frame, type Shape } from './packed-frames.js';

const HOLE = '\u0001';
/** Letters by which a locative suffix may differ from the frame's (-eni, -ini, -weni, -wini). */
const SLACK = 3;

/** A lexical index entry as the cache stores it: [surface, lemma, cell, lemma, cell, ...] (cells by index). */
type LexicalRow = [string, ...Array<string | number>];

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

/** Every cell of the verb paradigm and of the other word classes. */
export function enumerateCells(generator: Generator): Cell[] {
  const cells: Cell[] = [];
  const verbs = generator.cartridge.verbs;
  const rows = generator.agreementIds;
  if (verbs) {
    for (const tense of verbs.tenses) {
      for (const polarity of ['positive', 'negative'] as const) {
        for (const variant of [undefined, ...Object.keys(tense.variants)]) {
          const formation = variant ? { ...tense[polarity], ...(tense.variants[variant]?.[polarity] ?? {}) } : tense[polarity];
          if (formation.absent || formation.not_modelled || (variant && !tense.variants[variant]?.[polarity])) continue;
          // A form without a subject concord but with plural marking (the imperative) addresses the 2nd person only.
          const addressees = rows.filter((r) => generator.row(r)?.person === 2);
          const persons = formation.persons;
          const subjects = (!formation.no_subject ? rows : formation.plural_suffix || formation.plural_prefix || formation.fv_plural ? addressees : [undefined]).filter(
            (r) => !persons || r === undefined || persons.includes(generator.row(r)?.person as 1 | 2 | 3),
          );
          for (const subject of subjects) {
            for (const object of [undefined, ...(verbs.reflexive ? ['refl'] : []), ...rows]) {
              cells.push({ word_class: 'verb', tense: tense.id, polarity, ...(subject ? { subject } : {}), ...(object ? { object } : {}), ...(variant ? { variant } : {}) });
            }
            // A relative of object or place agrees with a head other than the subject; its object marker,
            // if any, is the head's (kitabu nilichokisoma, mahali walipofika).
            if (!formationUsesHead(formation)) continue;
            for (const head of rows) {
              // A person's relative concord is its class's (mimi niliye-: -ye- of class 1), so heads are noun classes.
              if (head === subject || generator.row(head)?.class === undefined) continue;
              for (const object of [undefined, head]) {
                cells.push({ word_class: 'verb', tense: tense.id, polarity, ...(subject ? { subject } : {}), ...(object ? { object } : {}), head, ...(variant ? { variant } : {}) });
              }
            }
          }
        }
      }
    }
  }
  for (const wordClass of generator.cartridge.words?.classes ?? []) {
    for (const subject of rows) cells.push({ word_class: wordClass.id, polarity: 'positive', subject });
  }
  const nounClasses = generator.cartridge.nouns?.classes ?? [];
  for (const cls of nounClasses) {
    // A class that is another's plural can be a lemma's own number (amafutha).
    const isPlural = nounClasses.some((c) => c.plural === cls.id);
    for (const number of cls.plural || isPlural ? (['sg', 'pl'] as const) : (['sg'] as const)) {
      for (const form of grammarNounForms(generator.cartridge.nouns)) {
        const possessees = form === 'possessive' || form === 'relative_possessive' ? rows.filter((r) => r.startsWith('c')) : [undefined];
        for (const possessee of possessees) {
          cells.push({ word_class: 'noun', noun_class: cls.id, number, form, polarity: 'positive', ...(possessee ? { possessee } : {}) });
        }
      }
    }
  }
  return cells;
}

export class Analyzer {
  #frames?: PackedFrames;
  #lexemes = new Map<string, Lexeme>();

  constructor(private readonly generator: Generator) {}

  /** Builds the frames now rather than on the first analysis. */
  warm(): void {
    this.#index();
    this.#lexicalIndex();
  }

  /** Whether the frames and the lexical index are built (or loaded): an analysis will not wait on a build. */
  get ready(): boolean {
    return this.#frames !== undefined && this.#lexical !== undefined;
  }

  /**
   * The built frames and lexical index as one buffer for the cache on disk
   * (src/morphology/frame-cache.ts): the packed frames (src/morphology/packed-frames.ts) with the
   * lexical index in its header, cells as indices into the paradigm's cells (which the cartridge determines).
   */
  exportIndex(): Buffer {
    const cells = this.#cells();
    const cellIds = new Map(cells.map((c, i) => [c, i]));
    const cellId = (cell: Cell): number => {
      const id = cellIds.get(cell);
      if (id === undefined) throw new Error('a lexical entry names a cell outside the paradigm');
      return id;
    };
    const lexical: LexicalRow[] = [...this.#lexicalIndex()].map(([surface, entries]) => [surface, ...entries.flatMap((e) => [e.lemma, cellId(e.cell)])]);
    return this.#index().toBuffer(lexical);
  }

  /** Takes the buffer `exportIndex` gave for the same cartridge and engine; false (and nothing taken) when it does not fit. */
  importIndex(buffer: Buffer): boolean {
    const steps = this.#importSteps(buffer);
    let step = steps.next();
    while (!step.done) step = steps.next();
    return step.value;
  }

  /** `importIndex` in slices of about `sliceMs` that yield to the event loop between them. */
  async importIndexInBackground(buffer: Buffer, sliceMs = 20): Promise<boolean> {
    const steps = this.#importSteps(buffer);
    let step = steps.next();
    let sliceStart = performance.now();
    while (!step.done) {
      if (performance.now() - sliceStart >= sliceMs) {
        await new Promise((resolve) => setImmediate(resolve));
        sliceStart = performance.now();
      }
      step = steps.next();
    }
    return step.value;
  }

  /** The import: the packed frames at once (copying a few arrays), then the lexical index a thousand entries a step; nothing is taken until the last step. */
  *#importSteps(buffer: Buffer): Iterator<void, boolean> {
    const cells = this.#cells();
    const read = PackedFrames.fromBuffer(buffer, cells);
    if (!read || !Array.isArray(read.extra)) return false;
    yield;
    const lexical = new Map<string, Array<{ lemma: string; cell: Cell }>>();
    for (const [surface, ...pairs] of read.extra as LexicalRow[]) {
      const entries: Array<{ lemma: string; cell: Cell }> = [];
      for (let k = 0; k < pairs.length; k += 2) {
        const cell = cells[pairs[k + 1] as number];
        if (!cell) return false;
        entries.push({ lemma: pairs[k] as string, cell });
      }
      lexical.set(surface, entries);
      if (lexical.size % 1000 === 0) yield;
    }
    if (this.#frames && this.#lexical) return true;
    this.#frames = read.frames;
    this.#lexical = lexical;
    return true;
  }

  /** Every analysis of `surface`, most plausible first. */
  analyze(surface: string): Analysis[] {
    const given = surface.trim().normalize('NFC');
    if (!given) return [];
    const exact = this.#analyze(given);
    const lower = given.toLowerCase();
    // A capitalised word (the first of a sentence) is also read in lower case unless the lexicon knows it as written;
    // between two guesses alike, the one that keeps the capital (a name) comes first.
    // A guess that holds only once the capital is dropped is weaker still: a capital inside a sentence marks a name.
    const lowered = () => this.#analyze(lower).map((a) => (a.in_lexicon ? a : { ...a, score: a.score - 3 }));
    const found = lower === given || exact.some((a) => a.in_lexicon) ? exact : byScore([...exact.map((a) => ({ ...a, score: a.score + 0.001 })), ...lowered()]);
    const space = given.indexOf(' ');
    if (found.length > 0 || space < 0) return found;
    // A verb with a complement (ngihlala phansi): the first word inflects, the rest is part of the lemma.
    const rest = given.slice(space + 1);
    return this.analyze(given.slice(0, space))
      .filter((a) => a.cell.word_class === 'verb')
      .map((a) => ({ ...a, lemma: `${a.lemma} ${rest}`, generated: this.generator.generate(`${a.lemma} ${rest}`, a.cell) }));
  }

  #analyze(word: string): Analysis[] {
    const plain = this.#plain;
    // Input written without the optional marks (vowel length) matches forms that have them.
    const unmarked = plain(word) === word;
    const same = (generated: string) => generated === word || (unmarked && plain(generated) === word);
    const found = new Map<string, Analysis>();
    const tried = new Map<string, boolean>();
    /** Whether generating `cell` of `lemma` gives the word (recording the analysis when it does). */
    const consider = (lemma: string, cell: Cell): boolean => {
      const key = `${lemma}\t${JSON.stringify(cell)}`;
      const known = tried.get(key);
      if (known !== undefined) return known;
      tried.set(key, false);
      const lexeme = this.#knownAsStem(this.generator.lexeme(lemma, cell.word_class), cell.word_class);
      // A noun the lexicon files under one class is not read in another (mtu is class 1, not a class 9 mtu).
      if (lexeme.inLexicon && cell.word_class === 'noun' && !this.#nounClassesOf(lemma).has(cell.noun_class ?? '')) return false;
      // (the stem of a guessed adjective or other agreeing word has the same shape: Mercy is no me- + rcy)
      if (!lexeme.inLexicon && cell.word_class !== 'verb' && !this.#nounShape().test(lemma.toLowerCase())) return false;
      // A stem the lexicon marks as needing support but that has two syllables (-enda, -oa) is
      // also written without it (anaenda beside anakwenda): both readings are recognised.
      const readings = lexeme.short && syllables(lexeme.lemma) >= 2 ? [lexeme, { ...lexeme, short: false }] : [lexeme];
      for (const reading of readings) {
        let generated: Generated;
        try {
          generated = this.generator.generateWith(reading, cell);
        } catch {
          continue;
        }
        if (!same(generated.surface)) continue;
        // An agreeing word outside the lexicon needs a visible prefix, or every word would be one; a closed class is never guessed.
        if (!lexeme.inLexicon && !['verb', 'noun'].includes(cell.word_class) && !generated.words[0]?.morphs.some((m) => m.slot === 'prefix')) continue;
        if (!lexeme.inLexicon && this.#closedClasses().has(cell.word_class)) continue;
        const penalty = reading === lexeme ? 0 : 1;
        const closed = this.#closedClasses().has(cell.word_class);
        found.set(key, {
          lemma,
          root: lexeme.root,
          in_lexicon: lexeme.inLexicon,
          gloss: this.generator.formGloss(lemma, cell.word_class, generated.surface) ?? lexeme.gloss,
          cell,
          generated,
          score: score(lexeme, cell, generated, word, closed) - penalty - this.#lesser(lemma, lexeme, cell),
        });
        tried.set(key, true);
        return true;
      }
      return false;
    };
    for (const { lemma, cell } of this.#lexicalIndex().get(unmarked ? word : plain(word)) ?? []) consider(lemma, cell);
    for (const reading of this.#invariableReadings(unmarked ? word : plain(word))) found.set(`${reading.lemma}\t${JSON.stringify(reading.cell)}`, reading);
    for (const reading of this.#citationReadings(unmarked ? word : plain(word))) {
      const key = `${reading.lemma}\t${JSON.stringify(reading.cell)}`;
      if (!found.has(key)) found.set(key, reading);
    }
    const frames = this.#index();
    const deletions = this.#literalRewrites().filter((r) => r.edge === 'end' && r.to === '');
    for (let i = 0; i < word.length; i++) {
      // A prefix a rule deleted before a stem it rewrote (n + g > ŋŋ: ŋŋenda) is looked for
      // as well; such a frame only proposes a root a rule rewrote.
      const own = frames.at(word.slice(0, i));
      const deletedIds = new Set<number>();
      for (const d of deletions) for (const id of frames.at(word.slice(0, i) + d.from)) if (!own.includes(id)) deletedIds.add(id);
      for (const id of [...own, ...deletedIds]) {
        const frame = frames.frame(id);
        const deleted = deletedIds.has(id);
        if (frame.cells[0]!.word_class === 'verb' && !deleted) {
          // A rule that rewrote the end of the root and the start of the suffix (koze for kor + ye,
          // bone for bon + ile): read it backwards to propose the root.
          for (const rw of this.#stemRewrites()) {
            if (!frame.after.startsWith(rw.right)) continue;
            const after = rw.rightTo + frame.after.slice(rw.right.length);
            if (!word.endsWith(after) || word.length - after.length < i) continue;
            const middle = frame.shape.initial + word.slice(i, word.length - after.length);
            if (middle.includes(' ') || !middle.endsWith(rw.leftTo) || (rw.anchored && middle !== rw.leftTo)) continue;
            // The stem's start may also have been rewritten (yaa > ya after a prefix: tuyagadde).
            for (const stem of this.#undo(middle.slice(0, middle.length - rw.leftTo.length) + rw.left)) {
              // An extension's perfect (thandiwe = thand + w + ile): the stem is read back to its root and extensions.
              if (rw.extension) {
                for (const cell of frame.cells) this.#extended(stem, cell, consider);
                continue;
              }
              const lemma = this.#lemma(stem, frame);
              if (lemma === undefined) continue;
              const [first, ...others] = frame.cells;
              if (!consider(lemma, first!)) continue;
              for (const cell of others) consider(lemma, cell);
            }
          }
        }
        // The root ends where the frame's suffix begins; a locative suffix may differ by a few
        // letters (-eni, -ini, -weni), every other suffix must match as it is.
        const end = word.length - frame.after.length;
        const slack = frame.cells[0]!.form === 'locative' ? (this.generator.nouns?.grammar.locative_slack ?? SLACK) : 0;
        if (slack === 0 && !word.endsWith(frame.after) && !(unmarked && word.endsWith(plain(frame.after)))) continue;
        // A frame whose stem begins with consonants a rule reacts to (jj) may hold the whole root (jja).
        const least = frame.cells[0]!.word_class === 'verb' && /^[^aeiou]+$/u.test(frame.shape.initial) ? i : i + 1;
        for (let j = Math.max(least, end - slack); j <= Math.min(word.length, end + slack); j++) {
          const middle = word.slice(i, j);
          if (middle.includes(' ')) continue;
          for (const root of this.#candidates(frame, frame.shape.initial + middle)) {
            if (deleted && root === frame.shape.initial + middle) continue;
            const lemma = this.#lemma(root, frame);
            if (lemma === undefined) continue;
            // A short stem may be cited with a prothetic vowel (idya for -dya).
            const prothetic = frame.shape.short ? this.generator.cartridge.verbs?.prothetic_vowel?.vowel : undefined;
            for (const citation of prothetic ? [lemma, prothetic + lemma] : [lemma]) {
              // The cells of a frame share their text around the placeholder, but a rule that looks
              // into the root (no lengthening before a long syllable) can still tell them apart for
              // a real root: every cell is checked.
              for (const cell of frame.cells) consider(citation, cell);
            }
          }
        }
      }
    }
    // Verb readings are also read as a shorter root with extensions: every reading of a known stem
    // (julisha: jua + causative) and the readings of the likeliest guessed roots (the rest would rank below them anyway).
    const verbReadings = byScore([...found.values()].filter((r) => r.cell.word_class === 'verb' && !r.cell.extensions));
    const guessedRoots = [...new Set(verbReadings.filter((r) => !r.in_lexicon).map((r) => r.root))].slice(0, 4);
    for (const reading of verbReadings) if (reading.in_lexicon || guessedRoots.includes(reading.root)) this.#extended(reading.root, reading.cell, consider);
    // A guessed root that is the whole word (a bare imperative) is kept but ranked last (see score).
    return byScore([...found.values()]);
  }

  /**
   * A root that ends in a verb extension of the cartridge (zaliw = za + passive liw, vunjiw
   * = vunj + applicative i + passive w) is also read as the shorter root with the extensions, when
   * that root is in the lexicon, or, for the passive alone, as a guess (the passive is the one
   * extension whose allomorphs few roots end in). The shorter root may be cited with its own final
   * vowel (jibiw: jibu), be a vowel stem (sahauliw: sahau), or be what a rule at the root's end
   * rewrote (banjw: bamb + w); a lexical derivative (julish, pew) is read as the verb it derives
   * from. Every reading is verified by generation.
   */
  #extended(root: string, cell: Cell, consider: (lemma: string, cell: Cell) => boolean, depth = 0): void {
    const verbs = this.generator.cartridge.verbs;
    if (!verbs || depth > 1) return;
    const fv = verbs.default_fv;
    for (const extension of verbs.extensions) {
      const extensions = [extension.id, ...(cell.extensions ?? [])];
      for (const [citation, derived] of Object.entries(extension.lexical)) {
        if ((derived.endsWith(fv) ? derived.slice(0, -fv.length) : derived) === root) consider(citation, { ...cell, extensions });
      }
      for (const form of new Set(extension.forms.map((f) => f.form))) {
        if (root.length <= form.length || !root.endsWith(form)) continue;
        for (const base of this.#undo(root.slice(0, -form.length))) {
          if (!/[aeiou]/u.test(base) && base.length < 2) continue;
          const lemmas = [base + fv, ...['e', 'i', 'o', 'u'].map((v) => base + v), ...(/[aeiou]$/u.test(base) ? [base] : [])];
          for (const lemma of lemmas) {
            const known = this.generator.lexeme(lemma).inLexicon;
            if (known || (depth === 0 && extension.id === 'passive' && lemma === base + fv)) consider(lemma, { ...cell, extensions });
          }
          this.#extended(base, { ...cell, extensions }, consider, depth + 1);
        }
      }
    }
  }

  /** A lexeme of a derived class (words.yaml `stems_from`) whose stem the lexicon has in a source class is known. */
  #knownAsStem(lexeme: Lexeme, wordClass: string): Lexeme {
    if (lexeme.inLexicon) return lexeme;
    const from = this.generator.cartridge.words?.classes.find((c) => c.id === wordClass)?.stems_from ?? [];
    const source = from.map((c) => this.generator.lexeme(lexeme.lemma, c)).find((l) => l.inLexicon);
    if (source) return { ...lexeme, inLexicon: true, gloss: source.gloss };
    // ... or as the stem of a noun of the lexicon (kienyeji 'in the local way' from mw-enyeji 'local person').
    return from.includes('noun') && this.#nounStems().has(lexeme.lemma) && !this.#lemmas().has(lexeme.lemma) ? { ...lexeme, inLexicon: true } : lexeme;
  }

  #citations?: Map<string, Analysis[]>;
  /**
   * A lexicon noun read as its own citation form where the class's prefix rule writes the singular
   * otherwise (kiatu, kiongozi: ki- before a vowel, where chakula, chombo have ch-): the lexicon is
   * the authority on the words it lists. Only nouns whose singular the generator does not spell.
   */
  #citationReadings(word: string): Analysis[] {
    if (!this.#citations) {
      this.#citations = new Map();
      const nouns = this.generator.nouns;
      for (const entry of nouns ? this.generator.cartridge.lexicon : []) {
        if (entry.word_class !== 'noun') continue;
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
        const cell: Cell = { word_class: 'noun', polarity: 'positive', noun_class: cls.id, number: 'sg', form: 'full' };
        let surface: string | undefined;
        try {
          surface = this.generator.generate(entry.lemma, cell).surface;
        } catch {
          surface = undefined;
        }
        if (surface === entry.lemma) continue;
        const lexeme = this.generator.lexeme(entry.lemma, 'noun');
        const generated: Generated = {
          surface: entry.lemma,
          words: [
            {
              surface: entry.lemma,
              morphs: [
                { slot: 'prefix', form: split.prefix.full, id: cls.id },
                { slot: 'stem', form: split.stem },
              ],
              rules: [],
              polarity: 'positive',
            },
          ],
        };
        const key = this.#plain(entry.lemma.normalize('NFC'));
        const reading: Analysis = { lemma: entry.lemma, root: lexeme.root, in_lexicon: true, gloss: lexeme.gloss, cell, generated, score: score(lexeme, cell, generated, entry.lemma, false) };
        this.#citations.set(key, [...(this.#citations.get(key) ?? []), reading]);
      }
    }
    return this.#citations.get(word) ?? [];
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
    if (!this.#stems) {
      this.#stems = new Set();
      const nouns = this.generator.nouns;
      for (const entry of this.generator.cartridge.lexicon) {
        if (entry.word_class !== 'noun' || !nouns) continue;
        const cls = nouns.classify(entry.lemma, entry.noun_class);
        const stem = cls ? nouns.split(entry.lemma, cls) : undefined;
        if (stem && stem !== entry.lemma) this.#stems.add(stem);
      }
    }
    return this.#stems;
  }

  /**
   * How much less likely than its twin a reading is: a lemma that is a citation variant of the
   * lexicon's (kuwa for wa) after the lexicon's own; a guessed noun cited in a plural class
   * (misamiati) after its singular (msamiati); a guessed locative (pwa-ni) after the plain noun (pwani).
   */
  #lesser(lemma: string, lexeme: Lexeme, cell: Cell): number {
    if (lexeme.inLexicon) return lexeme.lemma !== lemma ? 0.5 : 0;
    if (cell.word_class !== 'noun') return 0;
    const ownPlural = (this.generator.nouns?.grammar.classes ?? []).some((c) => c.plural === cell.noun_class);
    return (ownPlural ? 0.2 : 0) + (cell.form === 'locative' ? 0.5 : 0);
  }

  #shape?: RegExp;
  /** The shape a guessed noun must have (nouns.yaml guess_shape), else anything. */
  #nounShape(): RegExp {
    this.#shape ??= new RegExp(this.generator.nouns?.grammar.guess_shape ?? '', 'u');
    return this.#shape;
  }

  #nounClasses?: Map<string, Set<string>>;
  /** The classes the lexicon gives a noun lemma. */
  #nounClassesOf(lemma: string): Set<string> {
    if (!this.#nounClasses) {
      this.#nounClasses = new Map();
      for (const entry of this.generator.cartridge.lexicon) {
        if (entry.word_class !== 'noun') continue;
        const id = this.generator.nouns?.classify(entry.lemma, entry.noun_class)?.id;
        if (id !== undefined) this.#nounClasses.set(entry.lemma, new Set([...(this.#nounClasses.get(entry.lemma) ?? []), id]));
      }
    }
    return this.#nounClasses.get(lemma) ?? new Set();
  }

  #closed?: Set<string>;
  /** Word classes the analyzer reads from the lexicon only: words.yaml classes marked closed and the invariable classes. */
  #closedClasses(): Set<string> {
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
  #invariableReadings(word: string): Analysis[] {
    if (!this.#invariables) {
      const inflected = new Set(['verb', 'noun', ...(this.generator.cartridge.words?.classes ?? []).map((c) => c.id)]);
      const index = new Map<string, Array<{ entry: LexiconEntry; rank: number }>>();
      this.generator.cartridge.lexicon.forEach((entry, rank) => {
        if (inflected.has(entry.word_class) && entry.form === undefined) return;
        const form = this.#plain((entry.form ?? entry.lemma).normalize('NFC'));
        index.set(form, [...(index.get(form) ?? []), { entry, rank }]);
      });
      this.#invariables = index;
    }
    return (this.#invariables.get(word) ?? []).map(({ entry, rank }) => {
      const agreement = entry.noun_class !== undefined && this.generator.row(`c${entry.noun_class}`) ? `c${entry.noun_class}` : undefined;
      const cell: Cell = { word_class: entry.word_class, polarity: 'positive', ...(agreement ? { subject: agreement } : {}) };
      const generated: Generated = { surface: word, words: [{ surface: word, morphs: [{ slot: 'stem', form: word }], rules: [], polarity: 'positive' }] };
      // A closed-class word is read as the lexicon lists it; rows of the same form keep their order.
      return { lemma: entry.lemma, root: entry.lemma, in_lexicon: true, gloss: entry.gloss || null, cell, generated, score: INVARIABLE - rank * 1e-5 };
    });
  }

  get #plain(): (text: string) => string {
    const marks = Object.entries(this.generator.cartridge.metadata.orthography.optional_marks);
    return (text) => (marks.length === 0 ? text : marks.reduce((t, [marked, plain]) => t.replaceAll(marked, plain), text));
  }

  #lexical?: Map<string, Array<{ lemma: string; cell: Cell }>>;
  /** Every form of every non-verb lexicon entry (irregular plurals included), by surface. */
  #lexicalIndex(): Map<string, Array<{ lemma: string; cell: Cell }>> {
    if (this.#lexical) return this.#lexical;
    const steps = this.#lexicalSteps();
    let step = steps.next();
    while (!step.done) step = steps.next();
    this.#lexical = step.value;
    return step.value;
  }

  /** The lexical index, one lexicon entry per step. */
  *#lexicalSteps(): Iterator<void, Map<string, Array<{ lemma: string; cell: Cell }>>> {
    const index = new Map<string, Array<{ lemma: string; cell: Cell }>>();
    const plain = this.#plain;
    const cells = this.#cells();
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
        for (const lemma of cell.word_class !== entry.word_class && stem && stem !== entry.lemma ? [entry.lemma, stem] : [entry.lemma]) {
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
        if (cell.word_class !== 'verb' || cell.tense !== irregular.tense || cell.polarity !== irregular.polarity || cell.object || cell.variant) continue;
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

  /**
   * Roots (or stems) a frame's middle text may stand for: the text, what literal rules
   * rewrote, a root whose last vowel a rule changed (bulala -> bulele), and for nouns
   * the final vowel a locative suffix replaced.
   */
  #candidates(frame: Frame, text: string): string[] {
    const out = new Set(this.#undo(text));
    const cell = frame.cells[0]!;
    if (cell.word_class === 'verb' && this.#rootRuleBefore(frame.after)) {
      const last = /[aeiou](?=[^aeiou]*$)/u.exec(text);
      if (last && (text.match(/[aeiou]/gu) ?? []).length >= 2) {
        for (const v of ['a', 'e', 'i', 'o', 'u']) out.add(text.slice(0, last.index) + v + text.slice(last.index + 1));
      }
    } else if (cell.form === 'locative') {
      for (const stem of [...out]) for (const v of ['a', 'e', 'i', 'o', 'u']) out.add(stem + v);
    }
    return [...out];
  }

  #initials?: string[];
  /**
   * Stem beginnings a prefix can react to, each giving its own frames: nothing, a vowel, and
   * every letter (or letter + h) that some rule's right-hand pattern matches (the labials,
   * aspirates and clicks a nasal prefix changes). Read from the cartridge's rules.
   */
  #stemInitials(): string[] {
    this.#initials ??= ['', 'a', 'e', 'i', 'o', 'u', ...this.#reactingInitials(() => true)];
    return this.#initials;
  }

  #nounInitialCache?: string[];
  /** Stem beginnings for noun frames: as #stemInitials, counting only the rules that may apply to nouns. */
  #nounInitials(): string[] {
    this.#nounInitialCache ??= ['', 'a', 'e', 'i', 'o', 'u', ...this.#reactingInitials((r) => !r.when?.word_class || r.when.word_class.includes('noun'))];
    return this.#nounInitialCache;
  }

  /** Consonant stem beginnings that a rule which may apply to verbs reacts to (1sg nasal + b -> mb). */
  #verbInitials(): string[] {
    return this.#reactingInitials((r) => !r.when?.word_class || r.when.word_class.includes('verb')).filter((c) => !/^[aeiou]/u.test(c));
  }

  #reactingInitials(applies: (rule: Rule) => boolean): string[] {
    const letters = [...'abcdefghijklmnopqrstuvwxyz'];
    const candidates = [...letters, ...letters.map((l) => `${l}h`)];
    const patterns = this.generator.cartridge.rules.filter((r) => r.right && applies(r)).map((r) => new RegExp(`^(?:${r.right})`, 'u'));
    // A doubled consonant counts when a rule reacts to it but not to the single letter (a long
    // vowel written short before a geminate: naa + jja > najja).
    const doubled = letters
      .filter((l) => !/[aeiou]/u.test(l))
      .map((l) => `${l}${l}`)
      .filter((c) => patterns.some((p) => p.test(`${c}a`) && !p.test(`${c[0]}a`)));
    return [...new Set([...candidates, ...doubled].filter((c) => patterns.some((p) => p.test(`${c}a`))))];
  }

  #rootRules?: RegExp[];
  /** Whether some rule rewrites the end of a root before this suffix (the perfect -ile of -ala verbs). */
  #rootRuleBefore(after: string): boolean {
    this.#rootRules ??= this.generator.cartridge.rules.filter((r) => r.left_to !== undefined && [r.left_slot ?? []].flat().includes('root')).map((r) => new RegExp(`^(?:${r.right})`, 'u'));
    return this.#rootRules.some((re) => re.test(after) || re.test(this.#plain(after)));
  }

  /**
   * The text itself and what it was before a rule with literal patterns rewrote its
   * edges (ndefu <- ndefu, refu): candidates only, every one is verified by generation.
   */
  #undo(text: string): string[] {
    const out = new Set([text]);
    for (const { from, to, edge, when } of this.#literalRewrites()) {
      // A rule with a lookahead (l(?=[aeiou]+[mn]) -> n) is undone where its condition holds, even to nothing.
      if (edge === 'start' && when && text.startsWith(to) && when.test(text.slice(to.length))) out.add(from + text.slice(to.length));
      else if (edge === 'start' && !when && to !== '' && text.startsWith(to)) out.add(from + text.slice(to.length));
      if (edge === 'end' && to !== '' && text.endsWith(to)) out.add(text.slice(0, text.length - to.length) + from);
    }
    return [...out];
  }

  #stemRewriteCache?: StemRewrite[];
  /** Rules rewriting a root's end and the suffix after it, spelled out as literal pairs (see literalAlternatives). */
  #stemRewrites(): StemRewrite[] {
    if (this.#stemRewriteCache) return this.#stemRewriteCache;
    const out: StemRewrite[] = [];
    for (const rule of this.generator.cartridge.rules) {
      const leftSlots = [rule.left_slot ?? []].flat();
      if (!(leftSlots.includes('root') || leftSlots.includes('extensions')) || (!rule.right && rule.left_to === undefined)) continue;
      const lefts = literalAlternatives(rule.left);
      // A rule that rewrites the root alone before the final vowel (beer -> badd: abadde) has no right pattern.
      const rights = rule.right ? literalAlternatives(rule.right) : [{ text: '', groups: [], anchored: false }];
      if (!lefts || !rights) continue;
      for (const l of lefts) {
        for (const r of rights) {
          out.push({
            left: l.text,
            leftTo: rule.left_to === undefined ? l.text : fill(rule.left_to, l.groups),
            right: r.text,
            rightTo: rule.right_to === undefined ? r.text : fill(rule.right_to, r.groups),
            anchored: l.anchored,
            extension: !leftSlots.includes('root'),
          });
        }
      }
    }
    this.#stemRewriteCache = out;
    return out;
  }

  #rewrites?: Array<{ from: string; to: string; edge: 'start' | 'end'; when?: RegExp }>;
  #literalRewrites() {
    if (this.#rewrites) return this.#rewrites;
    const literal = /^[\p{L}']+$/u;
    this.#rewrites = [];
    for (const rule of this.generator.cartridge.rules) {
      // A rule rewriting the start of the right morph changes a stem's first letters; one rewriting
      // the end of the left morph can change a root's last letters.
      if (rule.right_to !== undefined && literal.test(rule.right) && literal.test(rule.right_to || 'x')) {
        this.#rewrites.push({ from: rule.right, to: rule.right_to, edge: 'start' });
      }
      // Letters + a lookahead (the Ganda law's l(?=[aeiou]+[mn]), y(?=o|aa)): the lookahead is kept as a condition.
      const conditioned = /^([\p{L}]+)(\(\?[=!].*\))$/u.exec(rule.right ?? '');
      if (conditioned && rule.right_to !== undefined && literal.test(rule.right_to || 'x')) {
        this.#rewrites.push({ from: conditioned[1]!, to: rule.right_to, edge: 'start', when: new RegExp(`^${conditioned[2]!}`, 'u') });
      }
      // ([tkp])h -> $1 (a letter dropped after one of a set): undone once per letter of the set.
      const dropped = /^\(\[([\p{L}]+)\]\)([\p{L}]+)$/u.exec(rule.right);
      if (dropped && rule.right_to === '$1') {
        for (const letter of dropped[1]!) this.#rewrites.push({ from: letter + dropped[2]!, to: letter, edge: 'start' });
      }
      if (rule.left_to !== undefined && literal.test(rule.left) && literal.test(rule.left_to || 'x')) {
        this.#rewrites.push({ from: rule.left, to: rule.left_to, edge: 'end' });
      }
    }
    return this.#rewrites;
  }

  #cellCache?: Cell[];
  #cells(): Cell[] {
    this.#cellCache ??= enumerateCells(this.generator);
    return this.#cellCache;
  }

  #lemma(root: string, frame: Frame): string | undefined {
    if (frame.lemmaPrefix !== undefined) return frame.lemmaPrefix + root;
    if (frame.cells[0]!.word_class !== 'verb') return root;
    if (!/[a-z]/u.test(root)) return undefined;
    if (this.generator.cartridge.verbs?.citation === 'root') return frame.shape.ownFinalVowel === null ? root : undefined;
    const fv = frame.shape.ownFinalVowel ?? this.generator.cartridge.verbs?.default_fv ?? 'a';
    return root + fv + (frame.shape.enclitic ?? '');
  }

  #index(): PackedFrames {
    if (this.#frames) return this.#frames;
    const steps = this.#build();
    let step = steps.next();
    while (!step.done) step = steps.next();
    this.#frames = PackedFrames.pack(step.value, this.#cells());
    return this.#frames;
  }

  /**
   * Builds the frames in slices, yielding to the event loop between them, so a server
   * warming up keeps answering (and can shut down). An analysis arriving meanwhile
   * builds them at once instead.
   */
  async warmInBackground(sliceMs = 20): Promise<void> {
    const steps = this.#build();
    let step = steps.next();
    let sliceStart = performance.now();
    while (!step.done) {
      if (this.#frames) return;
      if (performance.now() - sliceStart >= sliceMs) {
        await new Promise((resolve) => setImmediate(resolve));
        sliceStart = performance.now();
      }
      step = steps.next();
    }
    this.#frames ??= PackedFrames.pack(step.value, this.#cells());
    const lexicalSteps = this.#lexicalSteps();
    let lexicalStep = lexicalSteps.next();
    while (!lexicalStep.done) {
      if (this.#lexical) return;
      if (performance.now() - sliceStart >= sliceMs) {
        await new Promise((resolve) => setImmediate(resolve));
        sliceStart = performance.now();
      }
      lexicalStep = lexicalSteps.next();
    }
    this.#lexical ??= lexicalStep.value;
  }

  /** The frame index, one cell per step. */
  *#build(): Iterator<void, Map<string, Frame[]>> {
    const frames = new Map<string, Frame[]>();
    const vowels = ['a', 'e', 'i', 'o', 'u'];
    const verbShapes: Shape[] = [
      { initial: '', ownFinalVowel: null, short: false },
      { initial: '', ownFinalVowel: null, short: true },
      ...vowels.map((v) => ({ initial: v, ownFinalVowel: null, short: false })),
      ...vowels.map((v) => ({ initial: v, ownFinalVowel: null, short: true })),
      ...['i', 'u', 'e', 'o'].map((v) => ({ initial: '', ownFinalVowel: v, short: false })),
      ...this.#verbInitials().map((c) => ({ initial: c, ownFinalVowel: null, short: false })),
      ...(this.generator.cartridge.verbs?.enclitics?.forms ?? []).map((enclitic) => ({ initial: '', ownFinalVowel: null, short: false, enclitic })),
    ];
    const plain = this.#plain;
    const groups = new Map<string, Frame>();
    const add = (frame: Frame) => {
      // Frames are found by their text before the hole, with and without the optional marks. A
      // vowel-initial stem whose vowel a rule lengthened may keep it short in a real root (a rule
      // that looks past the placeholder: neebase but netaaze): the frame is also found with it short.
      const keys = [frame.before, plain(frame.before)];
      const v = frame.shape.initial;
      if (/^[aeiou]$/u.test(v) && frame.before.endsWith(v + v)) keys.push(frame.before.slice(0, -1));
      for (const key of new Set(keys)) {
        const list = frames.get(key);
        if (list) list.push(frame);
        else frames.set(key, [frame]);
      }
    };
    const placeFrame = (cell: Cell, shape: Shape, surface: string, lemmaPrefix?: string) => {
      const at = surface.indexOf(HOLE);
      if (at < 0) return;
      const before = surface.slice(0, at);
      const after = surface.slice(at + 1);
      const key = [before, after, shape.initial, shape.ownFinalVowel, shape.short, shape.enclitic ?? '', lemmaPrefix ?? '', cell.word_class, cell.form ?? ''].join('\u0002');
      const group = groups.get(key);
      if (group) group.cells.push(cell);
      else {
        const frame: Frame = { cells: [cell], shape, ...(lemmaPrefix !== undefined ? { lemmaPrefix } : {}), before, after };
        groups.set(key, frame);
        add(frame);
      }
    };
    const nouns = this.generator.nouns;
    for (const cell of this.#cells()) {
      yield;
      if (cell.word_class === 'verb') {
        for (const shape of verbShapes) {
          try {
            placeFrame(cell, shape, this.generator.generateWith(this.#placeholder(shape), cell).surface);
          } catch {
            // no such form
          }
        }
      } else if (cell.word_class !== 'noun') {
        // Agreeing words: a frame per stem shape (stems of the lexicon are also in the lexical index);
        // none for a closed or derived class, whose stems the lexical index holds all of.
        const wordClass = this.generator.cartridge.words?.classes.find((c) => c.id === cell.word_class);
        if (wordClass?.closed || wordClass?.stems_from) continue;
        for (const initial of this.#stemInitials()) {
          const shape: Shape = { initial, ownFinalVowel: null, short: false };
          try {
            placeFrame(cell, shape, this.generator.generateWith(this.#placeholder(shape), cell).surface);
          } catch {
            // no such form
          }
        }
      } else if (nouns && cell.noun_class) {
        // One frame per citation prefix, per prefix allomorph of the form's number and per stem shape.
        const cls = nouns.nounClass(cell.noun_class);
        if (!cls || !cls.guess) continue;
        const plural = cell.number === 'pl' && cls.plural ? nouns.nounClass(cls.plural) : undefined;
        if (cell.number === 'pl' && cls.plural && !plural) continue;
        for (const citation of cls.prefixes) {
          const options = plural ? (cls.plural_prefixes ?? plural.prefixes) : cell.number === 'pl' ? cls.prefixes : [citation];
          for (const used of options) {
            for (const initial of this.#nounInitials()) {
              const shape: Shape = { initial, ownFinalVowel: null, short: false };
              try {
                placeFrame(cell, shape, this.generator.nounForm(plural ?? cls, initial + HOLE, [used], cell).surface, citation.lemma);
              } catch {
                // no such form
              }
            }
          }
        }
      }
    }
    return frames;
  }

  #placeholder(shape: Shape): Lexeme {
    const key = `${shape.initial}|${shape.ownFinalVowel}|${shape.short}|${shape.enclitic ?? ''}`;
    let lexeme = this.#lexemes.get(key);
    if (!lexeme) {
      const root = shape.initial + HOLE;
      lexeme = { lemma: root, root, ownFinalVowel: shape.ownFinalVowel, short: shape.short, inLexicon: false, gloss: null, ...(shape.enclitic ? { enclitic: shape.enclitic } : {}) };
      this.#lexemes.set(key, lexeme);
    }
    return lexeme;
  }
}

function syllables(text: string): number {
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
const INVARIABLE = 15 + 3.5 + 0.01;

/** Readings most plausible first; equal scores by lemma. */
function byScore(analyses: Analysis[]): Analysis[] {
  return analyses.sort((a, b) => b.score - a.score || a.lemma.localeCompare(b.lemma));
}

/**
 * What a guessed reading's affixes say for it: a tense or relative marker is good evidence of a verb,
 * a subject, object or negative marker or a final vowel other than the default some; a noun
 * prefix about as much as a subject and a tense marker together would not.
 */
const EVIDENCE: Record<string, number> = { tam: 1, relative: 1, subject: 0.5, object: 0.5, negation: 0.5, pre_initial: 0.5, extensions: 0.5, prefix: 0.9 };

/**
 * Plausibility, a score that orders readings like the probability they will be given: a closed-class
 * word of the lexicon first, then known stems (the more of the word the known stem spells, the
 * better: hali as a noun before ha-l-i 'does not eat'), then guesses by the evidence of their affixes;
 * among readings of one stem, plain cells over variants and reflexive/object readings.
 */
function score(lexeme: Lexeme, cell: Cell, generated: Generated, word: string, closed: boolean): number {
  let s = 0;
  if (isBare(generated)) s -= 3;
  if (lexeme.inLexicon) s += closed ? 15 : 10 + 3 * Math.min(1, lexeme.root.length / Math.max(1, word.length));
  else {
    const morphs = generated.words.flatMap((w) => w.morphs);
    s += morphs.reduce((sum, m) => sum + (EVIDENCE[m.slot] ?? 0), 0);
    // A guessed noun or agreeing word with no prefix to show for it: any word would read as one.
    // (a guessed class 9 noun still comes before a guessed bare imperative: unknown words are more often nouns)
    if (cell.word_class !== 'verb' && !morphs.some((m) => m.slot === 'prefix' && m.form !== '')) s -= 2.5;
    // Agreeing classes have few stems, mostly listed: a guessed one is less likely than a guessed verb or noun.
    if (cell.word_class !== 'verb' && cell.word_class !== 'noun') s -= 1.5;
  }
  if (!cell.variant) s += 2;
  if (!cell.object) s += 1;
  // Of two derivations that spell the same word (zaliwa: passive of zaa, or applicative + passive), the shorter first.
  s -= 0.25 * (cell.extensions?.length ?? 0);
  if (cell.polarity === 'positive') s += 0.5;
  return s;
}

/** A literal reading of a rule's pattern: its text, its groups, and whether it must be the whole morph. */
interface Literal {
  text: string;
  groups: string[];
  anchored: boolean;
}

interface StemRewrite {
  left: string;
  leftTo: string;
  right: string;
  rightTo: string;
  anchored: boolean;
  /** The rule rewrites the end of an extension (the passive perfect -iwe), not of the root. */
  extension: boolean;
}

/**
 * The literal strings a simple pattern matches: letters, letter classes `[rg]` (ranges `[b-d]`
 * included) and one level of capture groups, each optionally repeated with `+` (read as one or
 * two of it: `f+` is f or ff), after an optional `^` and optional leading lookarounds (conditions
 * that generation checks again). Anything else gives undefined.
 */
export function literalAlternatives(pattern: string, limit = 256): Literal[] | undefined {
  let rest = pattern;
  const anchored = rest.startsWith('^');
  if (anchored) rest = rest.slice(1);
  while (/^\(\?(?:<=|<!|=|!)/u.test(rest)) {
    let depth = 0;
    let end = -1;
    for (let k = 0; k < rest.length; k++) {
      if (rest[k] === '(') depth++;
      else if (rest[k] === ')' && --depth === 0) {
        end = k;
        break;
      }
    }
    if (end < 0) return undefined;
    rest = rest.slice(end + 1);
  }
  // A closing $ (the end of the word) adds no letters: generation checks it again.
  if (rest.endsWith('$') && !rest.endsWith('\\$')) rest = rest.slice(0, -1);
  let alternatives: Literal[] = [{ text: '', groups: [], anchored }];
  const token = /^(?:([\p{L}'])|\[([\p{L}-]+)\]|\(((?:[\p{L}]|\[[\p{L}-]+\])\+?(?:(?:[\p{L}]|\[[\p{L}-]+\])\+?|\|)*)\))([+?]?)/u;
  while (rest.length > 0) {
    const m = token.exec(rest);
    if (!m) return undefined;
    // A group holds letters and classes, each possibly with + (([b-d]+[aeiou]): one captured text each),
    // or alternatives of them ((ile|ē)).
    const inner = m[3] !== undefined ? m[3].split('|').map((alt) => literalAlternatives(alt, limit)?.map((l) => l.text)) : undefined;
    if (inner?.some((alt) => !alt)) return undefined;
    const single = m[1] ? [m[1]] : m[2] ? expandClass(m[2]) : (inner!.flat() as string[]);
    if (single.length === 0) return undefined;
    // x+ is one or two of it, x? none or one.
    const options = m[4] === '+' ? [...single, ...single.map((o) => o + o)] : m[4] === '?' ? ['', ...single] : single;
    const captured = m[3] !== undefined;
    alternatives = alternatives.flatMap((a) => options.map((o) => ({ text: a.text + o, groups: captured ? [...a.groups, o] : a.groups, anchored })));
    if (alternatives.length > limit) return undefined;
    rest = rest.slice(m[0].length);
  }
  return alternatives[0]!.text === '' ? undefined : alternatives;
}

/** The letters of a class body: `rg`, or ranges `b-df-h` (b c d f g h). */
function expandClass(body: string): string[] {
  const out: string[] = [];
  const chars = [...body];
  for (let k = 0; k < chars.length; k++) {
    if (chars[k] === '-') return [];
    if (chars[k + 1] === '-' && chars[k + 2] !== undefined) {
      const from = chars[k]!.codePointAt(0)!;
      const to = chars[k + 2]!.codePointAt(0)!;
      if (to < from || to - from > 26) return [];
      for (let c = from; c <= to; c++) out.push(String.fromCodePoint(c));
      k += 2;
    } else out.push(chars[k]!);
  }
  return out;
}

/** A replacement template with $1..$9 from a literal's groups. */
function fill(template: string, groups: string[]): string {
  return template.replace(/\$(\d)/g, (_, n: string) => groups[Number(n) - 1] ?? '');
}
