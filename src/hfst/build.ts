/**
 * Builds Lugha's own transducers from the cartridges (`lugha hfst build`): each cartridge
 * with a verb grammar is exported to lexc, compiled by the HFST tools into a generator and
 * an analyser, and written with a manifest into the models folder, where the service
 * lists and serves them like any other model. Needs the HFST tools; serving does not.
 */
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stringify as toYaml } from 'yaml';
import type { MorphologyService } from '../morphology/service.js';
import { exportVerbLexc } from './cartridge-export.js';
import { MANIFEST_SUFFIX, type ModelManifest } from './models.js';
import { compileLexc } from './toolchain.js';

export const LUGHA_TAG_CONVENTION =
  'Lugha: lemma+V+T/<tense>[+S/<subject>][+O/<object>][+Ext/<extension>][+Var/<variant>][+Neg]; tense, subject and object ids as in GET /api/v1/languages/{lang}';
export const LUGHA_MODEL_LICENCE = 'LicenseRef-Lugha-cartridge';

export interface BuiltLanguage {
  iso: string;
  forms: number;
  lemmas: number;
  analyser: string;
  generator: string;
}

export interface BuildOptions {
  morphology: MorphologyService;
  /** The models folder. */
  outDir: string;
  /** Only these languages (default: every cartridge with a verb grammar). */
  languages?: readonly string[];
  /** Only these lemmas (default: the lexicon's verbs and the golden tests' verb lemmas). */
  lemmas?: readonly string[];
  onProgress?: (message: string) => void;
}

/** Model names of a language's transducers. */
export function lughaModelNames(iso: string): { analyser: string; generator: string } {
  return { analyser: `lugha-${iso}-verbs-analyser`, generator: `lugha-${iso}-verbs-generator` };
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
    const exported = exportVerbLexc(engine.value.cartridge, engine.value.generator, options.lemmas ? { lemmas: options.lemmas } : {});
    if (!exported || exported.forms.length === 0) continue;
    options.onProgress?.(`${summary.iso}: ${exported.forms.length} forms of ${exported.lemmas.length} lemmas; compiling`);
    const work = mkdtempSync(path.join(options.outDir, `.build-${summary.iso}-`));
    try {
      const lexc = path.join(work, `lugha-${summary.iso}-verbs.lexc`);
      writeFileSync(lexc, exported.lexc);
      const compiled = compileLexc({ lexc, outDir: work, name: `lugha-${summary.iso}-verbs` });
      const names = lughaModelNames(summary.iso);
      const files = { analyser: `${names.analyser}.hfstol`, generator: `${names.generator}.hfstol` };
      renameSync(compiled.analyser, path.join(options.outDir, files.analyser));
      renameSync(compiled.generator, path.join(options.outDir, files.generator));
      renameSync(lexc, path.join(options.outDir, `lugha-${summary.iso}-verbs.lexc`));
      for (const direction of ['analyse', 'generate'] as const) {
        const role = direction === 'analyse' ? 'analyser' : 'generator';
        const manifest: ModelManifest = {
          file: files[role],
          language: summary.iso,
          direction,
          tags: LUGHA_TAG_CONVENTION,
          licence: LUGHA_MODEL_LICENCE,
          source: `Lugha cartridge languages/${summary.iso}/ (sources cited there); lexc: lugha-${summary.iso}-verbs.lexc`,
          description: `${summary.name} verbs, ${role}: ${exported.forms.length} forms of ${exported.lemmas.length} lemmas from the template engine.`,
          origin: 'lugha',
          normalize: 'NFC',
        };
        writeFileSync(path.join(options.outDir, `${names[role]}${MANIFEST_SUFFIX}`), toYaml(manifest));
      }
      built.push({ iso: summary.iso, forms: exported.forms.length, lemmas: exported.lemmas.length, ...files });
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
  return built;
}
