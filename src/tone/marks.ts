/**
 * Tone marks in writing: acute (H), grave (L), circumflex (falling), caron (rising), macron (mid)
 * and the downstep letter ꜜ. Stripping them gives the segments; reading them gives a tone per vowel.
 */

const ACUTE = '\u0301';
const GRAVE = '\u0300';
/** Combining marks that write tone (acute, grave, circumflex, caron, macron, double acute/grave). */
const TONE_MARKS = /[\u0301\u0300\u0302\u030C\u0304\u030B\u030F]/gu;
export const DOWNSTEP = 'ꜜ';

/** The text without tone marks (other diacritics kept), NFC. */
export function stripTones(text: string): string {
  return text.normalize('NFD').replace(TONE_MARKS, '').replaceAll(DOWNSTEP, '').replaceAll('!', '').normalize('NFC');
}

/** Whether a text carries any tone mark. */
export function hasToneMarks(text: string): boolean {
  return /[\u0301\u0300\u0302\u030C\u0304\u030B\u030F]/u.test(text.normalize('NFD'));
}

/** The tone of each tone-marked letter, in order: H, L, F (falling), R (rising), M; unmarked letters are skipped. */
export function toneLetters(text: string): string {
  let out = '';
  for (const ch of text.normalize('NFD')) {
    if (ch === ACUTE) out += 'H';
    else if (ch === GRAVE) out += 'L';
    else if (ch === '\u0302') out += 'F';
    else if (ch === '\u030C') out += 'R';
    else if (ch === '\u0304') out += 'M';
    else if (ch === '\u030B') out += 'H';
    else if (ch === '\u030F') out += 'L';
  }
  return out;
}

const PRECOMPOSED: Record<string, string> = Object.fromEntries(
  [...'aeiouAEIOU'].flatMap((v) => [
    [`${v}H`, `${v}${ACUTE}`.normalize('NFC')],
    [`${v}L`, `${v}${GRAVE}`.normalize('NFC')],
  ]),
);

/** Puts a tone mark on the first vowel of `text` (or its first letter when it has no vowel). */
export function markTbu(text: string, tone: 'H' | 'L' | null, isVowel: (ch: string) => boolean): string {
  if (tone === null) return text;
  const chars = [...text];
  let at = chars.findIndex(isVowel);
  if (at < 0) at = 0;
  const letter = chars[at]!;
  const precomposed = PRECOMPOSED[`${letter}${tone}`];
  if (precomposed) {
    chars[at] = precomposed;
    return chars.join('');
  }
  chars[at] = letter + (tone === 'H' ? ACUTE : GRAVE);
  return chars.join('').normalize('NFC');
}
