/**
 * HFST lookup throughput, TypeScript runtime against hfst-optimized-lookup, same run:
 *  - whole process: `lugha hfst lookup --file T` and `hfst-optimized-lookup T` on the same
 *    transducer and the same word list (stdin → stdout, output compared byte for byte);
 *  - in process: Transducer.lookup words/s (the C++ figure is its whole-process rate, the
 *    closest in-process figure the C++ tool exposes).
 * The transducer is Lugha's verb analyser (and generator) of one cartridge (table export), built
 * here with the HFST tools; the words are its surface forms drawn at random, plus 10% near misses.
 *
 * Generation is about a hundred times slower than analysis in both tools, so it runs on
 * --generate-words analyses (default: as many as --words, at most 100,000; `npm run bench`
 * passes 10,000 to stay in its time budget).
 *
 *   npx tsx bench/hfst.ts [--language swh] [--words 1000000] [--generate-words 100000]
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, openSync, closeSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { packageRoot } from '../src/config.js';
import { buildCartridgeModels, lughaModelNames } from '../src/hfst/build.js';
import { exportVerbLexc } from '../src/hfst/cartridge-export.js';
import { hfstToolsAvailable } from '../src/hfst/toolchain.js';
import { Transducer } from '../src/hfst/transducer.js';
import { openMorphology } from '../src/services.js';
import { loadConfig } from '../src/config.js';
import { printTable } from './lib.js';

const { values } = parseArgs({ options: { language: { type: 'string', default: 'swh' }, words: { type: 'string', default: '1000000' }, 'generate-words': { type: 'string' }, seconds: { type: 'string' }, connections: { type: 'string' } } });
const wordCount = Number(values.words);
const generateCount = values['generate-words'] === undefined ? Math.min(wordCount, 100_000) : Number(values['generate-words']);
if (!(wordCount > 0 && generateCount > 0)) throw new Error('bench/hfst.ts: --words and --generate-words must be positive');

if (!hfstToolsAvailable()) {
  console.error('bench/hfst.ts needs the HFST tools (apt-get install hfst)');
  process.exit(1);
}

const dir = mkdtempSync(path.join(tmpdir(), 'lugha-bench-hfst-'));
try {
  const morphology = openMorphology(loadConfig({ env: {} }));
  const engine = morphology.engine(values.language!);
  if (!engine.ok) throw new Error(engine.message);
  const iso = engine.value.iso;
  let started = performance.now();
  const exported = exportVerbLexc(engine.value.cartridge, engine.value.generator)!;
  // The table export: its generator reads the lemma first, so the generation figures stay
  // comparable with earlier runs (the grammar export's generator explores every prefix path; docs/hfst.md).
  buildCartridgeModels({ morphology, outDir: dir, languages: [iso], kind: 'table' });
  console.log(`${iso}: ${exported.forms.length} forms exported and compiled in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const names = lughaModelNames(iso);
  const analyserFile = path.join(dir, `${names.analyser}.hfstol`);
  const generatorFile = path.join(dir, `${names.generator}.hfstol`);

  // The word list: surface forms at random (seeded), every tenth one with a letter doubled (mostly unknown).
  let seed = 12345;
  const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
  const surfaces = [...new Set(exported.forms.map((f) => f.surface))];
  const words: string[] = [];
  for (let i = 0; i < wordCount; i++) {
    const w = surfaces[Math.floor(random() * surfaces.length)]!;
    words.push(i % 10 === 9 ? w.slice(0, 2) + w.slice(1) : w);
  }
  const wordsFile = path.join(dir, 'words.txt');
  writeFileSync(wordsFile, `${words.join('\n')}\n`);
  const analyses = exported.forms.map((f) => f.analysis);
  const genWords: string[] = [];
  for (let i = 0; i < generateCount; i++) genWords.push(analyses[Math.floor(random() * analyses.length)]!);
  const genFile = path.join(dir, 'analyses.txt');
  writeFileSync(genFile, `${genWords.join('\n')}\n`);

  /** Runs a command with stdin from `input`, stdout to a file; returns seconds and the output's hash. */
  const timed = (command: string, args: string[], input: string) => {
    const outFile = path.join(dir, 'out.txt');
    const stdin = openSync(input, 'r');
    const stdout = openSync(outFile, 'w');
    const t0 = performance.now();
    const result = spawnSync(command, args, { stdio: [stdin, stdout, 'inherit'] });
    const seconds = (performance.now() - t0) / 1000;
    closeSync(stdin);
    closeSync(stdout);
    if (result.status !== 0) throw new Error(`${command} exited with ${result.status}`);
    return { seconds, hash: createHash('sha256').update(readFileSync(outFile)).digest('hex') };
  };
  const bin = path.join(packageRoot, 'bin', 'lugha.js');

  const rows: Array<{ figure: string; lugha: number; baseline: number; unit: string }> = [];
  const notes: string[] = [];
  const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
  for (const [label, file, input, count] of [
    ['analysis', analyserFile, wordsFile, words.length],
    ['generation', generatorFile, genFile, genWords.length],
  ] as const) {
    const cxx = timed('hfst-optimized-lookup', ['--pipe-mode=input', file], input);
    const ts = timed(process.execPath, [bin, 'hfst', 'lookup', '--file', file], input);
    rows.push({ figure: `${label}, whole process`, lugha: count / ts.seconds, baseline: count / cxx.seconds, unit: 'words/s' });
    notes.push(`${label}: ${fmt(count)} words; lugha ${ts.seconds.toFixed(2)} s, hfst-optimized-lookup ${cxx.seconds.toFixed(2)} s; output ${ts.hash === cxx.hash ? 'identical' : 'DIFFERENT'}`);
    // In process: load once, look every word up.
    const transducer = Transducer.load(readFileSync(file));
    const list = (label === 'analysis' ? words : genWords) as string[];
    for (let i = 0; i < Math.min(list.length, 20_000); i++) transducer.lookup(list[i]!); // warm-up
    started = performance.now();
    let results = 0;
    for (const w of list) results += transducer.lookup(w).results.length;
    const seconds = (performance.now() - started) / 1000;
    rows.push({ figure: `${label}, in process (vs C++ whole process)`, lugha: list.length / seconds, baseline: count / cxx.seconds, unit: 'words/s' });
    notes.push(`${label} in process: ${fmt(results)} results in ${seconds.toFixed(2)} s`);
    transducer.dispose();
  }
  printTable(`HFST lookup: ${iso} verb transducers (analyser ${fmt(readFileSync(analyserFile).length)} bytes); baseline = hfst-optimized-lookup, same transducer, same words`, rows);
  for (const note of notes) console.log(note);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
