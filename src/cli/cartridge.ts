/** `lugha cartridge check <iso>`: validate one cartridge's files and run its golden tests both ways (src/cartridge/check.ts). */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { checkCartridge, type CartridgeCheck } from '../cartridge/check.js';
import { describeOutcome, unreadByReason, type GoldenTally } from '../cartridge/golden.js';
import { loadConfig } from '../config.js';
import { FrameCache } from '../morphology/frame-cache.js';
import { frameCacheDir, openLanguageCodes } from '../services.js';
import { CliError, EXIT_FAILURE, EXIT_USAGE, printJson } from './output.js';

interface CheckOptions {
  languagesDir?: string;
  list?: boolean;
  json?: boolean;
}

export function registerCartridgeCommands(program: Command): void {
  const cartridge = program.command('cartridge').description('work on a language cartridge (languages/<iso>/)');
  cartridge
    .command('check')
    .description("validate a cartridge's files and run its golden tests in both directions (generation and analysis); exit code 1 on any failure")
    .argument('<iso>', 'the cartridge folder name (ISO 639-3), or a code that normalises to it (sw, swa)')
    .option('--languages-dir <dir>', 'folder of language cartridges')
    .option('--list', 'also list each golden case the analyzer cannot read yet (unanalysable or marked analysis_open)')
    .option('--json', 'print the check as JSON')
    .action((code: string, options: CheckOptions) => {
      const languagesDir = loadConfig({ flags: { languagesDir: options.languagesDir } }).languagesDir;
      const iso = openLanguageCodes().normalise(code) ?? code.toLowerCase();
      const dir = path.join(languagesDir, iso);
      if (!/^[a-z]{3}$/.test(iso) || !existsSync(path.join(dir, 'cartridge.yaml'))) {
        throw new CliError(`<iso>: no cartridge folder ${iso}/ with a cartridge.yaml in the languages folder`, EXIT_USAGE);
      }
      const check = checkCartridge(dir, { frameCache: new FrameCache(frameCacheDir) });
      if (options.json) printJson(check);
      else process.stdout.write(formatCheck(check, options.list === true));
      if (!check.ok) throw new CliError(`${iso}: the cartridge check failed`, EXIT_FAILURE);
    });
}

const tally = (t: GoldenTally) => `${t.passing}/${t.total} pass${t.failing ? `, ${t.failing} fail` : ''}`;

/** The check as a person reads it: files, then each direction, then every failing case with its source. */
export function formatCheck(check: CartridgeCheck, list: boolean): string {
  const lines = [`${check.iso}: ${check.files.join(', ')}`];
  if (check.errors.length > 0) {
    lines.push(...check.errors.map((e) => `invalid: ${e}`), `${check.iso}: FAILED (the files are not valid; golden tests not run)`);
    return `${lines.join('\n')}\n`;
  }
  lines.push('files: valid');
  if (check.generation.total === 0) {
    lines.push('golden tests: none (add golden.yaml: docs/adding-a-language.md)');
  } else {
    lines.push(`generation: ${tally(check.generation)}${check.generation.open ? ` (${check.generation.open} with a gloss marked gloss_open, not counted as passing)` : ''}`);
    const notRead = check.analysis.unanalysable + check.analysis.open;
    lines.push(`analysis: ${tally(check.analysis)}${notRead ? ` (${notRead} not read by the analyzer yet, not counted as passing)` : ''}`);
    const unread = check.outcomes.filter((o) => o.direction === 'analysis' && (o.status === 'unanalysable' || o.status === 'open'));
    if (list) lines.push(...unread.map((o) => `  not read: ${describeOutcome(o)}`));
    else lines.push(...unreadByReason(unread).map((r) => `  not read: ${r}`));
    lines.push(...check.outcomes.filter((o) => o.direction === 'generation' && o.status === 'open').map((o) => `  gloss open: ${describeOutcome(o)}`));
    lines.push(...check.outcomes.filter((o) => o.status === 'fail').map((o) => `FAIL ${describeOutcome(o)}`));
  }
  lines.push(`${check.iso}: ${check.ok ? 'ok' : 'FAILED'}`);
  return `${lines.join('\n')}\n`;
}
