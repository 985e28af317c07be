/**
 * The generic tone engine: from a generated word (its morphs after segmental rules) and the
 * cartridge's tone data, the underlying tone of each tone-bearing unit (lexical tone of the root,
 * tones of grammatical morphs, the tense's melody), then the ordered tone rules, then the surface
 * tones with a tone-marked transcription. Toneless TBUs that no H reaches surface low (default).
 * A root without recorded tone gives no analysis: tones are never guessed.
 */
import type { Phonology } from '../morphology/phonology.js';
import { DOWNSTEP, markTbu } from './marks.js';
import { applyRule, conditionHolds, type RuleContext, type ToneState } from './rules.js';
import type { LexicalTone, Melody, Position, ToneData, ToneRule } from '../cartridge/tone.js';
import { toneBearingUnits, type Tbu, type WordMorph } from './units.js';

export type UnderlyingTone = 'H' | 'L' | '0';

/** One TBU of the analysis. */
export interface TbuTone {
  text: string;
  /** The slot of the morph the TBU's vowel belongs to, and that morph's form. */
  morph: string;
  morph_form: string;
  /** H, L (specified low) or 0 (toneless) before the rules. */
  underlying: UnderlyingTone;
  /** What brought the underlying tone: `root`, `tam`, `melody:<id>`, ... */
  underlying_from: string | null;
  surface: 'H' | 'L';
  /** Which H tone the surface H belongs to (its origin); null for a low TBU. */
  surface_from: string | null;
  downstep: boolean;
  /** Ids of the rules that changed this TBU, in order of application. */
  rules: string[];
}

export interface WordTone {
  surface: string;
  /** Acute on high TBUs, grave on low ones. */
  transcription: string;
  /** Acute on high TBUs only (the Bantuist convention), ꜜ before a downstepped TBU. */
  transcription_high: string;
  units: TbuTone[];
  rules_applied: Array<{ id: string; type: ToneRule['type']; description: string; source: string }>;
  sources: string[];
}

export interface WordInput {
  morphs: WordMorph[];
  /** Whether the form has an object marker (for the cartridge's coverage). */
  hasObject?: boolean;
  /** The lexical root to look up (defaults to the form in the `root` slot). */
  root?: string;
  tense?: string;
  polarity: 'positive' | 'negative';
  wordClass: string;
}

/**
 * Why a word has no tonal analysis. Not an error of the request (no catalogue code): the edge reports
 * it as the tonal analysis's status `not_available` with `message` as its note.
 */
export type ToneGapReason = 'root_tone_unknown' | 'no_root' | 'form_not_covered';

export type WordOutcome = { ok: true; value: WordTone } | { ok: false; reason: ToneGapReason; message: string };

const STEM_SLOTS = new Set(['root', 'extensions', 'fv']);
const MACROSTEM_SLOTS = new Set(['object', 'stem_support', 'root', 'extensions', 'fv']);

export class ToneEngine {
  readonly #roots = new Map<string, LexicalTone>();
  readonly #isVowel: (ch: string) => boolean;
  readonly #depressor?: RegExp;

  constructor(
    readonly data: ToneData,
    private readonly phonology?: Phonology,
  ) {
    for (const list of data.lexical) {
      for (const entry of list.entries) this.#roots.set(entry.root, { ...entry, source: entry.source ?? list.source });
    }
    const vowels = new Set([...data.vowels.normalize('NFC')]);
    this.#isVowel = (ch) => vowels.has(ch.toLowerCase());
    if (data.depressors) this.#depressor = new RegExp(`^(?:${data.depressors.pattern})`, 'u');
  }

  /** The lexical tone entries, by root. */
  get lexicon(): ReadonlyMap<string, LexicalTone> {
    return this.#roots;
  }

  lexicalTone(root: string): LexicalTone | undefined {
    return this.#roots.get(root);
  }

