/**
 * Running text and the first request (issues 17 and 20): how soon a fresh `lugha serve` answers
 * its first analysis, how long it takes to be ready, whether /healthz stalls meanwhile, how fast
 * `lugha analyze` starts, and words per second through the text pipeline in process.
 *
 * Baselines, same run: the first analysis against the same analysis asked again (a stall shows as
 * a large ratio); /healthz during the warm-up against /healthz after it; the CLI against
 * `lugha --version` (Node and the command parser alone); frames read from the disk cache against
 * frames built from the cartridge; the pipeline's words/s against the tokeniser's alone; the worst
 * event-loop stall during a capped text of long odd words against an idle loop.
 *
 *   node --import tsx bench/text.ts [--repeat 3]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { packageRoot } from '../src/config.js';
import { openLanguageCodes, openMorphology } from '../src/services.js';
import { TextService } from '../src/text/service.js';
import { tokenize } from '../src/text/tokenize.js';
import { printTable, startLugha, type Row } from './lib.js';

const argv = process.argv.slice(2);
const repeat = Number(argv[argv.indexOf('--repeat') + 1] || 3);
const bin = path.join(packageRoot, 'bin', 'lugha.js');
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('LUGHA_')));

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const timed = async <T>(f: () => Promise<T> | T): Promise<[number, T]> => {
  const t = performance.now();
  const value = await f();
  return [performance.now() - t, value];
};

// 1. A fresh server: start -> ready, the first analyses after ready, /healthz during the warm-up.
async function serverRows(): Promise<Row[]> {
  const started = performance.now();
  const server = await startLugha({ warmAnalyzers: true });
  const listening = performance.now() - started;
  let worstHealth = 0;
  let ready = 0;
  for (;;) {
    const [health] = await timed(() => fetch(`${server.origin}/healthz`).then((r) => r.arrayBuffer()));
    worstHealth = Math.max(worstHealth, health);
    const res = await fetch(`${server.origin}/readyz`);
    await res.arrayBuffer();
    if (res.status === 200) {
      ready = performance.now() - started;
      break;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const ask = (query: string) => timed(() => fetch(`${server.origin}/api/v1/analyze?${query}`, { headers: server.headers }).then((r) => r.json()));
  const [firstSwh] = await ask('form=ninakupenda&language=swh');
  const [againSwh] = await ask('form=ninakupenda&language=swh');
  const [firstAll] = await ask('form=wanapenda');
  const [againAll] = await ask('form=wanapenda');
  const text = { language: 'zul', text: 'Ngiyabonga kakhulu, mngane! Umasipala uzosebenzisa imali yezwe. '.repeat(40) };
  const post = () => timed(() => fetch(`${server.origin}/api/v1/analyze-text`, { method: 'POST', headers: { ...server.headers, 'content-type': 'application/json' }, body: JSON.stringify(text) }).then((r) => r.json()));
  const [firstText] = await post();
  const [againText] = await post();
  const quiet: number[] = [];
  for (let i = 0; i < 20; i++) quiet.push((await timed(() => fetch(`${server.origin}/healthz`).then((r) => r.arrayBuffer())))[0]);
  await server.stop();
  return [
    { figure: 'serve: start -> listening', lugha: listening, baseline: 0, unit: 'ms' },
    { figure: 'serve: start -> /readyz 200', lugha: ready, baseline: listening, unit: 'ms' },
    { figure: 'worst /healthz while warming (vs quiet p50)', lugha: worstHealth, baseline: median(quiet), unit: 'ms' },
    { figure: 'first GET /analyze swh after ready (vs again)', lugha: firstSwh, baseline: againSwh, unit: 'ms' },
    { figure: 'first GET /analyze, every language (vs again)', lugha: firstAll, baseline: againAll, unit: 'ms' },
    { figure: 'first POST /analyze-text zul, 480 words (vs again)', lugha: firstText, baseline: againText, unit: 'ms' },
  ];
}

// 2. The CLI: one word through `lugha analyze`, against `lugha --version`.
function cliRows(): Row[] {
  const run = (args: string[], input?: string) => {
    const t = performance.now();
    execFileSync(process.execPath, [bin, ...args], { env: cleanEnv, input, encoding: 'utf8' });
    return performance.now() - t;
  };
  const analyse: number[] = [];
  const version: number[] = [];
  for (let i = 0; i < repeat; i++) {
    analyse.push(run(['analyze', '--language', 'zul'], 'ngiyabonga\n'));
    version.push(run(['--version']));
  }
  return [{ figure: 'echo ngiyabonga | lugha analyze --language zul', lugha: median(analyse), baseline: median(version), unit: 'ms' }];
}

// 3. In process: frames from the disk cache against frames built; words/s through the pipeline.
async function inProcessRows(): Promise<Row[]> {
  const codes = openLanguageCodes();
  const languagesDir = path.join(packageRoot, 'languages');
  const cache = mkdtempSync(path.join(tmpdir(), 'lugha-bench-frames-'));
  const building = openMorphology({ languagesDir }, codes, { only: ['zul'], frameCache: cache });
  const [built] = await timed(() => building.analyze('ngiyabonga', 'zul'));
  const reading = openMorphology({ languagesDir }, codes, { only: ['zul'], frameCache: cache });
  const [loaded] = await timed(() => reading.analyze('ngiyabonga', 'zul'));
  rmSync(cache, { recursive: true, force: true });

  const service = new TextService({ morphology: () => reading });
  const sample = 'Ukwengeza kulokhu, imibandela iyenziwa ngamakomiti amawadi. Umasipala uzosebenzisa imali yezwe, kanye nomphakathi. ';
  const text = sample.repeat(Math.floor(19_000 / sample.length));
  const words = tokenize(text).tokens.filter((t) => t.kind === 'word').length;
  await service.analyzeText('zul', text);
  const [pipeline] = await timed(() => service.analyzeText('zul', text));
  const [tokeniser] = await timed(() => {
    for (let i = 0; i < 20; i++) tokenize(text);
  });
  // The worst event-loop stall while a capped text of long, odd words is analysed, against an idle loop.
  const stall = async (work: () => Promise<unknown>) => {
    const histogram = monitorEventLoopDelay({ resolution: 5 });
    histogram.enable();
    await work();
    histogram.disable();
    return histogram.max / 1e6;
  };
  const odd = Array.from({ length: 400 }, (_, i) => `ukuku${'ku'.repeat(i % 40)}${'a'.repeat(i % 7)}`)
    .join(' ')
    .slice(0, 20_000);
  const busy = await stall(() => service.analyzeText('zul', odd));
  const idle = await stall(() => new Promise((r) => setTimeout(r, 500)));
  return [
    { figure: 'worst loop stall, 20,000 chars of odd words (vs idle)', lugha: busy, baseline: idle, unit: 'ms' },
    { figure: 'zul frames: read from cache (vs built)', lugha: loaded, baseline: built, unit: 'ms' },
    { figure: 'analyze-text pipeline, zul, warm (vs tokeniser)', lugha: words / (pipeline / 1000), baseline: (20 * words) / (tokeniser / 1000), unit: 'words/s' },
  ];
}

printTable('Running text: the first request and the pipeline', [...(await serverRows()), ...cliRows(), ...(await inProcessRows())]);
