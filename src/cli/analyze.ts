/**
 * `lugha analyze`: every analysis of a word; without WORD, of each line of standard input (one
 * word a line); with `--text FILE` (or `--text -` for standard input), of running text, token by
 * token in context.
 *
 * Only the requested language's cartridge is read, and its analysis frames come from the cache
 * on disk (dist/frames); a language with a learned analyser reads words without the engine.
 */
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Command } from 'commander';
import { loadConfig } from '../config.js';
import { describeCell } from '../morphology/evaluate.js';
import type { AnalysisView, MorphologyService } from '../morphology/service.js';
import { openLanguageCodes, openMorphology, textAnalyzerFactories } from '../services.js';
import { tokenViews } from '../text/api.js';
import { formatSadiiLine } from '../text/sadii.js';
import { TextService, type TextAnalysis } from '../text/service.js';
import type { TokenAnalysis } from '../text/types.js';
import { engineOrUsage, valueOrUsage } from './languages.js';
import { CliError, EXIT_FAILURE, EXIT_USAGE, printJson, table } from './output.js';

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
    .description(
      'analyse a word; without WORD, each line of standard input as one word; with --text FILE (or --text - for standard input), running text token by token',
    )
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
      const morphology = morphologyForLanguage(options);
      const language = engineOrUsage(morphology, options.language).iso;
      const text = new TextService({ morphology: () => morphology, factories: textAnalyzerFactories });
      if (options.text !== undefined) {
        if (word !== undefined) throw new CliError('give a WORD or --text FILE, not both', EXIT_USAGE);
        const input = options.text === '-' ? await readStdin() : readText(options.text);
        await analyseText(text, language, input, format, options);
        return;
      }
      if (format === 'sadii') throw new CliError('--format sadii is for running text: add --text FILE (or --text - for standard input)', EXIT_USAGE);
      const learned = text.analyzer(language);
      const useLearned = learned.ok && learned.value.learned;
      const analyseWord = (form: string) => (useLearned ? learnedWord(text, language, form, options) : engineWord(text, form, language));
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
function morphologyForLanguage(options: AnalyzeOptions): MorphologyService {
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
  const outcome = await service.analyzeText(language, input, { maxCharacters: Number.POSITIVE_INFINITY, ...(options.all ? { all: true } : {}), ...(options.lines ? { paragraphs: 'line' as const } : {}) });
  if (!outcome.ok) throw new CliError(`--text: ${outcome.message}`, outcome.code === 'language_not_found' ? EXIT_USAGE : EXIT_FAILURE);
  process.stdout.write(formatText(outcome.value, format));
}

/** A whole analysed text in one of the output formats. */
export function formatText(analysis: TextAnalysis, format: Format): string {
  const out: string[] = [];
  if (format === 'json') {
    // One JSON line a paragraph: long texts stream into line-oriented tools.
    const tokens = tokenViews(analysis);
    analysis.paragraphs.forEach((p, n) => out.push(JSON.stringify({ language: analysis.language, analyzer: analysis.analyzer, paragraph: n, tokens: tokens.slice(p.start, p.end) })));
    return out.length ? `${out.join('\n')}\n` : '';
  }
  analysis.paragraphs.forEach((p, n) => {
    if (format === 'sadii') out.push(`<LINE# ${n + 1}>`);
    else if (n > 0) out.push('');
    for (const token of analysis.tokens.slice(p.start, p.end)) {
      const [best, ...rest] = token.analyses;
      if (format === 'sadii') {
        // The dataset has one reading a token: the most probable.
        out.push(formatSadiiLine(token.text, best!));
        continue;
      }
      out.push([token.text, ...readingColumns(best!)].join('\t'));
      for (const r of rest) out.push(['', ...readingColumns(r)].join('\t'));
    }
  });
  return out.length ? `${out.join('\n')}\n` : '';
}

/** lemma, POS, segmentation, probability, and "guess" when the stem is in no lexicon. */
function readingColumns(r: TokenAnalysis): string[] {
  return [r.lemma, r.pos, r.morphemes.map((m) => m.surface).filter(Boolean).join('-'), r.probability.toFixed(3), ...(r.guess ? ['guess'] : [])];
}

/** One word through the engine, every analysis (with a learned analyser's readings first where the language has one). */
function engineWord(text: TextService, form: string, language: string): { text: string; json: unknown } {
  const analyses = valueOrUsage(text.analyzeForm(form, language));
  return { text: formatAnalyses(form, analyses), json: { form, analyses } };
}

/** One word through the language's learned analyser alone (no engine frames to load). */
function learnedWord(text: TextService, language: string, form: string, options: AnalyzeOptions): { text: string; json: unknown } {
  const chosen = text.analyzer(language);
  if (!chosen.ok) throw new CliError(`--language: ${chosen.message}`, EXIT_USAGE);
  const readings = chosen.value.analyzer.analyzeTokens([form], options.all ? { all: true } : {})[0] ?? [];
  const rows = readings.map((r) => ({ LEMMA: r.guess ? `${r.lemma} (not in lexicon)` : r.lemma, POS: r.pos, MORPHS: r.morphemes.map((m) => m.surface).filter(Boolean).join('-'), P: r.probability.toFixed(3) }));
  return { text: rows.length === 0 ? `${form}\n  no analysis\n` : `${form}\n${table(rows).replace(/^/gm, '  ')}\n`, json: { form, analyses: readings } };
}

/** The word, then a table with one row per analysis: lemma, cell, morphs, gloss. */
export function formatAnalyses(form: string, analyses: AnalysisView[]): string {
  if (analyses.length === 0) return `${form}\n  no analysis\n`;
  const rows = analyses.map((a) => ({
    LEMMA: a.in_lexicon ? a.lemma : `${a.lemma} (not in lexicon)`,
    CELL: describeCell(a.features),
    MORPHS: a.words.map((w) => Object.values(w.slots).map((s) => s.form).join('-')).join(' '),
    ENGLISH: a.english ?? '',
  }));
  return `${form}\n${table(rows).replace(/^/gm, '  ')}\n`;
}
