/**
 * The one runner of a cartridge's golden cases (golden.yaml), in both directions:
 *   generation  the lemma and cell give the form (and its English gloss, where the case gives one);
 *   analysis    the form reads back as the lemma and cell.
 * A derived verb reads back with its extensions, a suppletive form (verbs.irregular) to its verb.
 * A case whose cell is outside the analyzer's paradigm is reported `unanalysable` with the reason,
 * never silently skipped; a case the
 * cartridge marks `analysis_open` (a named analyzer gap) is run and reported `open`, and fails once
 * it reads back, so that the mark is removed. Used by the
 * tests, the status API's coverage, `lugha cartridge check` and the HFST export (goldenCases).
 * Nothing here names a language.
 */
import { enumerateCells, type Analysis, type Analyzer } from '../morphology/analyzer.js';
import type { Cell, Generator } from '../morphology/generator.js';
import type { Cartridge } from './cartridge.js';
import { goldenCases, type GoldenCase } from './golden-case.js';

export { goldenCases, type GoldenCase, type GoldenCell } from './golden-case.js';

export const GOLDEN_DIRECTIONS = ['generation', 'analysis'] as const;
export type GoldenDirection = (typeof GOLDEN_DIRECTIONS)[number];

/**
 * What the engine needs to run golden cases: a generator, an analyzer for the analysis direction, and
 * the English gloss of a generated form for the cases that give one (without it they are checked on
 * their form alone).
 */
export interface GoldenEngine {
  generator: Generator;
  analyzer?: Analyzer;
  english?(lemma: string, cell: Cell, surface: string): string;
  /** A generated form as the service writes it (LanguageEngine.written); without it, as generated. */
  written?(text: string): string;
}

/** One case run in one direction. */
export interface GoldenOutcome {
  case: GoldenCase;
  direction: GoldenDirection;
  status: 'pass' | 'fail' | 'unanalysable' | 'open';
  /** generation: the form generated (or the engine's refusal); analysis: the readings found, or why the case cannot be analysed. */
  actual: string;
}

/** Passes and failures of one direction (unanalysable and open cases are counted apart, not as passes). */
export interface GoldenTally {
  total: number;
  passing: number;
  failing: number;
  unanalysable: number;
  open: number;
}

/** The cell fields that name a reading: those the case gives, and for verbs also the absence of subject, object and variant. */
function fieldsOf(cell: Cell): Array<keyof Cell> {
  const given = (Object.keys(cell) as Array<keyof Cell>).filter((k) => k !== 'extensions' && cell[k] !== undefined);
  return cell.word_class === 'verb' ? [...new Set([...given, 'tense', 'polarity', 'subject', 'object', 'variant'] as Array<keyof Cell>)] : given;
}

function sameCell(want: Cell, got: Cell, fields: Array<keyof Cell>): boolean {
  return fields.every((f) => (want[f] ?? null) === (got[f] ?? null));
}

/** The same extensions in the same order (none and an empty list alike). */
function sameExtensions(want: Cell, got: Cell): boolean {
  return (want.extensions ?? []).join('+') === (got.extensions ?? []).join('+');
}

