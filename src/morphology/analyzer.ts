/**
 * Analysis by frames: every cell of the paradigm is generated once with a
 * placeholder root, which gives the text before and after the root (the frame).
 * A surface form is matched against the frames, the text between them proposes
 * a root (from the lexicon or not), and each proposal is kept only when
 * generating that cell with that root gives back exactly the surface form.
 * Frames are built once per cartridge, on first use.
 */
import type { Cell, Generated, Generator, Lexeme } from './generator.js';

const HOLE = '\u0001';
/** Letters a rule may change at the end of a root (perfect allomorphy and the like). */
const SLACK = 3;

/** One way a root can meet its affixes; each shape gives its own frames. */
interface Shape {
  /** Root text before the hole (a root-initial vowel whose coalescence the frame must see). */
  initial: string;
  /** The lexeme keeps this final vowel (loan verbs), or null. */
  ownFinalVowel: string | null;
  short: boolean;
}

interface Frame {
  cell: Cell;
  shape: Shape;
  before: string;
  after: string;
}

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
          if (formation.absent || (variant && !tense.variants[variant]?.[polarity])) continue;
          const subjects = formation.no_subject && !formation.plural_suffix && !formation.fv_plural ? [undefined] : rows;
          for (const subject of subjects) {
            for (const object of [undefined, 'refl', ...rows]) {
              cells.push({ word_class: 'verb', tense: tense.id, polarity, ...(subject ? { subject } : {}), ...(object ? { object } : {}), ...(variant ? { variant } : {}) });
            }
          }
        }
      }
    }
  }
  for (const wordClass of generator.cartridge.words?.classes ?? []) {
    for (const subject of rows) cells.push({ word_class: wordClass.id, polarity: 'positive', subject });
  }
  return cells;
}

export class Analyzer {
  #frames?: Map<string, Frame[]>;
  #lexemes = new Map<string, Lexeme>();

  constructor(private readonly generator: Generator) {}

  /** Builds the frames now rather than on the first analysis. */
  warm(): void {
    this.#index();
  }

  /** Every analysis of `surface`, most plausible first. */
  analyze(surface: string): Analysis[] {
    const word = surface.trim().toLowerCase();
    if (!word) return [];
    const found = new Map<string, Analysis>();
    const consider = (lemma: string, cell: Cell) => {
      const key = `${lemma}\t${JSON.stringify(cell)}`;
      if (found.has(key)) return;
      const lexeme = this.generator.lexeme(lemma, cell.word_class);
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
        if (generated.surface !== word) continue;
        const penalty = reading === lexeme ? 0 : 1;
        found.set(key, { lemma, root: lexeme.root, in_lexicon: lexeme.inLexicon, gloss: lexeme.gloss, cell, generated, score: score(lexeme, cell, generated) - penalty });
        return;
      }
    };
    const frames = this.#index();
    for (let i = 0; i < word.length; i++) {
      for (const frame of frames.get(word.slice(0, i)) ?? []) {
        // The root ends where the frame's suffix begins, give or take the few letters a rule may change.
        const end = word.length - frame.after.length;
        for (let j = Math.max(i + 1, end - SLACK); j <= Math.min(word.length, end + SLACK); j++) {
          const middle = word.slice(i, j);
          if (middle.includes(' ')) continue;
          for (const root of this.#undo(frame.shape.initial + middle)) {
            const lemma = this.#lemma(root, frame);
            if (lemma !== undefined) consider(lemma, frame.cell);
          }
        }
      }
    }
    // Agreeing word classes have small paradigms: try every stem the word could end in.
    for (const cell of this.#wordCells()) {
      for (let i = 0; i < Math.min(word.length - 1, 4); i++) {
        for (const initial of ['', 'a', 'e', 'i', 'o', 'u']) for (const stem of this.#undo(initial + word.slice(i))) consider(stem, cell);
      }
    }
    const all = [...found.values()];
    // A guessed root that is the whole word (a bare imperative) says nothing when the word has a real parse.
    const structured = all.filter((a) => a.in_lexicon || !isBare(a.generated));
    return (structured.length > 0 ? structured : all).sort((a, b) => b.score - a.score || a.lemma.localeCompare(b.lemma));
  }

