/**
 * The frames of the analyzer (src/morphology/analyzer.ts): every cell of the paradigm generated
 * once with a placeholder root per stem shape, which gives the text before and after the root.
 */
import type { Cell, Generator, Lexeme } from './generator.js';
import { plainSpelling } from './lexicon-readings.js';
import type { Frame, Shape } from './packed-frames.js';
import { reactingInitials } from './rule-literals.js';

const HOLE = '\u0001';

export class FrameBuilder {
  #lexemes = new Map<string, Lexeme>();

  constructor(private readonly generator: Generator) {}

  #initials?: string[];
  /**
   * Stem beginnings a prefix can react to, each giving its own frames: nothing, a vowel, and
   * every letter (or letter + h) that some rule's right-hand pattern matches (the labials,
   * aspirates and clicks a nasal prefix changes). Read from the cartridge's rules.
   */
  #stemInitials(): string[] {
    this.#initials ??= ['', 'a', 'e', 'i', 'o', 'u', ...reactingInitials(this.generator.cartridge.rules, () => true)];
    return this.#initials;
  }

  #nounInitialCache?: string[];
  /** Stem beginnings for noun frames: as #stemInitials, counting only the rules that may apply to nouns. */
  #nounInitials(): string[] {
    this.#nounInitialCache ??= ['', 'a', 'e', 'i', 'o', 'u', ...reactingInitials(this.generator.cartridge.rules, (r) => !r.when?.word_class || r.when.word_class.includes('noun'))];
    return this.#nounInitialCache;
  }

  /** Consonant stem beginnings that a rule which may apply to verbs reacts to (1sg nasal + b -> mb). */
  #verbInitials(): string[] {
    return reactingInitials(this.generator.cartridge.rules, (r) => !r.when?.word_class || r.when.word_class.includes('verb')).filter((c) => !/^[aeiou]/u.test(c));
  }

  /**
   * Consonant beginnings paired with a final vowel of their own, for the lexicon's verbs that keep one
   * (a stem in -e such as a defective perfective): a rule before a voiceless consonant (a negative
   * ta > da) must see both the stem's first letter and its vowel. Only the pairs the lexicon has, so the
   * frame count grows by a few shapes, not by every initial times every vowel.
   */
  #ownVowelInitials(): Shape[] {
    const initials = [...this.#verbInitials()].sort((a, b) => b.length - a.length);
    const seen = new Map<string, Shape>();
    for (const e of this.generator.cartridge.lexicon) {
      if (e.word_class !== 'verb') continue;
      // the generator's own reading of the lemma decides whether it keeps its vowel
      const vowel = this.generator.lexeme(e.lemma).ownFinalVowel;
      const initial = initials.find((c) => e.lemma.startsWith(c));
      if (!vowel || !initial || !['i', 'u', 'e', 'o'].includes(vowel)) continue;
      seen.set(`${initial}|${vowel}`, { initial, ownFinalVowel: vowel, short: false });
    }
    return [...seen.values()];
  }

  /** The frame index, one cell per step. */
  *build(cells: Cell[]): Iterator<void, Map<string, Frame[]>> {
    const frames = new Map<string, Frame[]>();
    const vowels = ['a', 'e', 'i', 'o', 'u'];
    const verbShapes: Shape[] = [
      { initial: '', ownFinalVowel: null, short: false },
      { initial: '', ownFinalVowel: null, short: true },
      ...vowels.map((v) => ({ initial: v, ownFinalVowel: null, short: false })),
      ...vowels.map((v) => ({ initial: v, ownFinalVowel: null, short: true })),
      ...['i', 'u', 'e', 'o'].map((v) => ({ initial: '', ownFinalVowel: v, short: false })),
      ...this.#verbInitials().map((c) => ({ initial: c, ownFinalVowel: null, short: false })),
      ...this.#ownVowelInitials(),
      ...(this.generator.cartridge.verbs?.enclitics?.forms ?? []).map((enclitic) => ({ initial: '', ownFinalVowel: null, short: false, enclitic })),
    ];
    const plain = plainSpelling(this.generator);
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
    for (const cell of cells) {
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
          const options = plural ? nouns.pluralPrefixes(cls.plural_prefixes ?? plural.prefixes, citation) : cell.number === 'pl' ? cls.prefixes : [citation];
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
