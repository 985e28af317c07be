/**
 * The morphology engine and its busiest route, measured in one run:
 *  - forms generated per second and analyses per second, in this process, through
 *    the MorphologyService (baseline: looking the same forms up in a precomputed
 *    full-form table, what a service without an engine would do);
 *  - peak RSS of `lugha serve` with every cartridge loaded and every analyzer warm,
 *    after serving the load below (baseline: the bare node:http server after its load);
 *  - requests per second of the metered GET /api/v1/conjugate (key lookup, quota
 *    write, validation, generation, envelope) against a bare node:http server
 *    returning the same JSON bytes.
 *
 *   npx tsx bench/morphology.ts [--seconds 10] [--connections 32]
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { packageRoot } from '../src/config.js';
import type { ConjugateInput } from '../src/morphology/service.js';
import { openMorphology } from '../src/services.js';
import { load, printTable, startBaseline, startLugha, stopServer, printLoadDetails } from './lib.js';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '10' }, connections: { type: 'string', default: '32' } } });
const seconds = Number(values.seconds);
const connections = Number(values.connections);

/** Calls `work(i)` for about `seconds` seconds; returns calls per second. */
function rate(work: (i: number) => unknown): number {
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  let i = 0;
  while (performance.now() < deadline) {
    for (let k = 0; k < 16; k++) work(i++);
  }
  return i / ((performance.now() - started) / 1000);
}

/** Peak resident set of a process in MiB (Linux /proc), or NaN elsewhere. */
function peakRssMiB(pid: number | undefined): number {
  const file = `/proc/${pid}/status`;
  if (pid === undefined || !existsSync(file)) return Number.NaN;
  const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(file, 'utf8'))?.[1];
  return kb ? Number(kb) / 1024 : Number.NaN;
}

// --- in process: generation and analysis over every installed cartridge ---
const morphology = openMorphology({ languagesDir: path.join(packageRoot, 'languages') });
morphology.warm();
const inputs: ConjugateInput[] = [];
for (const language of morphology.languages().filter((l) => l.capabilities.includes('conjugation'))) {
  const engine = morphology.engine(language.iso);
  if (!engine.ok) continue;
  const roots = engine.value.cartridge.lexicon
    .filter((e) => e.word_class === 'verb')
    .slice(0, 20)
    .map((e) => e.lemma);
  for (const root of roots) {
    for (const tense of language.tenses) {
      for (const polarity of ['positive', 'negative'] as const) {
        for (const subject of language.subjects) {
          inputs.push({ language: language.iso, root, tense: tense.id, polarity, subject });
        }
      }
    }
  }
}
const forms: Array<{ language: string; surface: string }> = [];
const table = new Map<string, string>();
for (const input of inputs) {
  const result = morphology.conjugate(input);
  if (!result.ok) continue;
  forms.push({ language: input.language, surface: result.value.surface_form });
  table.set(JSON.stringify(input), result.value.surface_form);
}
const inputKeys = inputs.map((input) => JSON.stringify(input));
const generated = rate((i) => morphology.conjugate(inputs[i % inputs.length]!));
const looked = rate((i) => table.get(inputKeys[i % inputKeys.length]!));
// Spread over the paradigm: a stride through the forms, so analyses are not all of one tense.
const stride = 7919;
const analysed = rate((i) => {
  const form = forms[(i * stride) % forms.length]!;
  return morphology.analyze(form.surface, form.language);
});
const fullForms = new Map(forms.map((f) => [`${f.language}:${f.surface}`, f]));
const formKeys = forms.map((f) => `${f.language}:${f.surface}`);
const lookedUp = rate((i) => fullForms.get(formKeys[(i * stride) % formKeys.length]!));

// --- over HTTP: the metered conjugate route against a bare server with the same bytes ---
const lugha = await startLugha();
try {
  const url = `${lugha.origin}/api/v1/conjugate?language=swh&root=penda&subject=3pl&tense=future&polarity=negative&object=c7`;
  const body = await (await fetch(url, { headers: lugha.headers })).text();
  // Analysing in every language builds every analyzer (serve also warms them in the background).
  await fetch(`${lugha.origin}/api/v1/analyze?form=hawatakipenda`, { headers: lugha.headers });
  const baseline = await startBaseline(body);

  const lughaResult = await load(url, { seconds, connections, headers: lugha.headers });
  const baseResult = await load(baseline.url, { seconds, connections });
  const lughaRss = peakRssMiB(lugha.child.pid);
  const baseRss = peakRssMiB(baseline.child.pid);
  await stopServer(lugha.child);
  await stopServer(baseline.child);

  printTable(`Morphology in one process vs a precomputed full-form table (${seconds} s each; ${forms.length} forms of ${morphology.languages().length} cartridges)`, [
    { figure: 'generation', lugha: generated, baseline: looked, unit: 'forms/s' },
    { figure: 'analysis', lugha: analysed, baseline: lookedUp, unit: 'analyses/s' },
  ]);
  printTable(`Metered GET /api/v1/conjugate vs bare node:http (${seconds} s, ${connections} connections, same JSON body)`, [
    { figure: 'requests/s', lugha: lughaResult.requestsPerSecond, baseline: baseResult.requestsPerSecond, unit: 'req/s' },
    { figure: 'peak RSS after load, analyzers warm', lugha: lughaRss, baseline: baseRss, unit: 'MiB' },
  ]);
  printLoadDetails(lughaResult, baseResult);
} finally {
  await lugha.stop();
}
