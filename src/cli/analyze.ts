/**
 * `lugha analyze`: every analysis of a word; without WORD, of each line of standard input (one
 * word a line); with `--text FILE` (or `--text -` for standard input), of running text, token by
 * token in context.
 *
 * Only the requested language's cartridge is read, and its analysis frames come from the cache
 * on disk (dist/frames); a language with a learned analyser reads words without the engine.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Command } from 'commander';
import { loadConfig, packageRoot } from '../config.js';
import { LanguageCodes, readTsv } from '../language-codes.js';
import type { AnalysisView, MorphologyService } from '../morphology/service.js';
import { loadLearnedAnalyzer } from '../text/learned-analyzer.js';
import { textModelCacheDir } from '../text/model-file.js';
import type { TextService } from '../text/service.js';
import type { TextAnalyzer } from '../text/types.js';
import { CliError, EXIT_FAILURE, EXIT_USAGE, printJson, table } from './output.js';

// The engine, the services and the text pipeline are imported only when a command needs them: a
// word of a language with a learned analyser is read by that analyser alone (the start-up is most
// of the time `echo word | lugha analyze` takes).

interface AnalyzeOptions {
  language: string;
  languagesDir?: string;
  json?: boolean;
  text?: string;
  format?: string;
  all?: boolean;
  lines?: boolean;
}

const FORMATS = ['text', 'json', 'sadii'] as const;
type Format = (typeof FORMATS)[number];

export function registerAnalyzeCommand(program: Command): void {
  program
    .command('analyze')
    .description('analyse a word; without WORD, each line of standard input as one word; with --text FILE (or --text - for standard input), running text token by token')
    .argument('[word]', 'the word to analyse')
    .requiredOption('--language <iso>', 'language code (zul, zu, swh, sw, ...)')
    .option('--languages-dir <dir>', 'folder of language cartridges')
    .option('--text <file>', 'analyse the running text of FILE (- for standard input): tokens, sentences, readings in context')
    .option('--format <format>', `output: ${FORMATS.join(', ')} (sadii: the SADiLaR-II four columns, <LINE# n> per paragraph; with --text only)`)
    .option('--all', 'every reading of each token (default: the likeliest, holding 95% of the probability, at most 5)')
    .option('--lines', 'with --text: every line is a paragraph (default: paragraphs are separated by blank lines)')
    .option('--json', 'the same as --format json')
    .action(async (word: string | undefined, options: AnalyzeOptions) => {
      const format = formatOf(options);
      if (options.text === undefined && format === 'sadii') throw new CliError('--format sadii is for running text: add --text FILE (or --text - for standard input)', EXIT_USAGE);
      // Words of a language with a learned analyser: that analyser alone (no cartridge, no engine frames).
      const learned = options.text === undefined ? learnedAnalyzerFor(options) : null;
      let analyseWord: (form: string) => { text: string; json: unknown };
      if (learned) analyseWord = (form) => learnedWord(learned, form, options);
      else {
        const [{ TextService }, { textAnalyzerFactories }, { engineOrUsage }] = await Promise.all([import('../text/service.js'), import('../services.js'), import('./languages.js')]);
        const morphology = await morphologyForLanguage(options);
        const language = engineOrUsage(morphology, options.language).iso;
        const text = new TextService({ morphology: () => morphology, factories: textAnalyzerFactories });
        if (options.text !== undefined) {
          if (word !== undefined) throw new CliError('give a WORD or --text FILE, not both', EXIT_USAGE);
          const input = options.text === '-' ? await readStdin() : readText(options.text);
          await analyseText(text, language, input, format, options);
          return;
        }
        const { valueOrUsage } = await import('./languages.js');
        const { describeCell } = await import('../morphology/evaluate.js');
        analyseWord = (form) => {
          const analyses = valueOrUsage(text.analyzeForm(form, language));
          return { text: formatAnalyses(form, analyses, describeCell), json: { form, analyses } };
        };
      }
      if (word !== undefined) {
        const result = analyseWord(word);
        if (format === 'json') printJson(result.json);
        else process.stdout.write(result.text);
        return;
      }
      let first = true;
      for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
        const form = line.trim();
        if (!form) continue;
        const result = analyseWord(form);
        if (format === 'json') process.stdout.write(`${JSON.stringify(result.json)}\n`);
        else process.stdout.write(`${first ? '' : '\n'}${result.text}`);
        first = false;
      }
    });
}

/** The learned analyser of the requested language's cartridge, or null when it has none (or the code is not one). */
function learnedAnalyzerFor(options: AnalyzeOptions): TextAnalyzer | null {
  const config = loadConfig({ flags: { languagesDir: options.languagesDir } });
  const iso = isoOf(options.language);
  if (!/^[a-z]{2,3}$/.test(iso)) return null;
  const dir = path.join(config.languagesDir, iso);
  // A cartridge is a folder with its metadata; only one with a text model is read this way.
  if (!existsSync(path.join(dir, 'text', 'meta.yaml'))) return null;
  return loadLearnedAnalyzer(dir, textModelCacheDir);
}

