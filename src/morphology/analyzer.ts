/**
 * Analysis by frames: every cell of the paradigm is generated once with a
 * placeholder root, which gives the text before and after the root (the frame).
 * A surface form is matched against the frames, the text between them proposes
 * a root (from the lexicon or not), and each proposal is kept only when
 * generating that cell with that root gives back exactly the surface form.
 * Frames are built once per cartridge, on first use.
 */
import { formationUsesHead, type Cell, type Generated, type Generator, type Lexeme } from './generator.js';
import { PackedFrames, type FoundFrame } from './packed-frames.js';
import { byScore, score, syllables, type Analysis } from './analysis-ranking.js';
import { enumerateCells } from './paradigm-cells.js';
import { FrameBuilder } from './frame-builder.js';
import { LexiconReadings } from './lexicon-readings.js';
import { LexicalIndex, type LexicalRow } from './lexical-index.js';
import { PackedCells, type CellList } from './packed-cells.js';
import { literalRewrites, rewrittenAgain, stemRewrites, undo, type LiteralRewrite, type StemRewrite } from './rule-literals.js';
import { runSteps, runStepsInSlices, type Steps } from '../steps.js';

export type { Analysis } from './analysis-ranking.js';
export { enumerateCells } from './paradigm-cells.js';
export { literalAlternatives } from './rule-literals.js';

/** Letters by which a locative suffix may differ from the frame's (-eni, -ini, -weni, -wini). */
const SLACK = 3;

/** How many of a word's likeliest guessed verb roots are also read as a shorter root with extensions. */
const GUESSED_ROOTS = 8;

/** How many extensions are peeled off a root, one after another (caus + appl + pass: -is-el-w-). */
const EXTENSION_DEPTH = 3;

export class Analyzer {
  #frames?: PackedFrames;
  #frameBuilder: FrameBuilder;
  #lexicon: LexiconReadings;

  constructor(private readonly generator: Generator) {
    this.#frameBuilder = new FrameBuilder(generator);
    this.#lexicon = new LexiconReadings(generator);
  }

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
    return this.#index().toBuffer([...this.#lexicalIndex().rows()]);
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
    const lexical = LexicalIndex.builder();
    for (const [surface, ...pairs] of read.extra as LexicalRow[]) {
      lexical.surface(surface);
      for (let k = 0; k < pairs.length; k += 2) {
        const cell = pairs[k + 1] as number;
        if (!(cell >= 0 && cell < cells.length)) return false;
        lexical.entry(pairs[k] as string, cell);
      }
      if (lexical.size % 1000 === 0) yield;
    }
    if (this.#frames && this.#lexical) return true;
    this.#frames = read.frames;
    this.#lexical = lexical.finish(cells);
    return true;
  }

  /** Every analysis of `surface`, most plausible first. */
  analyze(surface: string): Analysis[] {
    return runSteps(this.analysisSteps(surface));
  }

  /**
   * `analyze` in slices of about `sliceMs` with a turn of the event loop between them: the same
   * analyses, but a long or pathological word (a hundred letters that many frames match) never
   * holds a server's event loop for the tens of ms its analysis takes.
   */
  analyzeInSlices(surface: string, sliceMs = 10): Promise<Analysis[]> {
    return runStepsInSlices(this.analysisSteps(surface), sliceMs);
  }