  /** Tones of one word. */
  analyseWord(input: WordInput): WordOutcome {
    const morphs = input.morphs.filter((m) => m.form !== '');
    const word = morphs.map((m) => m.form).join('');
    const units = toneBearingUnits(word, morphs, { unit: this.data.unit, isVowel: this.#isVowel, ...(this.phonology ? { phonology: this.phonology } : {}) });
    const coverage = this.data.coverage;
    if (coverage) {
      const hasObject = input.hasObject ?? morphs.some((m) => m.slot === 'object');
      const subject = morphs.find((m) => m.slot === 'subject')?.id;
      const covered = coverage.some(
        (c) => c.tense === input.tense && (c.polarity === 'both' || c.polarity === input.polarity) && c.object === hasObject && (!c.subject || (subject !== undefined && c.subject.includes(subject))),
      );
      if (!covered) {
        const what = `the ${input.tense ?? 'form'} (${input.polarity}${hasObject ? ', with an object marker' : ''}${subject ? `, subject ${subject}` : ''})`;
        return { ok: false, reason: 'form_not_covered', message: `the tone data does not describe ${what}; tones are not guessed` };
      }
    }
    const rootIndex = morphs.findIndex((m) => m.slot === 'root');
    if (rootIndex < 0) return { ok: false, reason: 'no_root', message: 'the word has no root morph' };
    const rootKey = input.root ?? morphs[rootIndex]!.form;
    const lexical = this.#roots.get(rootKey) ?? this.#roots.get(morphs[rootIndex]!.form);
    if (!lexical) return { ok: false, reason: 'root_tone_unknown', message: `no lexical tone is recorded for the root "${rootKey}"; tones are not guessed` };
    const context: RuleContext = {
      polarity: input.polarity,
      wordClass: input.wordClass,
      ...(input.tense ? { tense: input.tense } : {}),
      ...(this.#depressor ? { depressor: this.#depressor } : {}),
      position: (position) => positionIndex(units, morphs, position),
    };
    const state: ToneState = { units, highs: [], lows: new Set(), downsteps: new Set(), touched: units.map(() => []) };
    const lowFrom = new Map<number, string>();
    const sources = new Set<string>([this.data.unlisted_morphs.source]);

    const tbusOf = (morph: number): number[] => {
      const own = units.flatMap((u, i) => (u.morph === morph ? [i] : []));
      if (own.length) return own;
      // A morph without a vowel of its own (a C root before the final vowel) docks on the TBU that holds its consonants.
      const start = morphs.slice(0, morph).reduce((n, m) => n + m.form.length, 0);
      const holder = units.findIndex((u) => u.start <= start && start < u.start + u.text.length);
      return holder >= 0 ? [holder] : [];
    };
    const place = (indices: number[], pattern: string, origin: string, originSlot: string, source: string) => {
      const letters = pattern.length === 1 ? [pattern, ...indices.slice(1).map(() => '0')] : [...pattern];
      indices.forEach((index, k) => {
        const tone = letters[k] ?? '0';
        if (tone === 'H' && !state.highs.some((h) => !h.deleted && h.start <= index && index <= h.end)) {
          state.highs.push({ start: index, end: index, origin, originSlot, source, deleted: false });
        }
        if (tone === 'L') {
          state.lows.add(index);
          lowFrom.set(index, origin);
        }
      });
      sources.add(source);
    };

    morphs.forEach((morph, i) => {
      if (i === rootIndex) {
        place(tbusOf(i), lexical.tone, 'root', 'root', lexical.source);
        return;
      }
      const entry = this.data.morphs.find((t) => t.slot === morph.slot && matches(t.id, morph.id) && matches(t.form, morph.form) && conditionHolds(t.when, context));
      if (entry) place(tbusOf(i), entry.tone, morph.slot, morph.slot, entry.source);
    });

    for (const melody of this.data.melodies) {
      if (!conditionHolds(melody.when, context)) continue;
      const rootHigh = lexical.tone.includes('H');
      if ((melody.root === 'high' && !rootHigh) || (melody.root === 'toneless' && rootHigh)) continue;
      this.#applyMelody(state, melody, morphs, lowFrom);
      sources.add(melody.source);
    }

    const underlying = units.map((_, i): { tone: UnderlyingTone; from: string | null } => {
      const high = state.highs.find((h) => !h.deleted && h.start <= i && i <= h.end);
      if (high) return { tone: 'H', from: high.origin };
      if (state.lows.has(i)) return { tone: 'L', from: lowFrom.get(i) ?? null };
      return { tone: '0', from: null };
    });

    const applied: WordTone['rules_applied'] = [];
    for (const rule of this.data.rules) {
      if (applyRule(state, rule, context)) {
        applied.push({ id: rule.id, type: rule.type, description: rule.description, source: rule.source });
        sources.add(rule.source);
      }
    }

    const tones: TbuTone[] = units.map((unit, i) => {
      const high = state.highs.find((h) => !h.deleted && h.start <= i && i <= h.end);
      const morph = morphs[unit.morph]!;
      return {
        text: unit.text,
        morph: morph.slot,
        morph_form: morph.form,
        underlying: underlying[i]!.tone,
        underlying_from: underlying[i]!.from,
        surface: high ? 'H' : 'L',
        surface_from: high?.origin ?? null,
        downstep: state.downsteps.has(i),
        rules: state.touched[i]!,
      };
    });
    return {
      ok: true,
      value: {
        surface: word,
        transcription: tones.map((t) => (t.downstep ? DOWNSTEP : '') + markTbu(t.text, t.surface, this.#isVowel)).join(''),
        transcription_high: tones.map((t) => (t.downstep ? DOWNSTEP : '') + markTbu(t.text, t.surface === 'H' ? 'H' : null, this.#isVowel)).join(''),
        units: tones,
        rules_applied: applied,
        sources: [...sources],
      },
    };
  }

  #applyMelody(state: ToneState, melody: Melody, morphs: WordMorph[], lowFrom: Map<number, string>): void {
    if (melody.replaces_lexical) for (const h of state.highs) if (h.originSlot === 'root') h.deleted = true;
    for (const { position, tone } of melody.assign) {
      const index = positionIndex(state.units, morphs, position);
      if (index === undefined) continue;
      const origin = `melody:${melody.id}`;
      if (tone === 'H') {
        state.lows.delete(index);
        if (!state.highs.some((h) => !h.deleted && h.start <= index && index <= h.end)) {
          state.highs.push({ start: index, end: index, origin, originSlot: 'melody', source: melody.source, deleted: false });
        }
      } else {
        for (const h of state.highs) {
          if (h.deleted || index < h.start || index > h.end) continue;
          if (h.start === h.end) h.deleted = true;
          else if (index === h.start) h.start++;
          else if (index === h.end) h.end--;
        }
        state.lows.add(index);
        lowFrom.set(index, origin);
      }
    }
  }
}

function matches(expected: string | string[] | undefined, actual: string | undefined): boolean {
  if (expected === undefined) return true;
  if (actual === undefined) return false;
  return Array.isArray(expected) ? expected.includes(actual) : expected === actual;
}

/** The TBU index of a melody position, or undefined when the word has no such TBU. */
export function positionIndex(units: Tbu[], morphs: WordMorph[], position: Position): number | undefined {
  const last = units.length - 1;
  const inSlots = (slots: Set<string>) => units.flatMap((u, i) => (slots.has(morphs[u.morph]!.slot) ? [i] : []));
  let index: number | undefined;
  switch (position) {
    case 'word_initial':
      index = 0;
      break;
    case 'word_final':
      index = last;
      break;
    case 'penult':
      index = last - 1;
      break;
    case 'antepenult':
      index = last - 2;
      break;
    case 'stem_initial':
      index = inSlots(STEM_SLOTS)[0];
      break;
    case 'stem_second':
      index = inSlots(STEM_SLOTS)[1];
      break;
    case 'stem_final':
      index = inSlots(STEM_SLOTS).at(-1);
      break;
    case 'macrostem_initial':
      index = inSlots(MACROSTEM_SLOTS)[0];
      break;
    case 'stem_penult': {
      // The word's penult when it belongs to the stem, else the stem's last unit (a one-unit stem).
      const stem = inSlots(STEM_SLOTS);
      index = stem.includes(last - 1) ? last - 1 : stem.at(-1);
      break;
    }
  }
  return index !== undefined && index >= 0 && index <= last ? index : undefined;
}
