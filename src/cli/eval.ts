/**
 * `lugha eval inflection|analysis --language <iso> FILE...`: accuracy of the engine
 * against UniMorph gold tables. The last line of the text report is the headline
 * figure (`accuracy: 97.50% (39/40)`, `recall: ...`); --json prints the report alone.
 * `lugha eval text --language <iso> FILE...` scores the learnt text analyser on SADII-annotated
 * text (docs/text-analysis.md); its last line is `lemma: <pct>% (<right>/<tokens>)`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config.js';
import { isDevParagraph } from '../text/dev-split.js';
import { evaluateText, type TextFigures, type TextReport } from '../text/evaluate-text.js';
import { loadLearnedAnalyzerFrom } from '../text/learned-analyzer.js';
import { textModelCacheDir } from '../text/model-file.js';
import { parseSadii, type SadiiParagraph } from '../text/sadii.js';
import { statSync } from 'node:fs';
import type { Command } from 'commander';
import { evaluateAnalysis, evaluateInflection, type AnalysisReport, type InflectionReport } from '../morphology/evaluate.js';
import { withConvention } from '../cartridge/cartridge.js';
import { LanguageEngine } from '../morphology/service.js';
import { engineOrUsage, morphologyFor, type LanguageOptions } from './languages.js';
import { CliError, EXIT_USAGE, printJson, table } from './output.js';
import { evaluateNumerals, type NumeralReport } from '../numerals/evaluate.js';
import { NumeralSpeller, numeralVariant } from '../numerals/grammar.js';
import { openLanguageCodes, openNumerals, textAnalyzerFactories } from '../services.js';
import { TextService } from '../text/service.js';
import { EngineReadings } from '../text/engine-readings.js';
import type { TextAnalyzer } from '../text/types.js';

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
  registerTextEval(evaluate);
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
    .option('--variant <name>', "spell in a named variant of the cartridge's numeral grammar (a dataset's convention, numerals.yaml `variants`)")
    .option('--json', 'print the report as one JSON object')
    .action((file: string, options: LanguageOptions & { variant?: string }) => {
      let isFile = false;
      try {
        isFile = statSync(file).isFile();
      } catch {
        // reported below
      }
      if (!isFile) throw new CliError(`${file}: no such file`, EXIT_USAGE);
      const found = openNumerals(morphologyFor(options)).speller(options.language);
      if (!found.ok) throw new CliError(`--language: ${found.message}`, EXIT_USAGE);
      let speller = found.value.speller;
      if (options.variant !== undefined) {
        try {
          speller = new NumeralSpeller(numeralVariant(speller.grammar, options.variant));
        } catch (error) {
          throw new CliError(`--variant: ${(error as Error).message}`, EXIT_USAGE);
        }
      }
      const codes = openLanguageCodes();
      let report: NumeralReport;
      try {
        report = evaluateNumerals(speller, found.value.iso, file, (code) => codes.normalise(code));
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

interface TextEvalOptions {
  language: string;
  languagesDir?: string;
  modelDir?: string;
  part: string;
  json?: boolean;
  /** false with --no-engine-readings: the learnt model's readings alone. */
  engineReadings: boolean;
}