  /** The analysis as steps (`yield` between a frame's proposals and the next): run by `analyze` at once, by `analyzeInSlices` in slices. */
  *analysisSteps(surface: string): Steps<Analysis[]> {
    const given = surface.trim().normalize('NFC');
    if (!given) return [];
    const exact = yield* this.#analyze(given);
    const lower = given.toLowerCase();
    // A capitalised word (the first of a sentence) is also read in lower case unless the lexicon knows it as written;
    // between two guesses alike, the one that keeps the capital (a name) comes first.
    // A guess that holds only once the capital is dropped is weaker still: a capital inside a sentence marks a name.
    let found = exact;
    if (lower !== given && !exact.some((a) => a.in_lexicon)) {
      const lowered = (yield* this.#analyze(lower)).map((a) => (a.in_lexicon ? a : { ...a, score: a.score - 3 }));
      found = byScore([...exact.map((a) => ({ ...a, score: a.score + 0.001 })), ...lowered]);
    }
    const space = given.indexOf(' ');
    if (found.length > 0 || space < 0) return found;
    // A verb with a complement (ngihlala phansi): the first word inflects, the rest is part of the lemma.
    const rest = given.slice(space + 1);
    return (yield* this.analysisSteps(given.slice(0, space)))
      .filter((a) => a.cell.word_class === 'verb')
      .map((a) => ({ ...a, lemma: `${a.lemma} ${rest}`, generated: this.generator.generate(`${a.lemma} ${rest}`, a.cell) }));
  }

  *#analyze(word: string): Steps<Analysis[]> {
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
      // A verb with a latent i (-va, -za: uyeva, beze) is proposed as an i-stem (iva), or as an e-stem where the i
      // coalesced with the a before it (a + i > e: nga + va > ngeva, read as nge-va or ng-eva); the stem the lexicon
      // writes without that vowel is tried too, and kept only if it generates the word.
      if (cell.word_class === 'verb' && /^[ie][^aeiou]/u.test(lemma) && !this.generator.lexeme(lemma, 'verb').inLexicon && this.generator.lexeme(lemma.slice(1), 'verb').inLexicon) consider(lemma.slice(1), cell);
      // A short verb that keeps its own final vowel (a stem in -o or -i) has no frame of its own: it is proposed with
      // the stem support before it as one guessed stem (ku + sho read as kusho), and read again without it here.
      if (cell.word_class === 'verb') {
        for (const support of this.#supports()) {
          if (lemma.length <= support.length || !lemma.startsWith(support) || this.generator.lexeme(lemma, 'verb').inLexicon) continue;
          const rest = this.generator.lexeme(lemma.slice(support.length), 'verb');
          if (rest.inLexicon && rest.short && rest.ownFinalVowel !== null) consider(lemma.slice(support.length), cell);
        }
      }
      const lexeme = this.#lexicon.knownAsStem(this.generator.lexeme(lemma, cell.word_class), cell.word_class);
      // A noun the lexicon files under one class is not read in another (mtu is class 1, not a class 9 mtu).
      if (lexeme.inLexicon && cell.word_class === 'noun' && !this.#lexicon.nounClassesOf(lemma).has(cell.noun_class ?? '')) return false;
      // (the stem of a guessed adjective or other agreeing word has the same shape: Mercy is no me- + rcy)
      if (!lexeme.inLexicon && cell.word_class !== 'verb' && !this.#lexicon.nounShape().test(lemma.toLowerCase())) return false;
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
        if (!lexeme.inLexicon && this.#lexicon.closedClasses().has(cell.word_class)) continue;
        const penalty = reading === lexeme ? 0 : 1;
        const closed = this.#lexicon.closedClasses().has(cell.word_class);
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
    for (const reading of this.#lexicon.invariableReadings(unmarked ? word : plain(word))) found.set(`${reading.lemma}\t${JSON.stringify(reading.cell)}`, reading);
    for (const reading of this.#lexicon.citationReadings(unmarked ? word : plain(word))) {
      const key = `${reading.lemma}\t${JSON.stringify(reading.cell)}`;
      if (!found.has(key)) found.set(key, reading);
    }
    const frames = this.#index();
    const deletions = this.#literalRewrites().filter((r) => r.edge === 'end' && r.to === '');
    const reread: { root: string; cell: Cell }[] = [];
    for (let i = 0; i < word.length; i++) {
      // A prefix a rule deleted before a stem it rewrote (n + g > ŋŋ: ŋŋenda) is looked for
      // as well; such a frame only proposes a root a rule rewrote.
      const own = frames.at(word.slice(0, i));
      const deletedIds = new Set<number>();
      for (const d of deletions) for (const id of frames.at(word.slice(0, i) + d.from)) if (!own.includes(id)) deletedIds.add(id);
      for (const id of [...own, ...deletedIds]) {
        yield;
        const frame = frames.frame(id);
        const deleted = deletedIds.has(id);
        if (frame.cells[0]!.word_class === 'verb' && !deleted) {
          // A rule that rewrote the end of the root and the start of the suffix (koze for kor + ye,
          // bone for bon + ile): read it backwards to propose the root.
          for (const rw of this.#stemRewrites()) {
            if (!frame.after.startsWith(rw.right)) continue;
            if (rw.extension && rw.leftTo === '') this.#rewrittenTwice(word, i, frame, rw, consider);
            // The rewritten suffix may be rewritten again by what follows it (bulel + ē + yo > bulel + e + yo).
            for (const rewritten of rewrittenAgain(rw.rightTo, frame.after.slice(rw.right.length), this.#literalRewrites())) {
              // input without the optional marks matches a rewritten suffix that has them (khathele: -elē)
              const after = word.endsWith(rewritten) ? rewritten : unmarked && word.endsWith(plain(rewritten)) ? plain(rewritten) : undefined;
              if (after === undefined || word.length - after.length < i) continue;
              const middle = frame.shape.initial + word.slice(i, word.length - after.length);
              if (middle.includes(' ')) continue;
              for (const leftTo of rw.extension ? this.#extensionStarts(rw.leftTo) : [rw.leftTo]) {
                // An extension rule's ^ anchors it at the extension's start, not the root's (^eebw: w + eebw).
                if (!middle.endsWith(leftTo) || (rw.anchored && !rw.extension && middle !== leftTo)) continue;
                // The stem's start may also have been rewritten (yaa > ya after a prefix: tuyagadde).
                for (const stem of this.#undo(middle.slice(0, middle.length - leftTo.length) + rw.left)) {
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
          }
        }
        // A vowel-initial stem of the lexicon that keeps its own final vowel (a stem in -i, -e, -o or -u): the
        // frames of vowel-initial stems hold the prefixes a rule rewrote before the vowel (an object concord
        // glided before it), and the stem's own vowel stands where those frames have a final vowel, the default
        // one or a tense's own (the -i of a negative tense, which such a stem may share).
        if (frame.cells[0]!.word_class === 'verb' && !deleted && /^[aeiou]$/u.test(frame.shape.initial) && frame.shape.ownFinalVowel === null && !frame.shape.enclitic) {
          const fv = this.generator.cartridge.verbs?.default_fv ?? 'a';
          const tenseFv = /^[aeiou]/u.test(frame.after) ? frame.after[0]! : undefined;
          if (tenseFv !== undefined) {
            for (const own of ['a', 'e', 'i', 'o', 'u'].filter((v) => v !== fv)) {
              const after = own + frame.after.slice(tenseFv.length);
              if (!word.endsWith(after) || word.length - after.length <= i) continue;
              const middle = word.slice(i, word.length - after.length);
              if (middle.includes(' ')) continue;
              const lemma = frame.shape.initial + middle + own;
              if (!this.generator.lexeme(lemma).inLexicon) continue;
              for (const cell of frame.cells) consider(lemma, cell);
            }
          }
        }
        // The root ends where the frame's suffix begins; a locative suffix may differ by a few
        // letters (-eni, -ini, -weni), every other suffix must match as it is.
        const end = word.length - frame.after.length;
        const slack = frame.cells[0]!.form === 'locative' ? (this.generator.nouns?.grammar.locative_slack ?? SLACK) : 0;
        if (slack === 0 && !word.endsWith(frame.after) && !(unmarked && word.endsWith(plain(frame.after)))) continue;
        // A frame whose stem begins with consonants a rule reacts to (jj) may hold the whole root (jja).
        // So may a vowel-initial frame, the whole root of a verb of the lexicon that is one vowel (oa: ali-mw-o-a).
        const least = frame.cells[0]!.word_class === 'verb' && /^(?:[^aeiou]+|[aeiou])$/u.test(frame.shape.initial) ? i : i + 1;
        for (let j = Math.max(least, end - slack); j <= Math.min(word.length, end + slack); j++) {
          const middle = word.slice(i, j);
          if (middle.includes(' ')) continue;
          if (middle === '' && /^[aeiou]$/u.test(frame.shape.initial) && !this.generator.lexeme(frame.shape.initial + (this.generator.cartridge.verbs?.default_fv ?? 'a')).inLexicon) continue;
          for (const root of this.#candidates(frame, frame.shape.initial + middle)) {
            if (deleted && root === frame.shape.initial + middle) continue;
            const lemma = this.#lemma(root, frame);
            if (lemma === undefined) continue;
            // A short stem may be cited with a prothetic vowel (idya for -dya).
            const prothetic = frame.shape.short ? this.generator.cartridge.verbs?.prothetic_vowel?.vowel : undefined;
            let read = false;
            for (const citation of prothetic ? [lemma, prothetic + lemma] : [lemma]) {
              // The cells of a frame share their text around the placeholder, but a rule that looks
              // into the root (no lengthening before a long syllable) can still tell them apart for
              // a real root: every cell is checked.
              for (const cell of frame.cells) read = consider(citation, cell) || read;
            }
            // A citation the generator reads as another root (a guessed short stem behind a prothetic
            // vowel) never verifies as this root; the root may still be a shorter one with extensions.
            if (!read && frame.cells[0]!.word_class === 'verb' && !deleted && this.generator.lexeme(lemma).root !== root) {
              for (const cell of frame.cells) reread.push({ root, cell });
            }
          }
        }
      }
    }
    // Verb readings are also read as a shorter root with extensions: every reading of a known stem
    // (julisha: jua + causative) and the readings of the likeliest guessed roots (the rest would rank below them anyway).
    // The other guessed roots are read only as a known root with extensions, where one is behind them (a root after
    // an object concord, whose readings rank below those that take the concord into the root).
    const verbReadings = byScore([...found.values()].filter((r) => r.cell.word_class === 'verb' && !r.cell.extensions));
    const guessedRoots = [...new Set(verbReadings.filter((r) => !r.in_lexicon).map((r) => r.root))];
    const likeliest = new Set(guessedRoots.slice(0, GUESSED_ROOTS));
    const knownBehind = new Set(guessedRoots.slice(GUESSED_ROOTS).filter((root) => this.#knownBehind(root)));
    for (const reading of verbReadings) {
      const knownOnly = !reading.in_lexicon && !likeliest.has(reading.root);
      if (knownOnly && !knownBehind.has(reading.root)) continue;
      yield;
      this.#extended(reading.root, reading.cell, consider, 0, knownOnly);
    }
    for (const { root, cell } of reread) {
      yield;
      this.#extended(root, cell, consider);
    }
    yield* this.#innerObjects([...found.values()], consider);
    yield* this.#headedObjects(word, consider);
    // A guessed root that is the whole word (a bare imperative) is kept but ranked last (see score).
    return byScore([...found.values()]);
  }

  #headTenses?: string[];
  /** The tenses with a formation that agrees with a head (relatives of object or place), in either polarity. */
  #headedTenses(): string[] {
    this.#headTenses ??= (this.generator.cartridge.verbs?.tenses ?? []).filter((t) => formationUsesHead(t.positive) || formationUsesHead(t.negative)).map((t) => t.id);
    return this.#headTenses;
  }

  /**
   * A relative of object whose object marker is not its head's (bye bankolera 'what they do for me': head
   * class 8, object 1sg). The paradigm (enumerateCells) holds a headed relative with no object marker or the
   * head's only, as every object for every head would multiply its cells; so a word whose head agreement
   * stands before a space or an apostrophe (bye bankolera, by'ankolera) has the verb after it read alone,
   * and each of its verb readings is tried again in every headed tense with every head class: kept when it
   * generates the whole word.
   */
  *#headedObjects(word: string, consider: (lemma: string, cell: Cell) => boolean): Steps<void> {
    const tenses = this.#headedTenses();
    if (tenses.length === 0) return;
    const split = word.search(/[ ']/u);
    if (split <= 0 || split === word.length - 1) return;
    const heads = this.generator.agreementIds.filter((id) => this.generator.row(id)?.class !== undefined);
    const rest = yield* this.#analyze(word.slice(split + 1));
    for (const reading of rest) {
      const cell = reading.cell;
      if (cell.word_class !== 'verb' || cell.head !== undefined || !cell.object || cell.object === 'refl') continue;
      yield;
      for (const tense of tenses) {
        for (const head of heads) {
          if (head === cell.subject || head === cell.object) continue;
          consider(reading.lemma, { ...cell, tense, head });
        }
      }
    }
  }

  /**
   * A relative of object or place in one word whose object marker is not its head's (a book 'which you gave me':
   * head class 7, object 1sg). The paradigm holds a headed relative with no object marker or the head's only (see
   * #headedObjects), so such a word is first read with the object marker at the start of a guessed root: a headed
   * reading with no object whose guessed root begins with an object concord (or with it and the glide a rule adds
   * before a vowel) is read again with that object and the rest as the stem, a known one or a shorter root with
   * extensions, and kept when it generates the whole word.
   */
  *#innerObjects(readings: readonly Analysis[], consider: (lemma: string, cell: Cell) => boolean): Steps<void> {
    const fv = this.generator.cartridge.verbs?.default_fv ?? 'a';
    const objects: [string, string][] = [];
    for (const id of this.generator.agreementIds) {
      const concord = this.generator.row(id)?.concords.object;
      if (concord) objects.push([id, concord]);
    }
    for (const reading of readings) {
      const cell = reading.cell;
      if (cell.word_class !== 'verb' || cell.head === undefined || cell.object !== undefined || reading.in_lexicon) continue;
      for (const [id, concord] of objects) {
        if (id === cell.head || !reading.root.startsWith(concord)) continue;
        yield;
        for (const length of [concord.length, concord.length + 1]) {
          const root = reading.root.slice(length);
          if (root.length === 0 || !reading.lemma.startsWith(reading.root.slice(0, length))) continue;
          const withObject: Cell = { ...cell, object: id };
          consider(root + fv, withObject);
          if (reading.lemma !== reading.root + fv) consider(reading.lemma.slice(length), withObject);
          this.#extended(root, withObject, consider);
        }
      }
    }
  }

  /**
   * A root that ends in a verb extension of the cartridge (zaliw = za + passive liw, vunjiw
   * = vunj + applicative i + passive w) is also read as the shorter root with the extensions, when
   * that root is in the lexicon, or, for the passive alone, as a guess (the passive is the one
   * extension whose allomorphs few roots end in; a form marked `guess_vowel` also as a guessed loan verb
   * in that vowel). The shorter root may be cited with its own final
   * vowel (jibiw: jibu), be a vowel stem (sahauliw: sahau), or be what a rule at the root's end
   * rewrote (banjw: bamb + w); a lexical derivative (julish, pew) is read as the verb it derives
   * from. Every reading is verified by generation.
   */
  #extended(root: string, cell: Cell, consider: (lemma: string, cell: Cell) => boolean, depth = 0, knownOnly = false): void {
    const verbs = this.generator.cartridge.verbs;
    if (!verbs || depth >= EXTENSION_DEPTH) return;
    const fv = verbs.default_fv;
    for (const extension of verbs.extensions) {
      const extensions = [extension.id, ...(cell.extensions ?? [])];
      for (const [citation, derived] of Object.entries(extension.lexical)) {
        if ((derived.endsWith(fv) ? derived.slice(0, -fv.length) : derived) === root) consider(citation, { ...cell, extensions });
      }
      for (const form of new Set(extension.forms.map((f) => f.form))) {
        if (root.length <= form.length || !root.endsWith(form)) continue;
        // A form the cartridge marks `guess_vowel` is also guessed after a loan verb's own final vowel (shauriwa: shauri).
        const ownVowel = extension.forms.find((f) => f.form === form && f.guess_vowel !== undefined)?.guess_vowel;
        for (const base of this.#bases(root.slice(0, -form.length), form)) {
          // A one-consonant base is read only as a monosyllabic verb of the lexicon (lisha: la + causative, fia: fa + applicative), never guessed.
          const oneConsonant = !/[aeiou]/u.test(base) && base.length < 2;
          const lemmas = [base + fv, ...['e', 'i', 'o', 'u'].map((v) => base + v), ...(/[aeiou]$/u.test(base) ? [base] : [])];
          for (const lemma of lemmas) {
            const known = this.generator.lexeme(lemma).inLexicon;
            const guessed = !knownOnly && !oneConsonant && (extension.id === 'passive' || /[aeiou]/u.test(base)) && (lemma === base + fv || (ownVowel !== undefined && lemma === base + ownVowel));
            if (known || guessed) consider(lemma, { ...cell, extensions });
          }
          if (!oneConsonant) this.#extended(base, { ...cell, extensions }, consider, depth + 1, knownOnly);
        }
      }
    }
  }

  #supportForms?: string[];
  /** The stem support's forms (verbs.stem_support, and a tense's own), which stand before a short or vowel-initial stem. */
  #supports(): string[] {
    if (this.#supportForms) return this.#supportForms;
    const verbs = this.generator.cartridge.verbs;
    const out = new Set<string>();
    if (verbs?.stem_support?.morph) out.add(verbs.stem_support.morph);
    const visit = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(visit);
      else if (value !== null && typeof value === 'object') {
        for (const [key, inner] of Object.entries(value)) {
          if (key === 'stem_support' && typeof inner === 'string' && inner !== '') out.add(inner);
          else visit(inner);
        }
      }
    };
    visit(verbs?.tenses ?? []);
    this.#supportForms = [...out];
    return this.#supportForms;
  }

  /**
   * An extension's end as a rule wrote it, and as a later rule at the extension's start may have rewritten it after
   * the root (the passive perfect's iw, written w after a root in -l: dal + iw + e > dal + w + e).
   */
  #extensionStarts(text: string): string[] {
    const out = new Set([text]);
    for (const { from, to, edge, when } of this.#literalRewrites()) {
      const rewritten = to + text.slice(from.length);
      if (edge === 'start' && !when && text.startsWith(from) && rewritten !== '') out.add(rewritten);
    }
    return [...out];
  }

  /** Whether a guessed root is a known root (or a derived stem of the lexicon) with extensions: #extended without a guess. */
  #knownBehind(root: string): boolean {
    let known = false;
    this.#extended(
      root,
      { word_class: 'verb', polarity: 'positive' },
      () => {
        known = true;
        return false;
      },
      0,
      true,
    );
    return known;
  }

  /**
   * An extension's perfect whose suffix a second rule rewrote with the end of the stem before it
   * (thus + iw + ile > thus + ilwe > thusitswe; rekis + iw + ile > rekis + ilwe > rekisitswe): the
   * first rule emptied the extension and rewrote the suffix, the second reads that suffix backwards
   * to the stem's end, and the stem with the extension is read back to its root (#extended).
   */
  #rewrittenTwice(word: string, i: number, frame: FoundFrame, first: StemRewrite, consider: (lemma: string, cell: Cell) => boolean): void {
    const suffix = first.rightTo + frame.after.slice(first.right.length);
    for (const second of this.#stemRewrites()) {
      if (second === first || second.right === '' || !suffix.startsWith(second.right)) continue;
      const after = second.rightTo + suffix.slice(second.right.length);
      if (!word.endsWith(after) || word.length - after.length < i) continue;
      const middle = frame.shape.initial + word.slice(i, word.length - after.length);
      if (middle.includes(' ') || !middle.endsWith(second.leftTo) || (second.anchored && middle !== second.leftTo)) continue;
      for (const stem of this.#undo(middle.slice(0, middle.length - second.leftTo.length) + second.left)) {
        for (const cell of frame.cells) this.#extended(stem + first.left, cell, consider);
      }
    }
  }

  /**
   * What a stem read before an extension's form may have been before rules rewrote it: the literal
   * rewrites (#undo), and a rule that rewrote the root's end before that form, read backwards
   * (perfective passives: koz + w from kor + w, te + w from ter + w, with a pattern
   * such as [rg] or ^(su|te)r that #undo does not read), including a rule that took the extension's
   * first letters into the stem's end. Candidates only, verified by generation.
   */
  #bases(stem: string, form: string): string[] {
    const out = new Set(this.#undo(stem));
    for (const rw of this.#stemRewrites()) {
      // A rule that rewrote the stem's end before the extension's first letters and left them as they were (di + is > dis).
      if (rw.extension || rw.right === '' || !form.startsWith(rw.right)) continue;
      // A rule that rewrote the stem's end and took the extension's first letters into it (Cy + is > Cii + s):
      // the rewritten end and the rest of the extension are read back to the stem's end.
      if (rw.rightTo === '') {
        const whole = stem + form;
        const rewritten = rw.leftTo + form.slice(rw.right.length);
        if (rewritten.length > 0 && whole.endsWith(rewritten) && (!rw.anchored || whole === rewritten)) out.add(whole.slice(0, whole.length - rewritten.length) + rw.left);
        continue;
      }
      if (rw.rightTo !== rw.right || !stem.endsWith(rw.leftTo)) continue;
      if (rw.anchored && stem !== rw.leftTo) continue;
      // What that rule read back may itself be what an earlier literal rule rewrote (khungats + w > khungatf + w >
      // khungetf + w: etf is read back to atf, then atf to ats).
      for (const base of this.#undo(stem.slice(0, stem.length - rw.leftTo.length) + rw.left)) out.add(base);
    }
    return [...out];
  }

  /**
   * How much less likely than its twin a reading is: a lemma that is a citation variant of the
   * lexicon's (kuwa for wa) after the lexicon's own; a guessed noun cited in a plural class
   * (misamiati) after its singular (msamiati); a guessed locative (pwa-ni) after the plain noun (pwani).
   */
  #lesser(lemma: string, lexeme: Lexeme, cell: Cell): number {
    if (cell.word_class === 'verb') return (lexeme.inLexicon && lexeme.lemma !== lemma ? 0.5 : 0) + this.#infinitive(cell);
    if (lexeme.inLexicon) return lexeme.lemma !== lemma ? 0.5 : 0;
    if (cell.word_class !== 'noun') return 0;
    const ownPlural = (this.generator.nouns?.grammar.classes ?? []).some((c) => c.plural === cell.noun_class);
    return (ownPlural ? 0.2 : 0) + (cell.form === 'locative' ? 0.5 : 0);
  }

  /**
   * The infinitive a little before a finite form spelled alike (kuona: the infinitive 'to see' before class
   * 15 or 17 ku- + a tenseless present 'it will see', whose subject must be an infinitive or a place): a negative amount, too little to pass any other difference.
   */
  #infinitive(cell: Cell): number {
    this.#infinitives ??= new Set((this.generator.cartridge.verbs?.tenses ?? []).filter((t) => t.mood === 'infinitive').map((t) => t.id));
    return cell.tense !== undefined && this.#infinitives.has(cell.tense) ? -0.2 : 0;
  }

  /** The ids of the cartridge's infinitive tenses (made once: #infinitive runs for every verb candidate). */
  #infinitives?: Set<string>;

  get #plain(): (text: string) => string {
    return this.#lexicon.plain;
  }

  #lexical?: LexicalIndex;
  /** Every form of every non-verb lexicon entry (irregular plurals included), by surface. */
  #lexicalIndex(): LexicalIndex {
    if (this.#lexical) return this.#lexical;
    const cells = enumerateCells(this.generator);
    const steps = this.#lexicon.lexicalSteps(cells);
    let step = steps.next();
    while (!step.done) step = steps.next();
    this.#lexical = LexicalIndex.fromMap(step.value, cells, this.#cells());
    return this.#lexical;
  }

  /**
   * Roots (or stems) a frame's middle text may stand for: the text, what literal rules
   * rewrote, a root whose last vowel a rule changed (bulala -> bulele), and for nouns
   * the final vowel a locative suffix replaced.
   */
  #candidates(frame: FoundFrame, text: string): string[] {
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

  #rootRules?: RegExp[];
  /** Whether some rule rewrites the end of a root before this suffix (the perfect -ile of -ala verbs). */
  #rootRuleBefore(after: string): boolean {
    this.#rootRules ??= this.generator.cartridge.rules.filter((r) => r.left_to !== undefined && [r.left_slot ?? []].flat().includes('root')).map((r) => new RegExp(`^(?:${r.right})`, 'u'));
    return this.#rootRules.some((re) => re.test(after) || re.test(this.#plain(after)));
  }

