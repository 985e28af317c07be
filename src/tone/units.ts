/**
 * Tone-bearing units (TBUs) of a word: its syllables (from the cartridge's syllabifier when it has
 * a phonology file, else open syllables C*V split on the cartridge's vowel letters) or its moras
 * (a long vowel, written double, is two). Each TBU knows its onset and the morph its vowel belongs to.
 */
import type { Phonology } from '../morphology/phonology.js';
import { syllabify } from '../morphology/syllables.js';

/** A morph of a word as the generator gives it (after segmental rules). */
export interface WordMorph {
  slot: string;
  form: string;
  id?: string;
}

export interface Tbu {
  text: string;
  /** Index of the first character in the word. */
  start: number;
  /** The consonants before the vowel. */
  onset: string;
  /** Index into the word's morphs of the morph holding the TBU's vowel. */
  morph: number;
}

export interface UnitOptions {
  unit: 'syllable' | 'mora';
  /** Whether a letter is a vowel (lower case). */
  isVowel: (ch: string) => boolean;
  phonology?: Phonology;
}

/** Splits `word` (the concatenation of `morphs`) into TBUs. */
export function toneBearingUnits(word: string, morphs: readonly WordMorph[], options: UnitOptions): Tbu[] {
  const owner: number[] = [];
  morphs.forEach((m, i) => {
    for (let k = 0; k < m.form.length; k++) owner.push(i);
  });
  const isVowel = options.isVowel;
  let syllables = options.phonology ? syllabify(word, options.phonology) : [];
  if (syllables.join('') !== word) syllables = openSyllables(word, isVowel);
  const units: Tbu[] = [];
  let offset = 0;
  for (const syllable of syllables) {
    const pieces = options.unit === 'mora' ? moras(syllable, isVowel) : [syllable];
    for (const text of pieces) {
      const firstVowel = [...text].findIndex(isVowel);
      const nucleus = offset + (firstVowel >= 0 ? firstVowel : 0);
      units.push({ text, start: offset, onset: firstVowel >= 0 ? text.slice(0, firstVowel) : '', morph: owner[Math.min(nucleus, owner.length - 1)] ?? 0 });
      offset += text.length;
    }
  }
  return units;
}

/** Open syllables: consonants up to and including a vowel (a doubled vowel stays in its syllable); trailing consonants join the last. */
function openSyllables(word: string, isVowel: (ch: string) => boolean): string[] {
  const out: string[] = [];
  let current = '';
  const chars = [...word];
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    current += ch;
    if (isVowel(ch)) {
      while (i + 1 < chars.length && chars[i + 1]!.toLowerCase() === ch.toLowerCase()) current += chars[++i]!;
      out.push(current);
      current = '';
    }
  }
  if (current) {
    if (out.length) out[out.length - 1] += current;
    else out.push(current);
  }
  return out;
}

/** A syllable with a doubled vowel is two moras: baa -> ba + a. */
function moras(syllable: string, isVowel: (ch: string) => boolean): string[] {
  const chars = [...syllable];
  const v = chars.findIndex(isVowel);
  if (v < 0 || v + 1 >= chars.length || chars[v + 1]!.toLowerCase() !== chars[v]!.toLowerCase()) return [syllable];
  return [chars.slice(0, v + 1).join(''), chars.slice(v + 1).join('')];
}
