/**
 * `lugha eval inflection|analysis --language <iso> FILE...`: accuracy of the engine
 * against UniMorph gold tables. The last line of the text report is the headline
 * figure (`accuracy: 97.50% (39/40)`, `recall: ...`); --json prints the report alone.
 */
import { statSync } from 'node:fs';
import type { Command } from 'commander';
import { evaluateAnalysis, evaluateInflection, type AnalysisReport, type InflectionReport } from '../morphology/evaluate.js';
import { withConvention } from '../morphology/cartridge.js';
import { LanguageEngine } from '../morphology/service.js';
import { engineOrUsage, morphologyFor, type LanguageOptions } from './languages.js';
import { CliError, EXIT_USAGE, printJson, table } from './output.js';
import { evaluateNumerals, type NumeralReport } from '../numerals/evaluate.js';
import { NumeralService } from '../numerals/service.js';
import { openLanguageCodes } from '../services.js';

export function registerEvalCommands(program: Command): void {
  const evaluate = program.command('eval').description('measure the engine against UniMorph gold tables (lemma, form, features)');
  evalCommand(evaluate, 'inflection', 'generate every (lemma, features) cell of the files and count exact matches', (engine, files) => evaluateInflection(engine.generator, files), formatInflection);
  evalCommand(
    evaluate,
    'analysis',
    'analyse every form of the files and count those whose gold lemma and features are found',
    (engine, files) => evaluateAnalysis(engine.generator, engine.analyzer, files),
    formatAnalysis,
  );
  registerNumeralEval(evaluate);
}

/** One `eval` sub-command: FILE... and --language in, the report as text (or JSON) out. */
function evalCommand<R>(parent: Command, name: string, description: string, run: (engine: LanguageEngine, files: string[]) => R, format: (report: R) => string): void {
  parent
    .command(name)
    .description(description)
    .argument('<files...>', 'UniMorph TSV files')
    .requiredOption('--language <iso>', 'language code')
    .option('--languages-dir <dir>', 'folder of language cartridges')
    .option('--json', 'print the report as one JSON object')
    .option('--variant <id>', "measure with a dataset's named convention (verbs.conventions, e.g. sigmorphon2023; docs/gold-data.md)")
    .action((files: string[], options: LanguageOptions & { variant?: string }) => {
      const report = run(evaluable(files, options), files);
      if (options.json) printJson(report);
      else process.stdout.write(format(report));
    });
}

/** The engine to evaluate; a bad language, a cartridge without a feature mapping or a missing file is a usage error. */
function evaluable(files: string[], options: LanguageOptions & { variant?: string }): LanguageEngine {
  for (const file of files) {
    let isFile = false;
    try {
      isFile = statSync(file).isFile();
    } catch {
      // reported below
    }
    if (!isFile) throw new CliError(`${file}: no such file`, EXIT_USAGE);
  }
  const engine = engineOrUsage(morphologyFor(options), options.language);
  if (!engine.cartridge.features) {
    throw new CliError(`the ${engine.iso} cartridge has no features.yaml, so UniMorph feature bundles cannot be mapped onto its cells`, EXIT_USAGE);
  }
  return options.variant ? withVariant(engine, options.variant) : engine;
}

/** The engine over the cartridge as a dataset's named convention has it; an unknown name is a usage error. */
function withVariant(engine: LanguageEngine, variant: string): LanguageEngine {
  try {
    return new LanguageEngine(withConvention(engine.cartridge, variant));
  } catch (error) {
    throw new CliError((error as Error).message, EXIT_USAGE);
  }
}

const percent = (value: number) => `${value.toFixed(2)}%`;

function formatInflection(report: InflectionReport): string {
  const lines = [table(report.files.map((f) => ({ FILE: f.file, CELLS: String(f.cells), RIGHT: String(f.right), ACCURACY: percent(f.accuracy) }))), ''];
  if (report.worst.length > 0) {
    lines.push('worst feature bundles:');
    for (const bundle of report.worst) {
      lines.push(`  ${bundle.features}  ${bundle.wrong} of ${bundle.cells} wrong`);
      for (const e of bundle.examples) {
        lines.push(`    ${e.lemma}: gold ${e.gold.join(' / ')}, generated ${e.generated ?? '-'}${e.error ? ` (${e.error})` : ''}`);
      }
    }
    lines.push('');
  }
  lines.push(`accuracy: ${percent(report.accuracy)} (${report.right}/${report.cells})`);
  return `${lines.join('\n')}\n`;
}

function formatAnalysis(report: AnalysisReport): string {
  const lines = [table(report.files.map((f) => ({ FILE: f.file, ROWS: String(f.rows), FOUND: String(f.found), RECALL: percent(f.recall) }))), ''];
  if (report.missed.length > 0) {
    lines.push('not found:');
    for (const m of report.missed) lines.push(`  ${m.form}  ${m.lemma} ${m.features}  analyses: ${m.got.length > 0 ? m.got.join('; ') : 'none'}`);
    lines.push('');
  }
  lines.push(`recall: ${percent(report.recall)} (${report.found}/${report.rows})`);
  return `${lines.join('\n')}\n`;
}

/** `eval numerals --language <iso> FILE`: numbers in words against a UniNum-format table (iso639_3, number, form). */
function registerNumeralEval(parent: Command): void {
  parent
    .command('numerals')
    .description('spell every number of the language in a UniNum-format table (columns iso639_3, number, form) and count exact matches')
    .argument('<file>', 'TSV file with a header naming iso639_3, number and form')
    .requiredOption('--language <iso>', 'language code')
    .option('--languages-dir <dir>', 'folder of language cartridges')
    .option('--json', 'print the report as one JSON object')
    .action((file: string, options: LanguageOptions) => {
      let isFile = false;
      try {
        isFile = statSync(file).isFile();
      } catch {
        // reported below
      }
      if (!isFile) throw new CliError(`${file}: no such file`, EXIT_USAGE);
      const found = new NumeralService(morphologyFor(options)).speller(options.language);
      if (!found.ok) throw new CliError(`--language: ${found.message}`, EXIT_USAGE);
      const codes = openLanguageCodes();
      let report: NumeralReport;
      try {
        report = evaluateNumerals(found.value.speller, found.value.iso, file, (code) => codes.normalise(code));
      } catch (error) {
        throw new CliError((error as Error).message, EXIT_USAGE);
      }
      if (options.json) printJson(report);
      else process.stdout.write(formatNumerals(report));
    });
}

function formatNumerals(report: NumeralReport): string {
  const lines: string[] = [];
  if (report.misses.length > 0) {
    lines.push(table(report.misses.map((m) => ({ NUMBER: m.number, GOLD: m.gold, SPELLED: m.spelled ?? `- (${m.error ?? 'no form'})` }))), '');
  }
  lines.push(`accuracy: ${percent(report.accuracy)} (${report.right}/${report.total})`);
  return `${lines.join('\n')}\n`;
}
