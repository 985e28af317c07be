/**
 * Accuracy against gold inflection tables (UniMorph TSV: lemma, form, features):
 * every (lemma, bundle) cell is generated once and is right when the form equals
 * one of the gold forms for that cell. Also the mirror image for analysis.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Analyzer } from './analyzer.js';
import type { Cell, Generator } from './generator.js';
import { cellFromFeatures, cellsFromFeatures, detectSchema } from './unimorph.js';
import { plainSpelling } from './lexicon-readings.js';

export interface GoldRow {
  lemma: string;
  form: string;
  features: string;
}

/** Reads a UniMorph TSV file (no header; blank lines and comments skipped). */
export function readGold(file: string): GoldRow[] {
  return readFileSync(file, 'utf8')
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
    .map((line) => {
      const [lemma = '', form = '', features = ''] = line.split('\t');
      return { lemma: lemma.trim(), form: form.trim(), features: features.trim() };
    });
}

export interface CellResult {
  lemma: string;
  features: string;
  gold: string[];
  generated: string | null;
  error?: string;
  right: boolean;
}

export interface FileReport {
  file: string;
  cells: number;
  right: number;
  accuracy: number;
}

export interface InflectionReport {
  files: FileReport[];
  cells: number;
  right: number;
  accuracy: number;
  /** Feature bundles with the most wrong cells, each with a few examples. */
  worst: Array<{ features: string; wrong: number; cells: number; examples: Array<{ lemma: string; gold: string[]; generated: string | null; error?: string }> }>;
}

/** Evaluates generation on every cell of `files`. */
export function evaluateInflection(generator: Generator, files: string[], options: { worst?: number; examples?: number } = {}): InflectionReport {
  const mapping = generator.cartridge.features;
  if (!mapping) throw new Error(`the ${generator.cartridge.metadata.name} cartridge has no features.yaml`);
  const reports: FileReport[] = [];
  const all: CellResult[] = [];
  for (const file of files) {
    const rows = readGold(file);
    const schema = detectSchema(
      rows.map((r) => r.features),
      mapping,
    );
    const plain = schema?.plain_orthography ? plainSpelling(generator) : (text: string) => text;
    const cells = new Map<string, { lemma: string; features: string; gold: Set<string> }>();
    for (const row of rows) {
      const key = `${row.lemma}\t${row.features}`;
      const cell = cells.get(key) ?? { lemma: row.lemma, features: row.features, gold: new Set<string>() };
      cell.gold.add(row.form);
      cells.set(key, cell);
    }
    let right = 0;
    for (const { lemma, features, gold } of cells.values()) {
      const result: CellResult = { lemma, features, gold: [...gold], generated: null, right: false };
      const cell = cellFromFeatures(features, mapping, schema);
      if (!cell) result.error = 'features not mapped';
      else {
        try {
          result.generated = plain(generator.generate(lemma, cell).surface);
          result.right = gold.has(result.generated);
        } catch (error) {
          result.error = (error as Error).message;
        }
      }
      if (result.right) right++;
      all.push(result);
    }
    reports.push({ file: path.basename(file), cells: cells.size, right, accuracy: ratio(right, cells.size) });
  }
  const byBundle = new Map<string, CellResult[]>();
  for (const r of all) byBundle.set(r.features, [...(byBundle.get(r.features) ?? []), r]);
  const worst = [...byBundle.entries()]
    .map(([features, results]) => ({
      features,
      wrong: results.filter((r) => !r.right).length,
      cells: results.length,
      examples: results
        .filter((r) => !r.right)
        .slice(0, options.examples ?? 3)
        .map((r) => ({ lemma: r.lemma, gold: r.gold, generated: r.generated, ...(r.error ? { error: r.error } : {}) })),
    }))
    .filter((b) => b.wrong > 0)
    .sort((a, b) => b.wrong - a.wrong)
    .slice(0, options.worst ?? 15);
  const right = all.filter((r) => r.right).length;
  return { files: reports, cells: all.length, right, accuracy: ratio(right, all.length), worst };
}

function ratio(right: number, total: number): number {
  return total === 0 ? 0 : Math.round((right / total) * 10000) / 100;
}

export interface AnalysisReport {
  files: Array<{ file: string; rows: number; found: number; recall: number }>;
  rows: number;
  found: number;
  recall: number;
  /** Rows whose analysis was not found, with what the analyzer said instead. */
  missed: Array<{ lemma: string; form: string; features: string; got: string[] }>;
}

/** For each gold row: does some analysis of the form have that lemma and those features? */
export function evaluateAnalysis(generator: Generator, analyzer: Analyzer, files: string[], options: { missed?: number } = {}): AnalysisReport {
  const mapping = generator.cartridge.features;
  if (!mapping) throw new Error(`the ${generator.cartridge.metadata.name} cartridge has no features.yaml`);
  const same = (a: Cell, b: Cell) =>
    a.word_class === b.word_class &&
    a.tense === b.tense &&
    a.polarity === b.polarity &&
    a.subject === b.subject &&
    a.object === b.object &&
    a.variant === b.variant &&
    a.number === b.number &&
    a.form === b.form &&
    a.possessee === b.possessee;
  const reports: AnalysisReport['files'] = [];
  const missed: AnalysisReport['missed'] = [];
  const cache = new Map<string, ReturnType<Analyzer['analyze']>>();
  let rows = 0;
  let found = 0;
  for (const file of files) {
    let fileRows = 0;
    let fileFound = 0;
    const gold = readGold(file);
    const schema = detectSchema(
      gold.map((r) => r.features),
      mapping,
    );
    for (const row of gold) {
      fileRows++;
      const wanted = cellsFromFeatures(row.features, mapping, schema).map((c) => generator.canonical(c));
      let analyses = cache.get(row.form);
      if (!analyses) {
        analyses = analyzer.analyze(row.form);
        cache.set(row.form, analyses);
      }
      // A gold lemma may be a citation variant of the lexeme the analysis names (nza for enza).
      const lemmas = new Set([row.lemma, generator.lexeme(row.lemma).lemma]);
      const hit = analyses.some((a) => lemmas.has(a.lemma) && wanted.some((w) => same(generator.canonical(a.cell), w)));
      if (hit) fileFound++;
      else if (missed.length < (options.missed ?? 20)) {
        missed.push({ ...row, got: analyses.slice(0, 3).map((a) => `${a.lemma} ${describeCell(a.cell)}`) });
      }
    }
    reports.push({ file: path.basename(file), rows: fileRows, found: fileFound, recall: ratio(fileFound, fileRows) });
    rows += fileRows;
    found += fileFound;
  }
  return { files: reports, rows, found, recall: ratio(found, rows), missed };
}

/** A compact text form of a cell: verb.future.negative.c2>c7 */
export function describeCell(cell: Cell): string {
  const parts = [cell.word_class, cell.tense, cell.polarity === 'negative' ? 'negative' : undefined, cell.variant].filter(Boolean).join('.');
  const agreement = [cell.subject, cell.object].filter(Boolean).join('>');
  return agreement ? `${parts} ${agreement}` : parts;
}
