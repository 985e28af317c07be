/**
 * Builds Lugha's own transducers from the cartridges (`lugha hfst build`): each cartridge
 * with a verb grammar is exported to lexc, compiled by the HFST tools into a generator and
 * an analyser, and written with a manifest into the models folder, where the service
 * lists and serves them like any other model. Needs the HFST tools; serving does not.
 */
import { mkdirSync, mkdtempSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { stringify as toYaml } from 'yaml';
import type { LanguageEngine, LanguageSummary, MorphologyService } from '../morphology/service.js';
import { exportVerbLexc } from './cartridge-export.js';
import { exportVerbGrammar, writtenSpellingRule } from './grammar-export.js';
import { MANIFEST_SUFFIX, type ModelManifest } from './models.js';
import { compileLexcSteps, compileRuleCascadeSteps, ProcessSlots, runSteps, runStepsAsync, type CompiledModels, type HfstSteps } from './toolchain.js';

export const LUGHA_TAG_CONVENTION =
  'Lugha: lemma+V+T/<tense>[+S/<subject>][+O/<object>][+Ext/<extension>][+Var/<variant>][+Neg][+Guess]; tense, subject and object ids as in GET /api/v1/languages/{lang}; +Guess: a root outside the lexicon (the guesser)';

/** How a cartridge becomes a transducer: its grammar (lexc + rules, the default) or its paradigm tables. */
export type ModelKind = 'grammar' | 'table';
export const LUGHA_MODEL_LICENCE = 'LicenseRef-Lugha-cartridge';

export interface BuiltLanguage {
  iso: string;
  kind: ModelKind;
  /** Table: the forms listed. Grammar: 0 (the lexicon lists morphs, not forms). */
  forms: number;
  lemmas: number;
  analyser: string;
  generator: string;
  /** Grammar: the guesser's .hfstol file (the analyser's fallback), when the cartridge has one. */
  guesserFile?: string;
  /** Bytes of the .hfstol files. */
  analyserBytes: number;
  generatorBytes: number;
  guesserBytes?: number;
  /** Grammar: lemmas routed through the exceptions lexicon, with their form counts. */
  exceptions: Array<{ lemma: string; reason: string; forms: number }>;
  /** Grammar: boundary rules translated into xfst, and those that could not be (with why). */
  rules: { translated: number; unsupported: Array<{ id: string; reason: string }> };
  /** Grammar: a guesser (the open root class, +Guess) was built as the analyser's fallback. */
  guesser: boolean;
  /** Wall-clock milliseconds of export + compilation. */
  millis: number;
}

export interface BuildOptions {
  morphology: MorphologyService;
  /** The models folder. */
  outDir: string;
  /** Only these languages (default: every cartridge with a verb grammar). */
  languages?: readonly string[];
  /** Only these lemmas (default: the lexicon's verbs and the golden tests' verb lemmas). */
  lemmas?: readonly string[];
  /** A language's own lemmas, over `lemmas`, by its code (the tests build each language with its own list in one build). */
  lemmasOf?: ReadonlyMap<string, readonly string[]>;
  /** `grammar` (default): lexc following the verb template + xfst rules; `table`: every form listed. */
  kind?: ModelKind;
  onProgress?: (message: string) => void;
}

/** Model names of a language's transducers. */
export function lughaModelNames(iso: string): { analyser: string; generator: string; guesser: string } {
  return { analyser: `lugha-${iso}-verbs-analyser`, generator: `lugha-${iso}-verbs-generator`, guesser: `lugha-${iso}-verbs-guesser` };
}

/** Exports, compiles and installs the verb transducers of each cartridge, one HFST tool at a time. */
export function buildCartridgeModels(options: BuildOptions): BuiltLanguage[] {
  const built: BuiltLanguage[] = [];
  for (const language of languagesToBuild(options)) {
    const b = runSteps(buildLanguageSteps(options, language));
    if (b) built.push(b);
  }
  return built;
}

export interface ParallelBuildOptions extends BuildOptions {
  /**
   * How many HFST processes run at once (default `os.availableParallelism()`): up to this many
   * languages are built side by side, and a language's lexicon and guesser compile side by side
   * when a slot is free. 1 builds as `buildCartridgeModels` does, one tool after another.
   */
  jobs?: number;
}

/**
 * `buildCartridgeModels` on every core: the same files, the same reports, in the same order
 * (progress messages may interleave between languages). On the first failure no further
 * language is started; those under way finish (or fail) and the first error is thrown.
 */
export async function buildCartridgeModelsAsync(options: ParallelBuildOptions): Promise<BuiltLanguage[]> {
  const jobs = options.jobs ?? availableParallelism();
  const slots = new ProcessSlots(jobs);
  const queue = languagesToBuild(options);
  const results: Array<BuiltLanguage | undefined> = [];
  let failure: { error: unknown } | undefined;
  let nextIndex = 0;
  const worker = async () => {
    while (!failure && nextIndex < queue.length) {
      const index = nextIndex++;
      try {
        // The earlier language's steps go first when both wait for a slot.
        results[index] = await runStepsAsync(buildLanguageSteps(options, queue[index]!), slots, index);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, queue.length) }, worker));
  if (failure) throw failure.error;
  return results.filter((b): b is BuiltLanguage => b !== undefined);
}

