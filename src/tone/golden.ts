/**
 * The generic runner of the cartridges' golden tone cases: each case is conjugated through the
 * morphology service with include_tones=true, as a user would, and its transcription (acute on high
 * units, ꜜ before a downstepped one) is compared with the form as the source prints it. Open cases
 * (`open` in tone.yaml: forms the engine does not reproduce yet, with the reason) are run and
 * reported like the others and count as failing. Nothing here names a language.
 */
import type { MorphologyService } from '../morphology/service.js';

/** One golden tone case of a cartridge and whether the engine reproduces it. */
export interface GoldenToneResult {
  language: string;
  root?: string;
  cell?: Record<string, string | string[]>;
  expect: string;
  actual: string | null;
  pass: boolean;
  source: string;
  /** The printed form respelt in the cartridge's orthography (what `actual` is compared with), when given. */
  respelled?: string;
  /** Why the case is known not to pass yet (from tone.yaml). */
  open?: string;
  note?: string;
}

/** Golden tone cases of one cartridge: how many, how many pass, how many are marked open. */
export interface ToneGoldenScore {
  total: number;
  passing: number;
  open: number;
}

/** Runs the golden tone cases of every cartridge with tone data (or of one language). */
export function runToneGolden(morphology: MorphologyService, language?: string): GoldenToneResult[] {
  const out: GoldenToneResult[] = [];
  for (const summary of morphology.languages()) {
    if (language && summary.iso !== language) continue;
    const found = morphology.engine(summary.iso);
    if (!found.ok) continue;
    for (const test of found.value.cartridge.tone?.golden ?? []) {
      const base = {
        language: summary.iso,
        expect: test.expect,
        source: test.source,
        ...(test.root ? { root: test.root } : {}),
        ...(test.cell ? { cell: test.cell } : {}),
        ...(test.open ? { open: test.open } : {}),
        ...(test.respelled ? { respelled: test.respelled.form } : {}),
      };
      if (!test.root) {
        out.push({ ...base, actual: null, pass: false, note: 'a golden tone case needs a root and a cell' });
        continue;
      }
      const cell = test.cell ?? {};
      const result = morphology.conjugate({
        language: summary.iso,
        root: test.root,
        include_tones: true,
        ...(typeof cell.tense === 'string' ? { tense: cell.tense } : {}),
        ...(typeof cell.subject === 'string' ? { subject: cell.subject } : {}),
        ...(typeof cell.object === 'string' ? { object: cell.object } : {}),
        ...(cell.polarity === 'negative' || cell.polarity === 'positive' ? { polarity: cell.polarity } : {}),
        ...(Array.isArray(cell.extensions) ? { extensions: cell.extensions } : {}),
      });
      const actual = result.ok ? (result.value.tonal_analysis.transcription_high ?? null) : null;
      const note = !result.ok ? result.message : result.value.tonal_analysis.status !== 'analysed' ? result.value.tonal_analysis.note : undefined;
      const target = (test.respelled?.form ?? test.expect).normalize('NFC');
      out.push({ ...base, actual, pass: actual !== null && actual.normalize('NFC') === target, ...(note ? { note } : {}) });
    }
  }
  return out;
}

/** The score of a set of results (one cartridge's, usually). */
export function scoreToneGolden(results: readonly GoldenToneResult[]): ToneGoldenScore {
  return { total: results.length, passing: results.filter((r) => r.pass).length, open: results.filter((r) => r.open !== undefined).length };
}
