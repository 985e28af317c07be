/**
 * Accuracy of a numeral grammar against a table of numbers in words (the format of
 * UniNum: a header with at least `iso639_3`, `number` and `form`). Rows of other
 * languages are skipped; a row's code is normalised like any language code at the edge.
 */
import { readTsv } from '../language-codes.js';
import type { NumeralSpeller } from './grammar.js';

export interface NumeralMiss {
  number: string;
  gold: string;
  spelled: string | null;
  error?: string;
}

export interface NumeralReport {
  language: string;
  file: string;
  total: number;
  right: number;
  /** Percentage of rows spelled exactly as the gold form (0 when the file has no row of the language). */
  accuracy: number;
  misses: NumeralMiss[];
}

/** Reads `file` and spells every row of `language` (rows whose code `normalise` maps to it). */
export function evaluateNumerals(speller: NumeralSpeller, language: string, file: string, normalise: (code: string) => string | undefined): NumeralReport {
  const rows = readTsv(file);
  const header = rows[0] ? Object.keys(rows[0]) : [];
  for (const column of ['iso639_3', 'number', 'form']) {
    if (rows.length > 0 && !header.includes(column)) throw new Error(`${file}: no "${column}" column`);
  }
  let total = 0;
  let right = 0;
  const misses: NumeralMiss[] = [];
  for (const row of rows) {
    const code = row.iso639_3 ?? '';
    if ((normalise(code) ?? code.toLowerCase()) !== language) continue;
    total++;
    const gold = (row.form ?? '').trim().normalize('NFC');
    const number = (row.number ?? '').trim();
    let spelled: string | null = null;
    let error: string | undefined;
    if (!/^\d+$/.test(number)) error = `"${number}" is not a whole number`;
    else {
      try {
        spelled = speller.spell(Number(number));
      } catch (e) {
        error = (e as Error).message;
      }
    }
    if (spelled === gold) right++;
    else misses.push({ number, gold, spelled, ...(error ? { error } : {}) });
  }
  return { language, file, total, right, accuracy: total === 0 ? 0 : (100 * right) / total, misses };
}
