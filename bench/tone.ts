/**
 * The tone engine and the tone data, measured in one process:
 *  - conjugations per second with include_tones=true over every golden tone case of every cartridge
 *    (baseline: the same conjugations without tones), so the ratio is the cost of the tonal analysis;
 *  - milliseconds to load the tone services (reading reference/tone/, computing every tonal pair)
 *    against only reading the same TSV files (baseline);
 *  - minimal pairs of every language with tone data, computed cold, against the tonal pairs already
 *    in memory being filtered (baseline).
 *
 *   npx tsx bench/tone.ts [--seconds 10]
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { packageRoot } from '../src/config.js';
import { readTsv } from '../src/language-codes.js';
import type { ConjugateInput } from '../src/morphology/service.js';
import { openLanguageCodes, openMorphology } from '../src/services.js';
import { ToneService } from '../src/tone/service.js';
import { printTable } from './lib.js';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '10' }, connections: { type: 'string', default: '32' } } });
const seconds = Number(values.seconds);
const referenceDir = path.join(packageRoot, 'reference', 'tone');

function rate(work: (i: number) => unknown): number {
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  let i = 0;
  while (performance.now() < deadline) for (let k = 0; k < 16; k++) work(i++);
  return i / ((performance.now() - started) / 1000);
}

function millis(work: () => unknown, times = 5): number {
  const started = performance.now();
  for (let k = 0; k < times; k++) work();
  return (performance.now() - started) / times;
}

const codes = openLanguageCodes();
const morphology = openMorphology({ languagesDir: path.join(packageRoot, 'languages') }, codes);
const tone = new ToneService({ morphology, codes, referenceDir });
const inputs: ConjugateInput[] = tone.golden().flatMap((g) => (g.root && g.cell ? [{ language: g.language, root: g.root, tense: String(g.cell.tense), subject: String(g.cell.subject) }] : []));
if (inputs.length === 0) throw new Error('no golden tone cases to measure');
const toned = rate((i) => morphology.conjugate({ ...inputs[i % inputs.length]!, include_tones: true }));
const plain = rate((i) => morphology.conjugate(inputs[i % inputs.length]!));
// languages() reads the data: the constructor no longer does.
const loadTone = millis(() => new ToneService({ morphology, codes, referenceDir }).languages());
const readOnly = millis(() => [readTsv(path.join(referenceDir, 'bantubvd.tsv')), readTsv(path.join(referenceDir, 'chan-numerals.tsv'))]);
const languages = tone.languages().map((l) => l.language);
const minimalCold =
  millis(() => {
    const fresh = new ToneService({ morphology, codes, referenceDir });
    for (const language of languages) fresh.minimalPairs({ language, limit: 500 });
  }, 1) - loadTone;
const filtered = millis(() => {
  for (const language of languages) tone.tonalPairs({ language });
}, 1);

printTable(`Tone in one process (${seconds} s each; ${inputs.length} golden tone forms)`, [
  { figure: 'conjugate with include_tones vs without', lugha: toned, baseline: plain, unit: 'forms/s' },
  { figure: 'load tone services vs read the TSV files', lugha: loadTone, baseline: readOnly, unit: 'ms' },
  { figure: `minimal pairs, ${languages.length} languages, cold vs tonal pairs`, lugha: minimalCold, baseline: filtered, unit: 'ms' },
]);
