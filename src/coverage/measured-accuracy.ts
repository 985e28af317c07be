/**
 * Measured accuracy against the UniMorph development tables, read from the generated
 * file reference/measured-accuracy.json (written by scripts/measure-accuracy.ts, never by
 * hand). Each figure carries a digest of the cartridge it was measured on; a cartridge
 * that changed since is reported with `stale: true`.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { updateWithFiles } from '../file-digest.js';

const figureSchema = z.object({
  dataset: z.string(),
  dataset_sha256: z.string().regex(/^[0-9a-f]{64}$/),
  cartridge_digest: z.string().regex(/^[0-9a-f]{64}$/),
  inflection: z.object({ cells: z.number().int(), right: z.number().int(), accuracy: z.number() }),
  analysis: z.object({ rows: z.number().int(), found: z.number().int(), recall: z.number() }).optional(),
});

export const measuredFileSchema = z.object({
  generated_by: z.string(),
  measured_at: z.string(),
  languages: z.record(z.string(), figureSchema),
});
export type MeasuredFile = z.infer<typeof measuredFileSchema>;
export type MeasuredFigure = z.infer<typeof figureSchema>;

/** One language's figures as the status API reports them (GET /api/os/cartridges `measured_accuracy`). */
export const measuredLanguageSchema = z.object({
  dataset: z.string(),
  dataset_sha256: z.string(),
  cartridge_digest: z.string(),
  measured_at: z.string(),
  stale: z.boolean().describe('The cartridge changed since the measurement.'),
  inflection: figureSchema.shape.inflection,
  analysis: figureSchema.shape.analysis,
});
export type MeasuredLanguage = z.infer<typeof measuredLanguageSchema>;

/** The files generation reads: a change to one of them may change the measured accuracy. */
export const GRAMMAR_FILES = ['cartridge.yaml', 'agreement.yaml', 'verbs.yaml', 'words.yaml', 'nouns.yaml', 'rules.yaml', 'features.yaml', 'lexicon.tsv'];

/** SHA-256 over the cartridge's grammar files (by name), so a change is noticed. */
export function cartridgeDigest(dir: string): string {
  const names = readdirSync(dir)
    .filter((n) => GRAMMAR_FILES.includes(n))
    .sort();
  return updateWithFiles(createHash('sha256'), dir, names).digest('hex');
}

/** Reads the measured-accuracy file; an absent file means nothing was measured. Throws on a malformed one. */
export function readMeasured(file: string): MeasuredFile | undefined {
  if (!existsSync(file)) return undefined;
  const parsed = measuredFileSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) throw new Error(`${file}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data;
}

/** The figures for one cartridge, marked stale when the cartridge changed since. */
export function measuredFor(file: MeasuredFile | undefined, iso: string, cartridgeDir: string): MeasuredLanguage | undefined {
  const figure = file?.languages[iso];
  if (!file || !figure) return undefined;
  return { ...figure, measured_at: file.measured_at, stale: figure.cartridge_digest !== cartridgeDigest(cartridgeDir) };
}
