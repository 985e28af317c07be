/** The `lugha` command line: one entry, one sub-command per concern. */
import { Command, CommanderError } from 'commander';
import { ConfigError, packageVersion } from '../config.js';
import { LughaError } from '../errors.js';
import { CliError, EXIT_USAGE } from './output.js';

type Register = (program: Command) => void;

/**
 * The command modules, loaded on demand: `lugha hfst lookup` should not pay for the server,
 * the stores and the audio pipeline (0.73 s of imports before any word was read). In the order
 * of `lugha --help`.
 */
const MODULES: Array<{ commands: readonly string[]; load: () => Promise<Register> }> = [
  { commands: ['serve'], load: async () => (await import('./serve.js')).registerServeCommand },
  { commands: ['config'], load: async () => (await import('./config-command.js')).registerConfigCommand },
  { commands: ['keys'], load: async () => (await import('./keys.js')).registerKeyCommands },
  { commands: ['conjugate'], load: async () => (await import('./conjugate.js')).registerConjugateCommand },
  { commands: ['analyze'], load: async () => (await import('./analyze.js')).registerAnalyzeCommand },
  { commands: ['eval'], load: async () => (await import('./eval.js')).registerEvalCommands },
  { commands: ['ingest', 'consent'], load: async () => (await import('./audio.js')).registerAudioCommands },
  { commands: ['spell'], load: async () => (await import('./spell.js')).registerSpellCommand },
  { commands: ['search-roots', 'noun-classes', 'decompose'], load: async () => (await import('./lexicon.js')).registerLexiconCommands },
  { commands: ['migrate', 'doctor', 'copy'], load: async () => (await import('./operations.js')).registerOperationsCommands },
  { commands: ['mcp'], load: async () => (await import('./mcp.js')).registerMcpCommand },
  { commands: ['hfst'], load: async () => (await import('./hfst.js')).registerHfstCommands },
  { commands: ['cartridge'], load: async () => (await import('./cartridge.js')).registerCartridgeCommands },
];

export async function main(argv: string[]): Promise<number> {
  const version = packageVersion();
  const program = new Command('lugha').description('Lugha: a data service for Bantu languages').version(version).exitOverride().showHelpAfterError();
  // The module of the command named, none for the version alone, or every module (help, a typo, no command).
  const named = MODULES.filter((m) => m.commands.includes(argv[2] ?? ''));
  const versionOnly = argv.length === 3 && (argv[2] === '--version' || argv[2] === '-V');
  const modules = named.length === 1 ? named : versionOnly ? [] : MODULES;
  for (const register of await Promise.all(modules.map((m) => m.load()))) register(program);
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