/** `eval text --language <iso> FILE...`: the language's text analyser (the learnt one, else the engine's readings) against SADII-annotated paragraphs. */
function registerTextEval(parent: Command): void {
  parent
    .command('text')
    .description('analyse SADII-annotated text in context and score the first analysis (lemma, POS, morphemes) per POS group and on unseen words')
    .argument('<files...>', 'SADII files (token, segmentation, lemma, POS)')
    .requiredOption('--language <iso>', 'language code')
    .option('--languages-dir <dir>', 'folder of language cartridges')
    .option('--model-dir <dir>', "a text model folder (e.g. one learnt with --holdout dev) instead of the cartridge's")
    .option('--part <part>', 'paragraphs to score: all, or dev (the 10% the learn script leaves out with --holdout dev)', 'all')
    .option('--json', 'print the report as one JSON object')
    .option('--no-engine-readings', "score a learnt model's readings alone, without the cartridge engine's verb readings it is offered (as served) for the tokens it can only guess")
    .action((files: string[], options: TextEvalOptions) => {
      if (options.part !== 'all' && options.part !== 'dev') throw new CliError(`--part: ${options.part} is not a part (allowed: all, dev)`, EXIT_USAGE);
      const codes = openLanguageCodes();
      const iso = codes.normalise(options.language) ?? options.language;
      const languagesDir = loadConfig({ flags: { languagesDir: options.languagesDir } }).languagesDir;
      const modelDir = options.modelDir ?? path.join(languagesDir, iso, 'text');
      // The cartridge's own model from its binary file in dist/text-models (as served); a --model-dir one from its TSV files.
      const learned = loadLearnedAnalyzerFrom(modelDir, undefined, options.modelDir ? undefined : textModelCacheDir);
      if (!learned && options.modelDir) throw new CliError(`--model-dir: no text model in ${options.modelDir}`, EXIT_USAGE);
      // As served (TextService): the engine's verb readings for the tokens the learnt model can only guess.
      learned?.offerReadings(options.engineReadings ? new EngineReadings(iso, morphologyFor(options)) : undefined);
      // Without a learnt model, the cartridge engine's readings are scored, as the service serves them; it has no training words, so none is "unseen".
      const analyzer = learned ?? engineTextAnalyzer(options, iso);
      const paragraphs: SadiiParagraph[] = [];
      for (const file of files) {
        let text: string;
        try {
          if (!statSync(file).isFile()) throw new Error('not a file');
          text = readFileSync(file, 'utf8');
        } catch {
          throw new CliError(`${file}: no such file`, EXIT_USAGE);
        }
        const parsed = parseSadii(text);
        if (parsed.every((p) => p.tokens.length === 0)) throw new CliError(`${file}: no SADII token lines (token, segmentation, lemma, POS)`, EXIT_USAGE);
        paragraphs.push(...(options.part === 'dev' ? parsed.filter((p) => isDevParagraph(p.id)) : parsed));
      }
      const report = evaluateText(analyzer, paragraphs, learned ? (form) => learned.model.forms.has(form) : () => true);
      if (options.json) printJson(report);
      else process.stdout.write(formatText(report));
    });
}

/** The engine's text analyser of a language without a learnt model; an unknown language is a usage error. */
function engineTextAnalyzer(options: TextEvalOptions, iso: string): TextAnalyzer {
  const morphology = morphologyFor(options);
  const chosen = new TextService({ morphology: () => morphology, factories: textAnalyzerFactories }).analyzer(iso);
  if (!chosen.ok) throw new CliError(`--language: ${chosen.message}`, EXIT_USAGE);
  return chosen.value.analyzer;
}

function formatText(report: TextReport): string {
  const row = (name: string, f: TextFigures, unseen?: TextFigures): Record<string, string> => ({
    GROUP: name,
    TOKENS: String(f.tokens),
    LEMMA: percent(f.lemma),
    POS: percent(f.pos),
    'SEG F1': percent(f.segmentation_f1),
    'TAG F1': percent(f.tag_f1),
    'LEMMA IN RETURNED': percent(f.lemma_in_returned),
    'ANALYSES/TOKEN': f.analyses_per_token.toFixed(2),
    UNSEEN: String(unseen?.tokens ?? 0),
    'UNSEEN LEMMA': unseen ? percent(unseen.lemma) : '-',
  });
  const lines = [
    `${report.language}: tokens other than ${report.excluded_pos}; UNSEEN = forms not in the model's training text`,
    table([row('all', report.all, report.unseen), ...Object.entries(report.by_group).map(([g, f]) => row(g, f, report.unseen_by_group[g]))]),
    '',
    `unseen: ${report.unseen.tokens} tokens, lemma ${percent(report.unseen.lemma)}, POS ${percent(report.unseen.pos)}, segmentation F1 ${percent(report.unseen.segmentation_f1)}, tag F1 ${percent(report.unseen.tag_f1)}`,
    `pos: ${percent(report.all.pos)} (${report.all.pos_right}/${report.all.tokens})`,
    `lemma: ${percent(report.all.lemma)} (${report.all.lemma_right}/${report.all.tokens})`,
  ];
  return `${lines.join('\n')}\n`;
}
