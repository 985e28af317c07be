/**
 * `lugha hfst …`: look words up in an HFST model in hfst-optimized-lookup's output format,
 * list the models folder, export the cartridges' verb morphology to lexc, and build
 * Lugha's own transducers (the last needs the HFST tools).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { formatLookupBlock } from '../hfst/lookup-format.js';
import { HfstFormatError, lookupNormalised, Transducer, type LookupOptions } from '../hfst/transducer.js';
import { CliError, EXIT_USAGE, printJson, table } from './output.js';

// Only what `lugha hfst lookup --file` needs is imported up front: the services, the cartridge
// exporters and the HFST toolchain load when a sub-command uses them, so a lookup starts in
// about a tenth of a second instead of most of one.
const services = () => import('../services.js');
const configModule = () => import('../config.js');
const languages = () => import('./languages.js');

interface LookupCommandOptions {
  model?: string;
  file?: string;
  language?: string;
  generate?: boolean;
  modelsDir?: string;
  showWeights?: boolean;
  unique?: boolean;
  analyses?: string;
  beam?: string;
  fallback?: boolean;
}

export function registerHfstCommands(program: Command): void {
  const hfst = program.command('hfst').description('HFST transducers: look up, list, export to lexc, build from the cartridges');

  hfst
    .command('lookup')
    .description("look up each line of standard input; prints hfst-optimized-lookup's format (word<TAB>result[<TAB>weight], a blank line per word)")
    .option('--model <name>', 'a model of the models folder (or its base name: NAME-analyser / NAME-generator)')
    .option('--language <code>', 'the first model of this language for the direction')
    .option('--file <path>', 'an .hfstol file instead of a model')
    .option('--generate', 'use a generator (analysis in, surface forms out) instead of an analyser')
    .option('--models-dir <dir>', 'the models folder (default: LUGHA_MODELS_DIR or <data dir>/models)')
    .option('-w, --show-weights', 'print weights (weighted transducers)')
    .option('-u, --unique', 'drop repeated results')
    .option('-n, --analyses <n>', 'print at most N results per word (the N best when weighted)')
    .option('-b, --beam <b>', 'weighted: print results within B of the best')
    .option('--no-fallback', "with --model/--language: do not ask the analyser's fallback (its guesser) for words it cannot read")
    .action(async (options: LookupCommandOptions) => {
      const { transducer, normalize, fallback } = await openForLookup(options);
      const lookupOptions: LookupOptions = { unique: options.unique === true };
      if (options.analyses !== undefined) lookupOptions.nBest = positiveInt(options.analyses, '--analyses');
      if (options.beam !== undefined) lookupOptions.beam = nonNegative(options.beam, '--beam');
      const format = { weighted: transducer.info.weighted, showWeights: options.showWeights === true };
      await eachLine((word) => {
        let result = lookupNormalised(transducer, normalize, word, lookupOptions);
        if (result.results.length === 0 && !result.truncated && fallback) {
          const guessed = lookupNormalised(fallback.transducer, fallback.normalize, word, lookupOptions);
          if (guessed.results.length > 0) result = guessed;
        }
        return formatLookupBlock(word, result, format);
      });
      transducer.dispose();
      fallback?.transducer.dispose();
    });

  hfst
    .command('list')
    .description('list the models of the models folder (and manifests that could not be used)')
    .option('--models-dir <dir>', 'the models folder')
    .option('--json', 'print JSON')
    .action(async (options: { modelsDir?: string; json?: boolean }) => {
      const [{ openHfst }, { loadConfig }] = await Promise.all([services(), configModule()]);
      const { registry, service } = openHfst(loadConfig({ flags: { modelsDir: options.modelsDir } }));
      const models = service.listModels();
      if (options.json) printJson({ models, problems: registry.problems.map((p) => ({ manifest: p.parameter, problem: p.message })) });
      else {
        const rows = models.map((m) => ({
          NAME: m.name,
          LANGUAGE: m.language,
          DIRECTION: m.direction,
          WEIGHTED: m.weighted === null ? '?' : m.weighted ? 'yes' : 'no',
          ORIGIN: m.origin,
          LICENCE: m.licence,
        }));
        process.stdout.write(rows.length ? `${table(rows)}\n` : 'no models\n');
        for (const p of registry.problems) process.stderr.write(`lugha: skipped ${p.parameter}: ${p.message}\n`);
      }
      registry.close();
    });

  hfst
    .command('export')
    .description("print a cartridge's verb morphology as lexc (no HFST tools needed)")
    .requiredOption('--language <iso>', 'language code')
    .option('--kind <kind>', 'grammar (the verb template as lexc; its rules go to --rules) or table (every form listed)', 'grammar')
    .option('--rules <file>', 'grammar: write the xfst rule cascade (for hfst-regexp2fst -S) to this file')
    .option('--roots <which>', 'grammar: lexicon (what `lugha hfst build` compiles into the analyser and generator), guesser (its fallback: an open root class tagged +Guess), or both in one lexicon', 'both')
    .option('--languages-dir <dir>', 'folder of language cartridges')
    .action(async (options: { language: string; kind: string; rules?: string; roots: string; languagesDir?: string }) => {
      if (options.kind !== 'grammar' && options.kind !== 'table') throw new CliError(`--kind: grammar or table, not "${options.kind}"`, EXIT_USAGE);
      const roots = options.roots;
      if (roots !== 'lexicon' && roots !== 'guesser' && roots !== 'both') throw new CliError(`--roots: lexicon, guesser or both, not "${roots}"`, EXIT_USAGE);
      const [{ engineOrUsage, morphologyFor }, { exportVerbGrammar }, { exportVerbLexc }] = await Promise.all([languages(), import('../hfst/grammar-export.js'), import('../hfst/cartridge-export.js')]);
      const morphology = morphologyFor(options);
      const engine = engineOrUsage(morphology, options.language);
      const exported = options.kind === 'grammar' ? exportVerbGrammar(engine.cartridge, engine.generator, { roots }) : exportVerbLexc(engine.cartridge, engine.generator);
      if (!exported) throw new CliError(`--language: ${engine.cartridge.metadata.name} has no verb grammar`, EXIT_USAGE);
      if (options.rules && 'rules' in exported) writeFileSync(options.rules, exported.rules);
      process.stdout.write(exported.lexc);
    });

  hfst
    .command('build')
    .description("build Lugha's verb analysers and generators from the cartridges into the models folder (needs the HFST tools: apt-get install hfst)")
    .option('--language <codes>', 'comma-separated language codes, the option repeatable (default: every cartridge with a verb grammar)', accumulate)
    .option('--lemmas <lemmas>', 'comma-separated lemmas (default: the lexicon verbs and golden-test verbs)')
    .option('--kind <kind>', "grammar (lexc following the verb template + xfst rules; plus a guesser, an open root class tagged +Guess, as the analyser's fallback) or table (every form listed)", 'grammar')
    .option('--check', 'check each built transducer against the engine on the golden paradigms and print the agreement')
    .option(
      '-j, --jobs <n>',
      "how many HFST processes run at once: up to N languages build side by side, and a language's lexicon and guesser compile side by side (default: the number of CPUs; 1: one tool after another)",
    )
    .option('--models-dir <dir>', 'the models folder')
    .option('--languages-dir <dir>', 'folder of language cartridges')
    .action(async (options: { language?: string[]; lemmas?: string; kind: string; check?: boolean; jobs?: string; modelsDir?: string; languagesDir?: string }) => {
      if (options.kind !== 'grammar' && options.kind !== 'table') throw new CliError(`--kind: grammar or table, not "${options.kind}"`, EXIT_USAGE);
      const jobs = options.jobs === undefined ? undefined : positiveInt(options.jobs, '--jobs');
      const [{ hfstToolsAvailable }, { buildCartridgeModelsAsync }, { checkAgreement }, { engineOrUsage, morphologyFor }, { loadConfig }] = await Promise.all([
        import('../hfst/toolchain.js'),
        import('../hfst/build.js'),
        import('../hfst/agreement.js'),
        languages(),
        configModule(),
      ]);
      if (!hfstToolsAvailable()) throw new CliError('the HFST tools are not installed (Debian/Ubuntu: apt-get install hfst); serving does not need them, building does');
      const config = loadConfig({ flags: { modelsDir: options.modelsDir, languagesDir: options.languagesDir } });
      const morphology = morphologyFor(options);
      // An unknown code is a usage error before anything is built (the build itself would only throw).
      for (const code of options.language ?? []) engineOrUsage(morphology, code);
      const built = await buildCartridgeModelsAsync({
        morphology,
        outDir: config.modelsDir,
        kind: options.kind,
        ...(jobs === undefined ? {} : { jobs }),
        ...(options.language ? { languages: options.language } : {}),
        ...(options.lemmas ? { lemmas: split(options.lemmas) } : {}),
        onProgress: (message) => process.stderr.write(`${message}\n`),
      });
      for (const b of built) {
        const what =
          b.kind === 'table'
            ? `${b.forms} forms`
            : `${b.lemmas} roots${b.guesser ? ' + guesser' : ''}, ${b.rules.translated} rules, ${b.rules.unsupported.length} not expressible, ${b.exceptions.length} exception lemmas`;
        const guesser = b.guesserFile ? `, ${b.guesserFile} (${b.guesserBytes} bytes, the analyser's fallback)` : '';
        process.stdout.write(`${b.iso}: ${b.kind}: ${b.analyser} (${b.analyserBytes} bytes), ${b.generator} (${b.generatorBytes} bytes)${guesser}; ${what}; ${(b.millis / 1000).toFixed(1)} s\n`);
        for (const r of b.rules.unsupported) process.stdout.write(`  rule ${r.id} not expressible: ${r.reason}\n`);
        if (options.check) {
          const engine = engineOrUsage(morphology, b.iso);
          const report = checkAgreement({
            cartridge: engine.cartridge,
            generator: engine.generator,
            analyser: Transducer.load(readFileSync(path.join(config.modelsDir, b.analyser))),
            generatorModel: Transducer.load(readFileSync(path.join(config.modelsDir, b.generator))),
          });
          const pct = report.forms ? ((100 * report.agreed) / report.forms).toFixed(1) : '-';
          process.stdout.write(
            `  agreement with the engine on the golden paradigms: ${report.agreed}/${report.forms} forms (${pct}%); analysed ${report.analysed}, generated ${report.generated}/${report.generationChecked}, round-trip failures ${report.roundTripFailures}\n`,
          );
          for (const d of report.disagreements.slice(0, 10)) process.stdout.write(`  ${d.problem}: ${d.analysis} engine=${d.engine} transducer=${d.transducer.join('|')}\n`);
        }
      }
      if (built.length === 0) process.stdout.write('no cartridge with a verb grammar matched\n');
    });
}

type Normalisation = 'NFC' | 'NFD' | 'none';

async function openForLookup(options: LookupCommandOptions): Promise<{ transducer: Transducer; normalize: Normalisation; fallback?: { transducer: Transducer; normalize: Normalisation } }> {
  const direction = options.generate ? 'generate' : 'analyse';
  if (options.file) {
    try {
      return { transducer: Transducer.load(readFileSync(options.file)), normalize: 'none' };
    } catch (error) {
      if (error instanceof HfstFormatError) throw new CliError(`--file: ${error.message}`, EXIT_USAGE);
      throw error;
    }
  }
  if (!options.model && !options.language) throw new CliError('give --model <name>, --language <code> or --file <path>', EXIT_USAGE);
  const [{ openHfst }, { loadConfig }] = await Promise.all([services(), configModule()]);
  const { registry, service } = openHfst(loadConfig({ flags: { modelsDir: options.modelsDir } }));
  const resolved = service.resolveModel(options.model, options.language, direction);
  if (!resolved.ok) throw new CliError(resolved.message.replace(/^model "/, '--model "'), EXIT_USAGE);
  const entry = resolved.value;
  try {
    const fallbackEntry = direction === 'analyse' && options.fallback !== false && entry.manifest.fallback ? registry.get(entry.manifest.fallback) : undefined;
    return {
      transducer: registry.transducer(entry),
      normalize: entry.manifest.normalize,
      ...(fallbackEntry ? { fallback: { transducer: registry.transducer(fallbackEntry), normalize: fallbackEntry.manifest.normalize } } : {}),
    };
  } catch (error) {
    if (error instanceof HfstFormatError) throw new CliError(`model ${entry.name}: ${error.message}`);
    throw error;
  }
}

/** Feeds each line of standard input to `render` and writes the output in large chunks. */
async function eachLine(render: (line: string) => string): Promise<void> {
  let pending = '';
  let out = '';
  const flush = async () => {
    if (!out) return;
    const chunk = out;
    out = '';
    if (!process.stdout.write(chunk)) await new Promise<void>((resolve) => process.stdout.once('drain', resolve));
  };
  process.stdin.setEncoding('utf8');
  for await (const data of process.stdin) {
    const text = pending + (data as string);
    const lines = text.split('\n');
    pending = lines.pop()!;
    for (const line of lines) out += render(line.endsWith('\r') ? line.slice(0, -1) : line);
    if (out.length > 1 << 16) await flush();
  }
  if (pending) out += render(pending);
  await flush();
}

/** Commander's parser for a repeatable comma-separated option: every occurrence adds its codes. */
function accumulate(list: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), ...split(list)];
}

function split(list: string): string[] {
  return list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function positiveInt(text: string, flag: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new CliError(`${flag}: give a positive whole number, not "${text}"`, EXIT_USAGE);
  return n;
}

function nonNegative(text: string, flag: string): number {
  const n = Number(text);
  if (!Number.isFinite(n) || n < 0) throw new CliError(`${flag}: give a number ≥ 0, not "${text}"`, EXIT_USAGE);
  return n;
}
