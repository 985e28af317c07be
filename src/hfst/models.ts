/**
 * The models folder: every `<name>.model.yaml` manifest next to an `.hfstol` file is a
 * model, listed and usable without code changes. Lugha's own models (built from the
 * cartridges by `lugha hfst build`) are written to the same folder with the same kind
 * of manifest. Transducers load on first use and stay loaded until `close()`.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import type { Problem } from '../result.js';
import { Transducer } from './transducer.js';

export const MANIFEST_SUFFIX = '.model.yaml';

/** One model's manifest (`<name>.model.yaml`). */
export const manifestSchema = z
  .object({
    /** The transducer, relative to the manifest's folder. */
    file: z.string().regex(/^[^/\\]+\.hfstol$/, 'must name an .hfstol file in the same folder'),
    /** Language code (ISO 639-3 preferred) or a tag such as `und` for a test grammar. */
    language: z.string().min(2).max(20),
    /** `analyse`: surface form in, analyses out; `generate`: analysis in, surface forms out. */
    direction: z.enum(['analyse', 'generate']),
    /** Human description of the tag conventions (e.g. "Apertium: lemma<vblex><pres>"). */
    tags: z.string().min(1).max(500),
    /** SPDX licence id of the transducer (e.g. GPL-3.0-or-later). */
    licence: z.string().min(1).max(100),
    /** Where the transducer comes from (a URL, a repository and commit, or "Lugha cartridge xyz"). */
    source: z.string().min(1).max(500),
    description: z.string().max(1000).optional(),
    /** `lugha`: built from a Lugha cartridge (downloadable through the API); `third_party`: installed by the operator (never offered for download). */
    origin: z.enum(['lugha', 'third_party']).default('third_party'),
    /** Normalise input to NFC before lookup (the default; HFST symbols are usually NFC). */
    normalize: z.enum(['NFC', 'NFD', 'none']).default('NFC'),
    /**
     * Analysers: another analyser of the folder to ask for a word this one cannot read (a
     * guesser, as GiellaLT ships them). Lugha's verb analysers name their guesser here.
     */
    fallback: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, 'a model name of the same folder')
      .optional(),
  })
  .strict();

export type ModelManifest = z.infer<typeof manifestSchema>;

/** A listed model: its manifest, where it lives, and what a loaded transducer says about it. */
export interface ModelEntry {
  name: string;
  manifest: ModelManifest;
  path: string;
  bytes: number;
}

/** A manifest that could not be used (listed for the operator, never fatal): `parameter` is the manifest's path, `message` the reason. */
export type ModelProblem = Problem<'model_unreadable'> & { parameter: string };

function modelProblem(manifest: string, message: string): ModelProblem {
  return { code: 'model_unreadable', parameter: manifest, message };
}

export class ModelRegistry {
  readonly #entries = new Map<string, ModelEntry>();
  readonly #loaded = new Map<string, Transducer>();
  readonly problems: ModelProblem[] = [];

  private constructor(readonly dirs: readonly string[]) {}

  /** Scans `dirs` (missing folders are fine: no models there). A name found twice keeps the first. */
  static scan(dirs: readonly string[]): ModelRegistry {
    const registry = new ModelRegistry(dirs);
    for (const dir of dirs) {
      if (!existsSync(dir)) continue;
      for (const file of readdirSync(dir).sort()) {
        if (!file.endsWith(MANIFEST_SUFFIX)) continue;
        const name = file.slice(0, -MANIFEST_SUFFIX.length);
        const manifestPath = path.join(dir, file);
        if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(name)) {
          registry.problems.push(modelProblem(manifestPath, 'model names use letters, digits, ".", "_" and "-"'));
          continue;
        }
        if (registry.#entries.has(name)) continue;
        let manifest: ModelManifest;
        try {
          const parsed = manifestSchema.safeParse(parseYaml(readFileSync(manifestPath, 'utf8')));
          if (!parsed.success) {
            registry.problems.push(modelProblem(manifestPath, parsed.error.issues.map((i) => `${i.path.join('.') || '(file)'}: ${i.message}`).join('; ')));
            continue;
          }
          manifest = parsed.data;
        } catch (error) {
          registry.problems.push(modelProblem(manifestPath, `not YAML: ${(error as Error).message}`));
          continue;
        }
        const modelPath = path.join(dir, manifest.file);
        if (!existsSync(modelPath)) {
          registry.problems.push(modelProblem(manifestPath, `${manifest.file} is missing`));
          continue;
        }
        registry.#entries.set(name, { name, manifest, path: modelPath, bytes: statSync(modelPath).size });
      }
    }
    // A fallback must be another analyser that is listed; otherwise the model is served without it.
    for (const entry of registry.#entries.values()) {
      const fallback = entry.manifest.fallback;
      if (fallback === undefined) continue;
      const target = registry.#entries.get(fallback);
      const problem =
        entry.manifest.direction !== 'analyse'
          ? 'only an analyser can have a fallback'
          : fallback === entry.name || !target
            ? `fallback ${fallback} is not a model of the folder`
            : target.manifest.direction !== 'analyse'
              ? `fallback ${fallback} is not an analyser`
              : target.manifest.fallback !== undefined
                ? `fallback ${fallback} has a fallback of its own (one level only)`
                : undefined;
      if (problem) {
        registry.problems.push(modelProblem(path.join(path.dirname(entry.path), `${entry.name}${MANIFEST_SUFFIX}`), `${problem}; served without it`));
        const { fallback: _dropped, ...rest } = entry.manifest;
        entry.manifest = rest;
      }
    }
    return registry;
  }

  /** Every usable model, by name. */
  list(): ModelEntry[] {
    return [...this.#entries.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  get(name: string): ModelEntry | undefined {
    return this.#entries.get(name);
  }

  /** The loaded transducer of a model (read on first use; throws HfstFormatError for a bad file). */
  transducer(entry: ModelEntry): Transducer {
    let transducer = this.#loaded.get(entry.name);
    if (!transducer) {
      transducer = Transducer.load(readFileSync(entry.path));
      this.#loaded.set(entry.name, transducer);
    }
    return transducer;
  }

  /** Disposes every loaded transducer. */
  close(): void {
    for (const t of this.#loaded.values()) t.dispose();
    this.#loaded.clear();
  }
}
