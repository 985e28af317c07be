/** `lugha spell --language <iso> <number> [--class c8]`: a number in words, from the same service as GET /numerals. */
import type { Command } from 'commander';
import { openNumerals } from '../services.js';
import { morphologyFor, valueOrUsage } from './languages.js';
import { printJson } from './output.js';

interface SpellOptions {
  language: string;
  class?: string;
  languagesDir?: string;
  json?: boolean;
}

export function registerSpellCommand(program: Command): void {
  program
    .command('spell')
    .description('a whole number 0..10^12 in words, with noun-class agreement of the cardinal')
    .argument('<number>', 'the number, 0 to 1000000000000')
    .requiredOption('--language <iso>', 'language code (swh, sw, zul, ...)')
    .option('--class <id>', 'noun class of the counted noun (c2, c8, c10, ...)')
    .option('--languages-dir <dir>', 'folder of language cartridges')
    .option('--json', 'print the result as JSON')
    .action((number: string, options: SpellOptions) => {
      const numerals = openNumerals(morphologyFor({ languagesDir: options.languagesDir }));
      const result = valueOrUsage(numerals.spell({ language: options.language, number, ...(options.class !== undefined ? { class: options.class } : {}) }));
      if (options.json) printJson(result);
      else process.stdout.write(`${result.text}\n`);
    });
}
