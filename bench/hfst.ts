/**
 * HFST lookup throughput, TypeScript runtime against hfst-optimized-lookup, same run:
 *  - whole process: `lugha hfst lookup --file T` and `hfst-optimized-lookup T` on the same
 *    transducer and the same word list (stdin → stdout, output compared byte for byte);
 *  - in process: Transducer.lookup words/s of the compiled runtime in dist/ (the C++ figure is
 *    its whole-process rate, the closest in-process figure the C++ tool exposes).
 * The transducers are Lugha's verb analyser and generator of one cartridge, built here with the
 * HFST tools: `--kind grammar` (what `lugha hfst build` installs and the service uses: the verb
 * template as lexc + rules, with the +Guess open root class), `--kind table` (every form listed),
 * or `--kind both` (default; `npm run bench` runs the grammar transducers only, to fit its budget). The words are the surface forms of the cartridge's lexicon verbs
 * (every cell tense × polarity × subject, drawn at random), plus 10% near misses, which only the
 * grammar analyser's guesser can read.
 *
 * Generation is one to three orders of magnitude slower than analysis in both tools (a grammar
 * generator walks every prefix path before it reads the lemma; docs/hfst.md), so it runs on
 * --generate-words analyses (default: as many as --words, at most 100,000 for the table generator
 * and 1,000 for the grammar generator).
 *
 *   npx tsx bench/hfst.ts [--language swh] [--kind both|grammar|table] [--words 1000000] [--generate-words N]
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { packageRoot } from '../src/config.js';
import { buildCartridgeModels, lughaModelNames, type ModelKind } from '../src/hfst/build.js';
import { exportVerbLexc } from '../src/hfst/cartridge-export.js';
import { hfstToolsAvailable } from '../src/hfst/toolchain.js';
import { pathToFileURL } from 'node:url';
import { openMorphology } from '../src/services.js';
import { loadConfig } from '../src/config.js';
import { printTable } from './lib.js';

const { values } = parseArgs({
  options: {
    language: { type: 'string', default: 'swh' },
    kind: { type: 'string', default: 'both' },
    words: { type: 'string', default: '1000000' },
    'generate-words': { type: 'string' },
    seconds: { type: 'string' },
    connections: { type: 'string' },
  },
});
const wordCount = Number(values.words);
const kinds: ModelKind[] = values.kind === 'both' ? ['grammar', 'table'] : values.kind === 'grammar' || values.kind === 'table' ? [values.kind] : [];
if (kinds.length === 0) throw new Error('bench/hfst.ts: --kind is grammar, table or both');
const generateCount = (kind: ModelKind) => (values['generate-words'] === undefined ? Math.min(wordCount, kind === 'table' ? 100_000 : 1_000) : Number(values['generate-words']));
if (!(wordCount > 0 && generateCount('table') > 0)) throw new Error('bench/hfst.ts: --words and --generate-words must be positive');

// In process, the compiled runtime that `lugha` runs (dist/, which bin/lugha.js needs anyway): the
// same code run through tsx's on-the-fly transpilation was 1.46x slower (15,840 vs 10,810 words/s).
const compiled = path.join(packageRoot, 'dist', 'hfst', 'transducer.js');
if (!existsSync(compiled)) {
  console.error('bench/hfst.ts needs the compiled runtime: run `npm run build` first');
  process.exit(1);
}
const { Transducer } = (await import(pathToFileURL(compiled).href)) as typeof import('../src/hfst/transducer.js');

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
  const exported = exportVerbLexc(engine.value.cartridge, engine.value.generator)!;

  // The word list: surface forms at random (seeded), every tenth one with a letter doubled (mostly unknown).
  let seed = 12345;
  const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296;
  const surfaces = [...new Set(exported.forms.map((f) => f.surface))];
  const words: string[] = [];
  for (let i = 0; i < wordCount; i++) {
    const w = surfaces[Math.floor(random() * surfaces.length)]!;
    words.push(i % 10 === 9 ? w.slice(0, 2) + w.slice(1) : w);
  }
  const wordsFile = path.join(dir, 'words.txt');
  writeFileSync(wordsFile, `${words.join('\n')}\n`);
  const analyses = exported.forms.map((f) => f.analysis);
  const guessWords = words.slice(0, Math.ceil(words.length / 4));
  const guessFile = path.join(dir, 'guess-words.txt');
  writeFileSync(guessFile, `${guessWords.join('\n')}\n`);

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
    const output = readFileSync(outFile);
    return { seconds, hash: createHash('sha256').update(output).digest('hex'), lines: output.toString().split('\n').filter(Boolean).length };
  };
  const bin = path.join(packageRoot, 'bin', 'lugha.js');
  const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

  for (const kind of kinds) {
    const modelsDir = path.join(dir, kind);
    const started = performance.now();
    const [built] = buildCartridgeModels({ morphology, outDir: modelsDir, languages: [iso], kind });
    if (!built) throw new Error(`bench/hfst.ts: no ${kind} transducers for ${iso}`);
    console.log(
      `${iso} ${kind}: built in ${((performance.now() - started) / 1000).toFixed(1)} s (${kind === 'table' ? `${exported.forms.length} forms listed` : `${built.lemmas} roots${built.guesser ? ' + guesser' : ''}, ${built.rules.translated} rules`})`,
    );
    const names = lughaModelNames(iso);
    const analyserFile = path.join(modelsDir, `${names.analyser}.hfstol`);
    const generatorFile = path.join(modelsDir, `${names.generator}.hfstol`);
    // The grammar analyser's fallback, on a quarter of the words (it gives about 14 readings a word).
    const guesserRuns = built.guesserFile ? [['guesser analysis', path.join(modelsDir, built.guesserFile), guessFile, guessWords] as const] : [];
    const genWords: string[] = [];
    for (let i = 0; i < generateCount(kind); i++) genWords.push(analyses[Math.floor(random() * analyses.length)]!);
    const genFile = path.join(dir, `analyses-${kind}.txt`);
    writeFileSync(genFile, `${genWords.join('\n')}\n`);

    const rows: Array<{ figure: string; lugha: number; baseline: number; unit: string }> = [];
    const notes: string[] = [];
    for (const [label, file, input, list] of [['analysis', analyserFile, wordsFile, words] as const, ...guesserRuns, ['generation', generatorFile, genFile, genWords] as const]) {
      const cxx = timed('hfst-optimized-lookup', ['--pipe-mode=input', file], input);
      const ts = timed(process.execPath, [bin, 'hfst', 'lookup', '--file', file], input);
      rows.push({ figure: `${kind} ${label}, whole process`, lugha: list.length / ts.seconds, baseline: list.length / cxx.seconds, unit: 'words/s' });
      notes.push(
        `${kind} ${label}: ${fmt(list.length)} words, ${fmt(cxx.lines)} output lines; lugha ${ts.seconds.toFixed(2)} s, hfst-optimized-lookup ${cxx.seconds.toFixed(2)} s; output ${ts.hash === cxx.hash ? 'identical' : 'DIFFERENT'}`,
      );
      if (ts.hash !== cxx.hash) process.exitCode = 1;
      // In process: load once, look every word up.
      const loadStarted = performance.now();
      const transducer = Transducer.load(readFileSync(file));
      const loadMs = performance.now() - loadStarted;
      for (let i = 0; i < Math.min(list.length, label === 'generation' ? 20 : 20_000); i++) transducer.lookup(list[i]!); // warm-up
      const t0 = performance.now();
      let results = 0;
      for (const w of list) results += transducer.lookup(w).results.length;
      const seconds = (performance.now() - t0) / 1000;
      rows.push({ figure: `${kind} ${label}, in process (vs C++ whole process)`, lugha: list.length / seconds, baseline: list.length / cxx.seconds, unit: 'words/s' });
      notes.push(`${kind} ${label} in process: ${fmt(results)} results in ${seconds.toFixed(2)} s; load ${loadMs.toFixed(0)} ms`);
      transducer.dispose();
    }
    printTable(`HFST lookup: ${iso} ${kind} verb transducers (analyser ${fmt(built.analyserBytes)} bytes); baseline = hfst-optimized-lookup, same transducer, same words`, rows);
    for (const note of notes) console.log(note);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
