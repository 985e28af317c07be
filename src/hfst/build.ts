/**
 * Builds Lugha's own transducers from the cartridges (`lugha hfst build`): each cartridge
 * with a verb grammar is exported to lexc, compiled by the HFST tools into a generator and
 * an analyser, and written with a manifest into the models folder, where the service
 * lists and serves them like any other model. Needs the HFST tools; serving does not.
 */
import { mkdirSync, mkdtempSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stringify as toYaml } from 'yaml';
import type { MorphologyService } from '../morphology/service.js';
import { exportVerbLexc } from './cartridge-export.js';
import { exportVerbGrammar, writtenSpellingRule } from './grammar-export.js';
import { MANIFEST_SUFFIX, type ModelManifest } from './models.js';
import { compileLexc, compileRuleCascade } from './toolchain.js';

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
  /** `grammar` (default): lexc following the verb template + xfst rules; `table`: every form listed. */
  kind?: ModelKind;
  onProgress?: (message: string) => void;
}

/** Model names of a language's transducers. */
export function lughaModelNames(iso: string): { analyser: string; generator: string; guesser: string } {
  return { analyser: `lugha-${iso}-verbs-analyser`, generator: `lugha-${iso}-verbs-generator`, guesser: `lugha-${iso}-verbs-guesser` };
}

/** Exports, compiles and installs the verb transducers of each cartridge. */
export function buildCartridgeModels(options: BuildOptions): BuiltLanguage[] {
  mkdirSync(options.outDir, { recursive: true });
  const built: BuiltLanguage[] = [];
  const wanted = options.languages?.map((code) => {
    const engine = options.morphology.engine(code);
    if (!engine.ok) throw new Error(engine.message);
    return engine.value.iso;
  });
  for (const summary of options.morphology.languages()) {
    if (wanted && !wanted.includes(summary.iso)) continue;
    const engine = options.morphology.engine(summary.iso);
    if (!engine.ok) continue;
    const started = Date.now();
    const kind = options.kind ?? 'grammar';
    const lemmaOption = options.lemmas ? { lemmas: options.lemmas } : {};
    const base = `lugha-${summary.iso}-verbs`;
    let sources: Array<{ file: string; text: string }>;
    let details: Pick<BuiltLanguage, 'forms' | 'lemmas' | 'exceptions' | 'rules' | 'guesser'>;
    let description: string;
    if (kind === 'grammar') {
      // GiellaLT's layout: the analyser and generator hold the lexicon; the open root class is a
      // separate guesser that the analyser names as its fallback (asked only for words it cannot read).
      const grammar = exportVerbGrammar(engine.value.cartridge, engine.value.generator, { ...lemmaOption, roots: 'lexicon' });
      if (!grammar) continue;
      const guess = exportVerbGrammar(engine.value.cartridge, engine.value.generator, { ...lemmaOption, roots: 'guesser' })!;
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
      const exported = exportVerbLexc(engine.value.cartridge, engine.value.generator, lemmaOption);
      if (!exported || exported.forms.length === 0) continue;
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
      const spelling = writtenSpellingRule(engine.value.cartridge);
      const rules = {
        ...(kind === 'grammar' ? { ruleSteps: compileRuleCascade(path.join(work, sources[1]!.file), work, base), weighted: true } : {}),
        ...(spelling ? { analyserInput: spelling } : {}),
      };
      const compiled = compileLexc({ lexc: path.join(work, sources[0]!.file), ...rules, outDir: work, name: base });
      const guesserSource = sources.find((x) => x.file.endsWith('-guesser.lexc'));
      const guessCompiled = guesserSource ? compileLexc({ lexc: path.join(work, guesserSource.file), ...rules, outDir: work, name: `${base}-guesser` }) : undefined;
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
      built.push({
        iso: summary.iso,
        kind,
        ...details,
        analyser: files.analyser,
        generator: files.generator,
        ...(guessCompiled ? { guesserFile: files.guesser, guesserBytes: statSync(path.join(options.outDir, files.guesser)).size } : {}),
        analyserBytes: statSync(path.join(options.outDir, files.analyser)).size,
        generatorBytes: statSync(path.join(options.outDir, files.generator)).size,
        millis: Date.now() - started,
      });
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
  return built;
}
