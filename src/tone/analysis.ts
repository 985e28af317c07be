/**
 * The `tonal_analysis` of a conjugation result: per word and tone-bearing unit the underlying
 * and surface tone, the morph that brought it and the rules applied, plus a tone-marked
 * transcription. A language without lexical tone says so; missing data is said, never guessed.
 */
import type { CartridgeMetadata } from '../cartridge/cartridge.js';
import type { ToneEngine, WordTone } from './engine.js';
import type { WordMorph } from './units.js';

export interface TonalAnalysis {
  /**
   * analysed: tones computed from the cartridge's tone data; not_tonal: the language has no tone;
   * not_requested: include_tones was not true; not_available: no tone data (or none for this root).
   */
  status: 'analysed' | 'not_tonal' | 'not_requested' | 'not_available';
  note: string;
  /** Tone-bearing unit of the analysis. */
  unit?: 'syllable' | 'mora';
  /** The whole form tone-marked: acute = high, grave = low. */
  transcription?: string;
  /** The whole form with only high tones marked (the usual Bantuist notation), ꜜ = downstep. */
  transcription_high?: string;
  words?: WordTone[];
}

export interface AnalysedWord {
  morphs: WordMorph[];
  tense?: string;
  polarity: 'positive' | 'negative';
}

/** The tonal analysis of a generated form (its words), or a status saying why there is none. */
export function tonalAnalysis(metadata: CartridgeMetadata, engine: ToneEngine | undefined, words: AnalysedWord[], options: { include: boolean; root?: string; wordClass: string }): TonalAnalysis {
  const name = metadata.name;
  if (metadata.lexical_tone === false) {
    return { status: 'not_tonal', note: `${name} has no lexical or grammatical tone; there are no tones to mark` };
  }
  if (!options.include) return { status: 'not_requested', note: 'pass include_tones=true for the tonal analysis' };
  if (!engine) return { status: 'not_available', note: `tone data for ${name} is not available yet; no tones are guessed` };
  const analysed: WordTone[] = [];
  for (const word of words) {
    if (!word.morphs.some((m) => m.slot === 'root')) {
      return { status: 'not_available', note: `the word "${word.morphs.map((m) => m.form).join('')}" has no root the tone data covers; no tones are guessed` };
    }
    const isMain = word === words.filter((w) => w.morphs.some((m) => m.slot === 'root')).at(-1);
    const outcome = engine.analyseWord({
      morphs: word.morphs,
      ...(isMain && options.root ? { root: options.root } : {}),
      ...(word.tense ? { tense: word.tense } : {}),
      polarity: word.polarity,
      wordClass: options.wordClass,
    });
    if (!outcome.ok) return { status: 'not_available', note: outcome.message };
    analysed.push(outcome.value);
  }
  return {
    status: 'analysed',
    note: 'toneless units surface low (default); rules are applied in the order the cartridge lists them',
    unit: engine.data.unit,
    transcription: analysed.map((w) => w.transcription).join(' '),
    transcription_high: analysed.map((w) => w.transcription_high).join(' '),
    words: analysed,
  };
}