interface LanguageToBuild {
  summary: LanguageSummary;
  engine: LanguageEngine;
}

/** The languages a build covers, in the service's order (an unknown requested code throws). */
function languagesToBuild(options: BuildOptions): LanguageToBuild[] {
  mkdirSync(options.outDir, { recursive: true });
  const wanted = options.languages?.map((code) => {
    const engine = options.morphology.engine(code);
    if (!engine.ok) throw new Error(engine.message);
    return engine.value.iso;
  });
  const out: LanguageToBuild[] = [];
  for (const summary of options.morphology.languages()) {
    if (wanted && !wanted.includes(summary.iso)) continue;
    const engine = options.morphology.engine(summary.iso);
    if (!engine.ok) continue;
    out.push({ summary, engine: engine.value });
  }
  return out;
}

/** Exports, compiles and installs one language's transducers, as steps (undefined: the cartridge has nothing to build). */
function* buildLanguageSteps(options: BuildOptions, { summary, engine }: LanguageToBuild): HfstSteps<BuiltLanguage | undefined> {
  const started = Date.now();
  const kind = options.kind ?? 'grammar';
  const lemmas = options.lemmasOf?.get(summary.iso) ?? options.lemmas;
  const lemmaOption = lemmas ? { lemmas } : {};
  const base = `lugha-${summary.iso}-verbs`;
  let sources: Array<{ file: string; text: string }>;
  let details: Pick<BuiltLanguage, 'forms' | 'lemmas' | 'exceptions' | 'rules' | 'guesser'>;
  let description: string;
  if (kind === 'grammar') {
    // GiellaLT's layout: the analyser and generator hold the lexicon; the open root class is a
    // separate guesser that the analyser names as its fallback (asked only for words it cannot read).
    const grammar = exportVerbGrammar(engine.cartridge, engine.generator, { ...lemmaOption, roots: 'lexicon' });
    if (!grammar) return undefined;
    const guess = exportVerbGrammar(engine.cartridge, engine.generator, { ...lemmaOption, roots: 'guesser' })!;
    sources = [{ file: `${base}.lexc`, text: grammar.lexc }, { file: `${base}.rules.xfst`, text: grammar.rules }, ...(guess.guesser ? [{ file: `${base}-guesser.lexc`, text: guess.lexc }] : [])];
    const exceptionForms = grammar.exceptions.reduce((n, e) => n + e.forms, 0);
    details = {
      forms: 0,
      lemmas: grammar.lemmas.length,
      exceptions: grammar.exceptions,
      rules: { translated: grammar.translatedRules.length, unsupported: grammar.unsupportedRules },
      guesser: guess.guesser,
    };
    description =
      `verb template as lexc (${grammar.prefixes} prefix entries, ${grammar.lemmas.length} roots) ` +
      `composed with ${grammar.translatedRules.length} boundary rules as xfst` +
      (grammar.unsupportedRules.length ? ` (${grammar.unsupportedRules.length} not expressible: ${grammar.unsupportedRules.map((r) => r.id).join(', ')})` : '') +
      (grammar.exceptions.length ? `; exceptions lexicon: ${grammar.exceptions.length} lemmas, ${exceptionForms} forms` : '');
    options.onProgress?.(`${summary.iso}: ${description}; compiling`);
  } else {
    const exported = exportVerbLexc(engine.cartridge, engine.generator, lemmaOption);
    if (!exported || exported.forms.length === 0) return undefined;
    sources = [{ file: `${base}.lexc`, text: exported.lexc }];
    details = { forms: exported.forms.length, lemmas: exported.lemmas.length, exceptions: [], rules: { translated: 0, unsupported: [] }, guesser: false };
    description = `${exported.forms.length} forms of ${exported.lemmas.length} lemmas from the template engine`;
    options.onProgress?.(`${summary.iso}: ${description}; compiling`);
  }
  const work = mkdtempSync(path.join(options.outDir, `.build-${summary.iso}-`));
  try {
    for (const source of sources) writeFileSync(path.join(work, source.file), source.text);
    // The rule cascade is compiled once for the lexicon and the guesser. A spelling that leaves the
    // optional marks out: the analysers read words written with or without them.
    const spelling = writtenSpellingRule(engine.cartridge);
    const rules = {
      ...(kind === 'grammar' ? { ruleSteps: yield* compileRuleCascadeSteps(path.join(work, sources[1]!.file), work, base), weighted: true } : {}),
      ...(spelling ? { analyserInput: spelling } : {}),
    };
    // The lexicon and the guesser share only the (read-only) rule steps: they may compile side by side.
    const guesserSource = sources.find((x) => x.file.endsWith('-guesser.lexc'));
    const [compiled, guessCompiled] = (yield {
      parallel: [
        compileLexcSteps({ lexc: path.join(work, sources[0]!.file), ...rules, outDir: work, name: base }),
        ...(guesserSource ? [compileLexcSteps({ lexc: path.join(work, guesserSource.file), ...rules, outDir: work, name: `${base}-guesser` })] : []),
      ],
    }) as [CompiledModels, CompiledModels?];
    const names = lughaModelNames(summary.iso);
    const files = { analyser: `${names.analyser}.hfstol`, generator: `${names.generator}.hfstol`, guesser: `${names.guesser}.hfstol` };
    const roles: Array<{ role: 'analyser' | 'generator' | 'guesser'; file: string; direction: 'analyse' | 'generate' }> = [
      { role: 'analyser', file: compiled.analyser, direction: 'analyse' },
      { role: 'generator', file: compiled.generator, direction: 'generate' },
      ...(guessCompiled ? [{ role: 'guesser' as const, file: guessCompiled.analyser, direction: 'analyse' as const }] : []),
    ];
    for (const r of roles) renameSync(r.file, path.join(options.outDir, files[r.role]));
    // A guesser left by an earlier build with a guesser would be listed without its analyser's fallback.
    if (!guessCompiled) for (const stale of [files.guesser, `${names.guesser}${MANIFEST_SUFFIX}`, `${base}-guesser.lexc`]) rmSync(path.join(options.outDir, stale), { force: true });
    for (const source of sources) renameSync(path.join(work, source.file), path.join(options.outDir, source.file));
    for (const { role, direction } of roles) {
      const manifest: ModelManifest = {
        file: files[role],
        language: summary.iso,
        direction,
        tags: LUGHA_TAG_CONVENTION,
        licence: LUGHA_MODEL_LICENCE,
        source: `Lugha cartridge languages/${summary.iso}/ (sources cited there); ${sources.map((x) => x.file).join(', ')}`,
        description:
          role === 'guesser'
            ? `${summary.name} verbs, guesser: the verb template with an open root class (any root of the cartridge's letters, tagged +Guess) instead of the lexicon; the fallback of ${names.analyser} for words it cannot read.`
            : `${summary.name} verbs, ${role}: ${description}.`,
        origin: 'lugha',
        normalize: 'NFC',
        ...(role === 'analyser' && guessCompiled ? { fallback: names.guesser } : {}),
      };
      writeFileSync(path.join(options.outDir, `${names[role]}${MANIFEST_SUFFIX}`), toYaml(manifest));
    }
    return {
      iso: summary.iso,
      kind,
      ...details,
      analyser: files.analyser,
      generator: files.generator,
      ...(guessCompiled ? { guesserFile: files.guesser, guesserBytes: statSync(path.join(options.outDir, files.guesser)).size } : {}),
      analyserBytes: statSync(path.join(options.outDir, files.analyser)).size,
      generatorBytes: statSync(path.join(options.outDir, files.generator)).size,
      millis: Date.now() - started,
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