  /** The text and what the cartridge's literal rules may have rewritten it from (undo in rule-literals.ts). */
  #undo(text: string): string[] {
    return undo(text, this.#literalRewrites());
  }

  #stemRewriteCache?: StemRewrite[];
  /** Rules rewriting a root's end and the suffix after it, spelled out as literal pairs (see literalAlternatives). */
  #stemRewrites(): StemRewrite[] {
    this.#stemRewriteCache ??= stemRewrites(this.generator.cartridge.rules);
    return this.#stemRewriteCache;
  }

  #rewrites?: LiteralRewrite[];
  /** The cartridge's rules with literal patterns at a morph's edge (literalRewrites in rule-literals.ts). */
  #literalRewrites(): LiteralRewrite[] {
    this.#rewrites ??= literalRewrites(this.generator.cartridge.rules);
    return this.#rewrites;
  }

  #cellList?: CellList;
  /**
   * Every cell of the paradigm, packed (an object made when a frame or lexical entry gives it). A build
   * of the frames or of the lexical index works on its own cells as objects, gone once packed.
   */
  #cells(): CellList {
    this.#cellList ??= PackedCells.of(enumerateCells(this.generator));
    return this.#cellList;
  }

  #lemma(root: string, frame: FoundFrame): string | undefined {
    if (frame.lemmaPrefix !== undefined) return frame.lemmaPrefix + root;
    if (frame.cells[0]!.word_class !== 'verb') return root;
    if (!/[a-z]/u.test(root)) return undefined;
    if (this.generator.cartridge.verbs?.citation === 'root') return frame.shape.ownFinalVowel === null ? root : undefined;
    const fv = frame.shape.ownFinalVowel ?? this.generator.cartridge.verbs?.default_fv ?? 'a';
    return root + fv + (frame.shape.enclitic ?? '');
  }

  #index(): PackedFrames {
    if (this.#frames) return this.#frames;
    const cells = enumerateCells(this.generator);
    const steps = this.#frameBuilder.build(cells);
    let step = steps.next();
    while (!step.done) step = steps.next();
    this.#frames = PackedFrames.pack(step.value, cells, this.#cells());
    return this.#frames;
  }

  /**
   * Builds the indexes the analyser reads from the lexicon (nouns' stems, plurals and citation
   * readings, invariable words) in slices, so the first analysis does not: about 50 ms for a
   * lexicon of a few thousand nouns, one step a noun.
   */
  async prepareLexiconInBackground(sliceMs = 20): Promise<void> {
    await runStepsInSlices(this.#lexicon.indexSteps(), sliceMs);
  }

  /**
   * Builds the frames in slices, yielding to the event loop between them, so a server
   * warming up keeps answering (and can shut down). An analysis arriving meanwhile
   * builds them at once instead.
   */
  async warmInBackground(sliceMs = 20): Promise<void> {
    const cells = enumerateCells(this.generator);
    const steps = this.#frameBuilder.build(cells);
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
    this.#frames ??= PackedFrames.pack(step.value, cells, this.#cells());
    const lexicalSteps = this.#lexicon.lexicalSteps(cells);
    let lexicalStep = lexicalSteps.next();
    while (!lexicalStep.done) {
      if (this.#lexical) return;
      if (performance.now() - sliceStart >= sliceMs) {
        await new Promise((resolve) => setImmediate(resolve));
        sliceStart = performance.now();
      }
      lexicalStep = lexicalSteps.next();
    }
    this.#lexical ??= LexicalIndex.fromMap(lexicalStep.value, cells, this.#cells());
  }
}