  /**
   * The text itself and what it was before a rule with literal patterns rewrote its
   * edges (ndefu <- ndefu, refu): candidates only, every one is verified by generation.
   */
  #undo(text: string): string[] {
    const out = new Set([text]);
    for (const { from, to, edge } of this.#literalRewrites()) {
      if (edge === 'start' && to !== '' && text.startsWith(to)) out.add(from + text.slice(to.length));
      if (edge === 'end' && to !== '' && text.endsWith(to)) out.add(text.slice(0, text.length - to.length) + from);
    }
    return [...out];
  }

  #rewrites?: Array<{ from: string; to: string; edge: 'start' | 'end' }>;
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
      if (rule.left_to !== undefined && literal.test(rule.left) && literal.test(rule.left_to || 'x')) {
        this.#rewrites.push({ from: rule.left, to: rule.left_to, edge: 'end' });
      }
    }
    return this.#rewrites;
  }

  #wordCells(): Cell[] {
    return this.#cells().filter((c) => c.word_class !== 'verb');
  }

  #cellCache?: Cell[];
  #cells(): Cell[] {
    this.#cellCache ??= enumerateCells(this.generator);
    return this.#cellCache;
  }

  #lemma(root: string, frame: Frame): string | undefined {
    if (frame.cell.word_class !== 'verb') return root;
    if (!/[a-z]/u.test(root)) return undefined;
    const fv = frame.shape.ownFinalVowel ?? this.generator.cartridge.verbs?.default_fv ?? 'a';
    return root + fv;
  }

  #index(): Map<string, Frame[]> {
    if (this.#frames) return this.#frames;
    const frames = new Map<string, Frame[]>();
    const vowels = ['a', 'e', 'i', 'o', 'u'];
    const verbShapes: Shape[] = [
      { initial: '', ownFinalVowel: null, short: false },
      { initial: '', ownFinalVowel: null, short: true },
      ...vowels.map((v) => ({ initial: v, ownFinalVowel: null, short: false })),
      ...vowels.map((v) => ({ initial: v, ownFinalVowel: null, short: true })),
      ...['i', 'u', 'e', 'o'].map((v) => ({ initial: '', ownFinalVowel: v, short: false })),
    ];
    for (const cell of this.#cells()) {
      if (cell.word_class !== 'verb') continue;
      for (const shape of verbShapes) {
        let surface: string;
        try {
          surface = this.generator.generateWith(this.#placeholder(shape), cell).surface;
        } catch {
          continue;
        }
        const at = surface.indexOf(HOLE);
        if (at < 0) continue;
        const frame: Frame = { cell, shape, before: surface.slice(0, at), after: surface.slice(at + 1) };
        const list = frames.get(frame.before);
        if (list) list.push(frame);
        else frames.set(frame.before, [frame]);
      }
    }
    this.#frames = frames;
    return frames;
  }

  #placeholder(shape: Shape): Lexeme {
    const key = `${shape.initial}|${shape.ownFinalVowel}|${shape.short}`;
    let lexeme = this.#lexemes.get(key);
    if (!lexeme) {
      const root = shape.initial + HOLE;
      lexeme = { lemma: root, root, ownFinalVowel: shape.ownFinalVowel, short: shape.short, inLexicon: false, gloss: null };
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

/** Plausibility: known roots first, then plain cells over variants and reflexive/object readings. */
function score(lexeme: Lexeme, cell: Cell, generated: Generated): number {
  let s = 0;
  if (isBare(generated)) s -= 3;
  if (lexeme.inLexicon) s += 10;
  if (!cell.variant) s += 2;
  if (!cell.object) s += 1;
  if (cell.polarity === 'positive') s += 0.5;
  return s;
}