function describeCell(cell: Cell): string {
  return Object.entries(cell)
    .filter(([k, v]) => v !== undefined && !(k === 'word_class' && v === 'verb') && !(k === 'polarity' && v === 'positive'))
    .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join('+') : String(v)}`)
    .join(' ');
}

/** `lemma` + the cell, as a difference report names a case. */
export function describeCase(c: GoldenCase): string {
  return `${c.lemma} ${describeCell(c.cell as Cell) || '(citation cell)'}`;
}

function generate(engine: GoldenEngine, c: GoldenCase): GoldenOutcome {
  // The case is checked on the form the service shows (the standard spelling); the gloss is made from the generated one.
  let generated: string;
  try {
    generated = engine.generator.generate(c.lemma, c.cell as Cell).surface;
  } catch (error) {
    return { case: c, direction: 'generation', status: 'fail', actual: `refused: ${(error as Error).message}` };
  }
  const actual = engine.written ? engine.written(generated) : generated;
  if (actual !== c.form || c.gloss === undefined || !engine.english) return { case: c, direction: 'generation', status: actual === c.form ? 'pass' : 'fail', actual };
  const english = engine.english(c.lemma, c.cell as Cell, generated);
  if (c.glossOpen !== undefined) {
    return english === c.gloss
      ? { case: c, direction: 'generation', status: 'fail', actual: `glossed '${english}', although golden.yaml marks it gloss_open ("${c.glossOpen}"): remove the mark` }
      : { case: c, direction: 'generation', status: 'open', actual: `${actual} glossed '${english}' (expected '${c.gloss}'): ${c.glossOpen}` };
  }
  return english === c.gloss ? { case: c, direction: 'generation', status: 'pass', actual } : { case: c, direction: 'generation', status: 'fail', actual: `${actual} glossed '${english}' (expected '${c.gloss}')` };
}

/** `paradigm`: the analyzer's cells, canonical. */
function analyse(generator: Generator, analyzer: Analyzer, paradigm: readonly Cell[], c: GoldenCase): GoldenOutcome {
  const want = generator.canonical(c.cell as Cell);
  const fields = fieldsOf(want);
  const inParadigm = (cell: Cell) => paradigm.some((p) => sameCell(cell, p, fieldsOf(cell)));
  // A relative whose object marker is not its head's (bye bankolera) is read from the verb after the head's word
  // (the analyzer tries each head on it): the same cell without the object stands for it in the paradigm.
  const otherObject = want.head !== undefined && want.object !== undefined && want.object !== want.head;
  if (!inParadigm(want) && !(otherObject && inParadigm({ ...want, object: undefined }))) {
    return { case: c, direction: 'analysis', status: 'unanalysable', actual: `the analyzer's paradigm has no cell ${describeCell(want)}` };
  }
  const readings: Analysis[] = analyzer.analyze(c.form);
  // The same lexeme under another citation (a root-cited language reads linga as ling).
  const lexeme = generator.lexeme(c.lemma, want.word_class);
  const sameLexeme = (lemma: string) => {
    if (lemma === c.lemma) return true;
    const other = generator.lexeme(lemma, want.word_class);
    return other.root === lexeme.root && other.ownFinalVowel === lexeme.ownFinalVowel && other.enclitic === lexeme.enclitic;
  };
  const pass = readings.some((r) => {
    const got = generator.canonical(r.cell);
    return sameLexeme(r.lemma) && sameCell(want, got, fields) && sameExtensions(want, got);
  });
  if (c.analysisOpen !== undefined) {
    return pass
      ? { case: c, direction: 'analysis', status: 'fail', actual: `reads back, although golden.yaml marks it analysis_open ("${c.analysisOpen}"): remove the mark` }
      : { case: c, direction: 'analysis', status: 'open', actual: c.analysisOpen };
  }
  const found = readings.slice(0, 5).map((r) => `${r.lemma} ${describeCell(generator.canonical(r.cell))}`);
  const more = readings.length > 5 ? ` (+${readings.length - 5} more)` : '';
  return { case: c, direction: 'analysis', status: pass ? 'pass' : 'fail', actual: readings.length === 0 ? 'no reading' : `${found.join('; ')}${more}` };
}

/**
 * Runs `cartridge`'s golden cases through `engine` in the directions asked (both by default;
 * analysis needs `engine.analyzer`). Outcomes are in case order, generation before analysis.
 */
export function runGolden(cartridge: Cartridge, engine: GoldenEngine, directions: readonly GoldenDirection[] = GOLDEN_DIRECTIONS): GoldenOutcome[] {
  const cases = goldenCases(cartridge.golden);
  const out: GoldenOutcome[] = [];
  const analyzer = directions.includes('analysis') ? engine.analyzer : undefined;
  if (directions.includes('analysis') && !analyzer) throw new Error('the analysis direction needs an analyzer');
  const paradigm = analyzer ? enumerateCells(engine.generator).map((cell) => engine.generator.canonical(cell)) : [];
  for (const c of cases) {
    if (directions.includes('generation')) out.push(generate(engine, c));
    if (analyzer) out.push(analyse(engine.generator, analyzer, paradigm, c));
  }
  return out;
}

/** The tally of one direction's outcomes. */
export function tallyGolden(outcomes: readonly GoldenOutcome[], direction: GoldenDirection): GoldenTally {
  const of = outcomes.filter((o) => o.direction === direction);
  const count = (status: GoldenOutcome['status']) => of.filter((o) => o.status === status).length;
  return { total: of.length, passing: count('pass'), failing: count('fail'), unanalysable: count('unanalysable'), open: count('open') };
}

/** One failing outcome as a line a cartridge author can act on: the case, its source, expected and actual. */
export function describeOutcome(o: GoldenOutcome): string {
  const what = o.direction === 'generation' ? `expected ${o.case.form}, got ${o.actual}` : `${o.case.form}: ${o.actual}`;
  return `${o.direction}: golden.yaml case ${o.case.index + 1}, ${describeCase(o.case)} (source: ${o.case.source}): ${what}`;
}

/** The outcomes the analyzer could not read (unanalysable or open), as `<count> × <reason>`, most frequent first. */
export function unreadByReason(outcomes: readonly GoldenOutcome[]): string[] {
  const counts = new Map<string, number>();
  for (const o of outcomes) if (o.status === 'unanalysable' || o.status === 'open') counts.set(o.actual, (counts.get(o.actual) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]).map(([reason, n]) => `${n} × ${reason}`);
}
