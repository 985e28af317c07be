/** The `lugha` command line: one entry, one sub-command per concern. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Command, CommanderError } from 'commander';
import { ConfigError, packageRoot } from '../config.js';
import { LughaError } from '../errors.js';
import { registerAnalyzeCommand } from './analyze.js';
import { registerAudioCommands } from './audio.js';
import { registerConfigCommand } from './config-command.js';
import { registerConjugateCommand } from './conjugate.js';
import { registerEvalCommands } from './eval.js';
import { registerHfstCommands } from './hfst.js';
import { registerKeyCommands } from './keys.js';
import { registerOperationsCommands } from './operations.js';
import { registerMcpCommand } from './mcp.js';
import { CliError, EXIT_USAGE } from './output.js';
import { registerServeCommand } from './serve.js';
import { registerSpellCommand } from './spell.js';

export async function main(argv: string[]): Promise<number> {
  const { version } = JSON.parse(readFileSync(path.join(packageRoot, 'package.json'), 'utf8')) as { version: string };
  const program = new Command('lugha')
    .description('Lugha: a data service for Bantu languages')
    .version(version)
    .exitOverride()
    .showHelpAfterError();
  registerServeCommand(program);
  registerConfigCommand(program);
  registerKeyCommands(program);
  registerConjugateCommand(program);
  registerAnalyzeCommand(program);
  registerEvalCommands(program);
  registerAudioCommands(program);
  registerSpellCommand(program);
  registerOperationsCommands(program);
  registerMcpCommand(program);
  registerHfstCommands(program);
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : EXIT_USAGE;
    if (error instanceof ConfigError) {
      process.stderr.write(`lugha: ${error.message}\n`);
      return EXIT_USAGE;
    }
    if (error instanceof CliError) {
      process.stderr.write(`lugha: ${error.message}\n`);
      return error.exitCode;
    }
    // A refusal the service would answer with a problem (the database locked or unreachable): its words, not a stack.
    if (error instanceof LughaError) {
      process.stderr.write(`lugha: ${error.detail}\n`);
      return 1;
    }
    process.stderr.write(`lugha: ${(error as Error).stack ?? String(error)}\n`);
    return 1;
  }
}
