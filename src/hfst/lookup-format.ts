/**
 * `hfst-optimized-lookup`'s output format (hfst 3.16), so that `lugha hfst lookup` can
 * stand in for it in a pipeline: one block per input word, each line
 * `word<TAB>output[<TAB>weight]`, then a blank line; a word without results prints
 * `word<TAB>word<TAB>+?` followed by three blank lines (one when a weighted transducer
 * could read the word but found nothing, as the C++ tool does).
 */
import type { LookupResult } from './transducer.js';

export interface BlockFormat {
  /** The transducer is weighted (changes the blank lines after an unknown word). */
  weighted: boolean;
  /** Print the weight column (`-w`); only weighted transducers have one. */
  showWeights: boolean;
}

/** The text block `hfst-optimized-lookup` prints for `word` and its lookup result. */
export function formatLookupBlock(word: string, result: LookupResult, format: BlockFormat): string {
  if (result.results.length === 0) {
    const blanks = format.weighted && result.tokenized ? '\n' : '\n\n\n';
    return `${word}\t${word}\t+?\n${blanks}`;
  }
  let text = '';
  for (const { output, weight } of result.results) {
    text += format.weighted && format.showWeights ? `${word}\t${output}\t${formatWeight(weight)}\n` : `${word}\t${output}\n`;
  }
  return `${text}\n`;
}

/** A weight as C++ `ostream << float` prints it (`%g`: six significant digits, no trailing zeros). */
export function formatWeight(weight: number): string {
  if (!Number.isFinite(weight)) return weight > 0 ? 'inf' : weight < 0 ? '-inf' : 'nan';
  if (weight === 0) return Object.is(weight, -0) ? '-0' : '0';
  const exponent = Math.floor(Math.log10(Math.abs(Number(weight.toPrecision(6)))));
  if (exponent < -4 || exponent >= 6) {
    const [mantissa, exp] = weight.toExponential(5).split('e') as [string, string];
    const sign = exp.startsWith('-') ? '-' : '+';
    const digits = exp.replace(/^[+-]/, '').padStart(2, '0');
    return `${stripZeros(mantissa)}e${sign}${digits}`;
  }
  return stripZeros(weight.toFixed(Math.max(0, 5 - exponent)));
}

function stripZeros(text: string): string {
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}