/**
 * `LanguageCodes.normalise(code) ?? code.toLowerCase()`, reading only the alias table: for a code
 * without surrounding spaces that is the target of its alias (`zu` -> zul), else the code itself
 * lower-cased, known or not, so the Glottolog table behind `normalise` is not needed to find a
 * cartridge folder (reading that table showed in the profile of `echo word | lugha analyze`).
 */
function isoOf(code: string): string {
  const lower = code.toLowerCase();
  if (lower.trim() !== lower) return LanguageCodes.fromReference(path.join(packageRoot, 'reference')).normalise(code) ?? lower;
  const aliases = new Map(readTsv(path.join(packageRoot, 'reference', 'language-codes.tsv')).map((r) => [r.alias ?? '', r.iso639_3 ?? '']));
  return aliases.get(lower) ?? lower;
}

function formatOf(options: AnalyzeOptions): Format {
  if (options.json) {
    if (options.format && options.format !== 'json') throw new CliError(`--json and --format ${options.format} contradict each other`, EXIT_USAGE);
    return 'json';
  }
  const format = options.format ?? 'text';
  if (!(FORMATS as readonly string[]).includes(format)) throw new CliError(`--format: "${format}" is not a format (allowed: ${FORMATS.join(', ')})`, EXIT_USAGE);
  return format as Format;
}

/** The morphology service over the requested language's cartridge only (reading all of them takes seconds). */
async function morphologyForLanguage(options: AnalyzeOptions): Promise<MorphologyService> {
  const { openLanguageCodes, openMorphology } = await import('../services.js');
  const config = loadConfig({ flags: { languagesDir: options.languagesDir } });
  const codes = openLanguageCodes();
  const iso = codes.normalise(options.language) ?? options.language.toLowerCase();
  const one = openMorphology(config, codes, { only: [iso] });
  // An unknown code: load them all, so the usage error lists what is installed.
  return one.languages().length > 0 ? one : openMorphology(config, codes);
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError(`--text: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`, EXIT_FAILURE);
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function analyseText(service: TextService, language: string, input: string, format: Format, options: AnalyzeOptions): Promise<void> {
  const { formatText } = await import('./analyze-format.js');
  const outcome = await service.analyzeText(language, input, { maxCharacters: Number.POSITIVE_INFINITY, ...(options.all ? { all: true } : {}), ...(options.lines ? { paragraphs: 'line' as const } : {}) });
  if (!outcome.ok) throw new CliError(`--text: ${outcome.message}`, outcome.code === 'language_not_found' ? EXIT_USAGE : EXIT_FAILURE);
  process.stdout.write(formatText(outcome.value, format));
}

/** One word through the language's learned analyser alone (no engine frames to load). */
function learnedWord(analyzer: TextAnalyzer, form: string, options: AnalyzeOptions): { text: string; json: unknown } {
  const readings = analyzer.analyzeTokens([form], options.all ? { all: true } : {})[0] ?? [];
  const rows = readings.map((r) => ({
    LEMMA: r.guess ? `${r.lemma} (not in lexicon)` : r.lemma,
    POS: r.pos,
    MORPHS: r.morphemes
      .map((m) => m.surface)
      .filter(Boolean)
      .join('-'),
    P: r.probability.toFixed(3),
  }));
  return { text: rows.length === 0 ? `${form}\n  no analysis\n` : `${form}\n${table(rows).replace(/^/gm, '  ')}\n`, json: { form, analyses: readings } };
}

/** The word, then a table with one row per analysis: lemma, cell, morphs, gloss. */
export function formatAnalyses(form: string, analyses: AnalysisView[], describeCell: (features: AnalysisView['features']) => string): string {
  if (analyses.length === 0) return `${form}\n  no analysis\n`;
  const rows = analyses.map((a) => ({
    LEMMA: a.in_lexicon ? a.lemma : `${a.lemma} (not in lexicon)`,
    CELL: describeCell(a.features),
    MORPHS: a.words
      .map((w) =>
        Object.values(w.slots)
          .map((s) => s.form)
          .join('-'),
      )
      .join(' '),
    ENGLISH: a.english ?? '',
  }));
  return `${form}\n${table(rows).replace(/^/gm, '  ')}\n`;
}
