/** `lugha analyze`: every analysis of a word, or of each word read from standard input. */
import { createInterface } from 'node:readline';
import type { Command } from 'commander';
import { describeCell } from '../morphology/evaluate.js';
import type { AnalysisView, MorphologyService } from '../morphology/service.js';
import { engineOrUsage, morphologyFor, valueOrUsage, type LanguageOptions } from './languages.js';
import { printJson, table } from './output.js';

export function registerAnalyzeCommand(program: Command): void {
  program
    .command('analyze')
    .description('analyse a word; without WORD, analyse each line of standard input (one result block per word)')
    .argument('[word]', 'the word to analyse')
    .requiredOption('--language <iso>', 'language code (swh, sw, ...)')
    .option('--languages-dir <dir>', 'folder of language cartridges')
    .option('--json', 'print JSON: one object for WORD, one JSON line per word from standard input')
    .action(async (word: string | undefined, options: LanguageOptions) => {
      const morphology = morphologyFor(options);
      const language = engineOrUsage(morphology, options.language).iso;
      if (word !== undefined) {
        const analyses = analyse(morphology, word, language);
        if (options.json) printJson({ form: word, analyses });
        else process.stdout.write(formatAnalyses(word, analyses));
        return;
      }
      let first = true;
      for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
        const form = line.trim();
        if (!form) continue;
        const analyses = analyse(morphology, form, language);
        if (options.json) process.stdout.write(`${JSON.stringify({ form, analyses })}\n`);
        else process.stdout.write(`${first ? '' : '\n'}${formatAnalyses(form, analyses)}`);
        first = false;
      }
    });
}

function analyse(morphology: MorphologyService, form: string, language: string): AnalysisView[] {
  return valueOrUsage(morphology.analyze(form, language));
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
