/**
 * Load and soak: one `lugha serve` (embedded backends, a fresh data directory, an Enterprise
 * key made with the CLI so no request meets 429, LUGHA_WARM_ANALYZERS=false unless --warm)
 * under a FIXED request rate for --minutes on a mix of metered routes (conjugate, analyze with
 * a language, languages, numerals, syllables). Every --sample-seconds it prints p50/p99 latency,
 * the error rate (non-2xx and socket errors), the child's RSS (/proc/<pid>/status VmRSS) and
 * its event-loop delay, sampled inside the child by the bench-only preload
 * bench/eventloop-preload.mjs (perf_hooks.monitorEventLoopDelay; nothing new in the product).
 * The load starts once /readyz answers 200 (a server not ready yet may be busy warming up); until
 * then /healthz is polled one request at a time and its slowest answer printed, with the child's
 * worst event-loop stall while warming up. The first request of each route is then sent alone and
 * the child's worst stall in the second that holds it printed: first-use work after ready.
 * Then the same paced load on the same paths against a bare node:http server (same preload)
 * for --baseline-seconds: the latency and event-loop baseline of this run.
 * Verdict: RSS growth from the end of the warm-up (--warmup-seconds, default the first minute)
 * to the end, in MiB and %, and its slope.
 *
 *   npx tsx bench/soak.ts [--minutes 3] [--rate 200] [--sample-seconds 5] [--warmup-seconds 60] [--baseline-seconds 60] [--warm]
 *
 * The paced client sends at the fixed rate whatever the answers take (latency counts from the
 * moment a request is sent); it runs in this process, on the same cores as the server.
 */
import { type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { packageRoot } from '../src/config.js';
import { freePort, lughaCli, printTable, startServer, stopServer, waitReady } from './lib.js';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '3' },
    rate: { type: 'string', default: '200' },
    'sample-seconds': { type: 'string', default: '5' },
    'warmup-seconds': { type: 'string', default: '60' },
    'baseline-seconds': { type: 'string', default: '60' },
    warm: { type: 'boolean', default: false },
    // Accepted so `npm run bench -- --seconds N --connections N` reaches every benchmark; unused here.
    seconds: { type: 'string' },
    connections: { type: 'string' },
  },
});
const minutes = Number(values.minutes);
const rate = Number(values.rate);
const sampleSeconds = Number(values['sample-seconds']);
const warmupSeconds = Math.min(Number(values['warmup-seconds']), minutes * 60 * 0.5);
const baselineSeconds = Number(values['baseline-seconds']);
if (![minutes, rate, sampleSeconds, warmupSeconds, baselineSeconds].every((n) => Number.isFinite(n) && n > 0)) throw new Error('bench/soak.ts: every option must be a positive number');

const preload = path.join(path.dirname(fileURLToPath(import.meta.url)), 'eventloop-preload.mjs');
const bin = path.join(packageRoot, 'bin', 'lugha.js');
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('LUGHA_')));
const work = mkdtempSync(path.join(tmpdir(), 'lugha-bench-soak-'));

// --- the route mix: one path per request, chosen round-robin with seeded variety ---
let seed = 20261122;
const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296;
const subjects = ['1sg', '2sg', '3sg', '1pl', '2pl', '3pl'];
const tenses = ['present', 'past', 'future'];
const forms = ['hawatakipenda', 'ninakupenda', 'tutasoma', 'alipika', 'wanaandika'];
const routes: Array<{ name: string; path: () => string }> = [
  { name: 'conjugate', path: () => `/api/v1/conjugate?language=swh&root=penda&subject=${subjects[Math.floor(random() * subjects.length)]}&tense=${tenses[Math.floor(random() * tenses.length)]}` },
  { name: 'analyze', path: () => `/api/v1/analyze?language=swh&form=${forms[Math.floor(random() * forms.length)]}` },
  { name: 'languages', path: () => '/api/v1/languages' },
  { name: 'numerals', path: () => `/api/v1/numerals?language=swh&number=${Math.floor(random() * 1_000_000)}&class=c2` },
  { name: 'syllables', path: () => '/api/v1/syllables/swh' },
];

interface Sample {
  at: number;
  requests: number;
  errors: number;
  p50: number;
  p99: number;
  rssMiB: number;
  eldP99: number;
  eldMax: number;
}

function rssMiB(pid: number | undefined): number {
  const file = `/proc/${pid}/status`;
  if (pid === undefined || !existsSync(file)) return Number.NaN;
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(file, 'utf8'))?.[1];
  return kb ? Number(kb) / 1024 : Number.NaN;
}

function quantile(sorted: number[], q: number): number {
  return sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

function eldSince(file: string, from: number, to: number): { p99: number; max: number } {
  if (!existsSync(file)) return { p99: Number.NaN, max: Number.NaN };
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { t: number; p99: number; max: number });
  const inWindow = lines.filter((l) => l.t > from && l.t <= to);
  if (inWindow.length === 0) return { p99: Number.NaN, max: Number.NaN };
  return { p99: Math.max(...inWindow.map((l) => l.p99)), max: Math.max(...inWindow.map((l) => l.max)) };
}

/** Waits (up to 3 s) until the preload has written a line stamped after `after` (ms since epoch). */
async function untilEldLine(file: string, after: number): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (
      existsSync(file) &&
      readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .some((l) => (JSON.parse(l) as { t: number }).t > after)
    )
      return;
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * Sends `rate` requests a second to `origin` for `seconds`, each on the next route of the mix;
 * every `sampleSeconds` records latency, errors, the server's RSS and event-loop delay.
 */
async function paced(
  origin: string,
  headers: Record<string, string>,
  child: ChildProcess,
  eldFile: string,
  seconds: number,
  warmup: number,
  print: boolean,
): Promise<{ samples: Sample[]; all: number[]; afterWarmup: number[]; requests: number; errors: number; statuses: Map<string, number>; elapsed: number }> {
  const url = new URL(origin);
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const samples: Sample[] = [];
  const all: number[] = [];
  const afterWarmup: number[] = [];
  const statuses = new Map<string, number>();
  let window: number[] = [];
  let windowErrors = 0;
  let errors = 0;
  let sent = 0;
  let inFlight = 0;
  let next = 0;
  const start = performance.now();
  const startWall = Date.now();
  let lastSampleWall = startWall;

  const fire = () => {
    const route = routes[next++ % routes.length]!;
    const t0 = performance.now();
    inFlight++;
    const done = (status: string) => {
      inFlight--;
      const ms = performance.now() - t0;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (!status.startsWith('2')) {
        errors++;
        windowErrors++;
      }
      window.push(ms);
      all.push(ms);
      if ((t0 - start) / 1000 >= warmup) afterWarmup.push(ms);
    };
    const req = request({ host: url.hostname, port: url.port, path: route.path(), headers, agent }, (res) => {
      res.resume();
      res.on('end', () => done(String(res.statusCode)));
      res.on('error', () => done('socket error'));
    });
    req.on('error', () => done('socket error'));
    req.end();
  };

  const takeSample = () => {
    const now = Date.now();
    const sorted = window.sort((a, b) => a - b);
    const eld = eldSince(eldFile, lastSampleWall, now);
    const sample: Sample = {
      at: (now - startWall) / 1000,
      requests: sorted.length,
      errors: windowErrors,
      p50: quantile(sorted, 0.5),
      p99: quantile(sorted, 0.99),
      rssMiB: rssMiB(child.pid),
      eldP99: eld.p99,
      eldMax: eld.max,
    };
    samples.push(sample);
    if (print) {
      process.stdout.write(
        `${sample.at.toFixed(0).padStart(6)} ${String(sample.requests).padStart(8)} ${((100 * sample.errors) / Math.max(1, sample.requests)).toFixed(2).padStart(7)} ` +
          `${sample.p50.toFixed(2).padStart(8)} ${sample.p99.toFixed(2).padStart(8)} ${sample.rssMiB.toFixed(1).padStart(8)} ${sample.eldP99.toFixed(1).padStart(8)} ${sample.eldMax.toFixed(1).padStart(8)}\n`,
      );
    }
    window = [];
    windowErrors = 0;
    lastSampleWall = now;
  };

  if (print)
    process.stdout.write(
      `${'t (s)'.padStart(6)} ${'requests'.padStart(8)} ${'err %'.padStart(7)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'RSS MiB'.padStart(8)} ${'ELD p99'.padStart(8)} ${'ELD max'.padStart(8)}\n`,
    );
  await new Promise<void>((resolve) => {
    let nextSample = start + sampleSeconds * 1000;
    const timer = setInterval(() => {
      const now = performance.now();
      const elapsed = (now - start) / 1000;
      if (elapsed >= seconds) {
        clearInterval(timer);
        resolve();
        return;
      }
      // Send whatever is due by now, so the rate holds even when a tick comes late.
      const due = Math.floor(elapsed * rate) - sent;
      for (let k = 0; k < due; k++) {
        sent++;
        if (inFlight >= 2000) {
          // The server is this far behind: count the request as failed rather than pile up sockets.
          errors++;
          windowErrors++;
          statuses.set('not sent (2000 in flight)', (statuses.get('not sent (2000 in flight)') ?? 0) + 1);
          continue;
        }
        fire();
      }
      if (now >= nextSample) {
        takeSample();
        nextSample += sampleSeconds * 1000;
      }
    }, 2);
  });
  // Let the last answers arrive (up to 10 s), then close the window.
  for (let i = 0; i < 1000 && inFlight > 0; i++) await new Promise((r) => setTimeout(r, 10));
  takeSample();
  agent.destroy();
  return { samples, all: all.sort((a, b) => a - b), afterWarmup: afterWarmup.sort((a, b) => a - b), requests: sent, errors, statuses, elapsed: (performance.now() - start) / 1000 };
}

const children: ChildProcess[] = [];
try {
  // 1. Lugha.
  const dataDir = path.join(work, 'data');
  const key = (JSON.parse(lughaCli(['keys', 'create', '--tier', 'enterprise', '--offer', 'full', '--data-dir', dataDir, '--json'])) as { key: string }).key;
  const headers = { authorization: `Bearer ${key}` };
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const eldFile = path.join(work, 'eld-lugha.jsonl');
  const lugha = await startServer(process.execPath, ['--import', preload, bin, 'serve', '--port', String(port), '--data-dir', dataDir], `${origin}/healthz`, {
    ...cleanEnv,
    LUGHA_WARM_ANALYZERS: values.warm ? 'true' : 'false',
    BENCH_ELD_FILE: eldFile,
  });
  children.push(lugha);
  // A server that is not ready may be busy (its warm-up): the load starts at /readyz 200. Meanwhile
  // /healthz is polled one request at a time (its slowest answer) and the child's event-loop delay is
  // recorded (its longest stall while warming up).
  const listeningAt = Date.now();
  const readiness = await waitReady(origin);
  const readyAt = Date.now();
  await untilEldLine(eldFile, readyAt);
  // From the first whole second after listening (the start before it, module loading, is not the warm-up).
  const warmupStall = eldSince(eldFile, listeningAt + 1000, readyAt + 1000).max;
  process.stdout.write(
    `\nReady: /readyz 200 ${(readiness.readyMs / 1000).toFixed(1)} s after /healthz first answered; slowest /healthz meanwhile ${readiness.healthzWorstMs.toFixed(1)} ms ` +
      `(${readiness.healthzCount} polled); worst event-loop stall from 1 s after listening to ready ${warmupStall.toFixed(1)} ms\n`,
  );
  // Every route of the mix must answer 200 before the run counts anything. Each first request is sent
  // alone, on an otherwise idle server: the child's worst event-loop stall in the second that holds it
  // is how long that first request held the loop (first-use work after ready), at most.
  const bodies: string[] = [];
  const firstUse: string[] = [];
  for (const route of routes) {
    const sentAt = Date.now();
    const t0 = performance.now();
    const response = await fetch(`${origin}${route.path()}`, { headers });
    const body = await response.text();
    const ms = performance.now() - t0;
    if (response.status !== 200) throw new Error(`${route.name} answered ${response.status}: ${body.slice(0, 300)}`);
    bodies.push(body);
    const answeredAt = Date.now();
    await untilEldLine(eldFile, answeredAt);
    firstUse.push(`${route.name} ${ms.toFixed(1)} ms (stall ${eldSince(eldFile, sentAt, answeredAt + 1000).max.toFixed(1)} ms)`);
  }
  process.stdout.write(`first request of each route after ready: ${firstUse.join(', ')}\n`);
  const rssAtStart = rssMiB(lugha.pid);
  process.stdout.write(
    `\nSoak: lugha serve (embedded, analyzers ${values.warm ? 'warmed at start' : 'built on first use'}), ${rate} req/s for ${minutes} min over ${routes.map((r) => r.name).join(', ')}; ` +
      `RSS after the first request of each route ${rssAtStart.toFixed(1)} MiB; warm-up = first ${warmupSeconds} s\n`,
  );
  const soak = await paced(origin, headers, lugha, eldFile, minutes * 60, warmupSeconds, true);
  await stopServer(lugha);
  const counted = (JSON.parse(lughaCli(['keys', 'list', '--data-dir', dataDir, '--json'])) as Array<{ used_today: number }>)[0]?.used_today ?? 0;

  // 2. The bare node:http server (answers every path with one of the route bodies), same preload, same pace.
  const basePort = await freePort();
  const body = bodies[2]!;
  const script = `
    const http = require('node:http');
    const body = Buffer.from(${JSON.stringify(body)});
    http.createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
      res.end(body);
    }).listen(${basePort}, '127.0.0.1');`;
  const baseEld = path.join(work, 'eld-baseline.jsonl');
  const bare = await startServer(process.execPath, ['--import', preload, '-e', script], `http://127.0.0.1:${basePort}/`, { ...cleanEnv, BENCH_ELD_FILE: baseEld });
  children.push(bare);
  process.stdout.write(`\nBaseline: bare node:http, same pace and paths, ${baselineSeconds} s\n`);
  const base = await paced(`http://127.0.0.1:${basePort}`, {}, bare, baseEld, baselineSeconds, 0, true);
  await stopServer(bare);

  // Verdict.
  const after = soak.samples.filter((s) => s.at >= warmupSeconds && Number.isFinite(s.rssMiB));
  const first = after[0];
  const last = after[after.length - 1];
  const growth = first && last ? last.rssMiB - first.rssMiB : Number.NaN;
  const growthPct = first ? (100 * growth) / first.rssMiB : Number.NaN;
  // Least-squares slope of RSS over time after warm-up, MiB per minute.
  let slope = Number.NaN;
  if (after.length >= 2) {
    const mx = after.reduce((s, x) => s + x.at, 0) / after.length;
    const my = after.reduce((s, x) => s + x.rssMiB, 0) / after.length;
    const num = after.reduce((s, x) => s + (x.at - mx) * (x.rssMiB - my), 0);
    const den = after.reduce((s, x) => s + (x.at - mx) ** 2, 0);
    slope = den === 0 ? 0 : (num / den) * 60;
  }
  const baseFirst = base.samples.find((s) => Number.isFinite(s.rssMiB));
  const baseLast = [...base.samples].reverse().find((s) => Number.isFinite(s.rssMiB));
  const baseGrowth = baseFirst && baseLast ? baseLast.rssMiB - baseFirst.rssMiB : Number.NaN;
  const maxOf = (samples: Sample[], key: 'eldP99' | 'eldMax') => Math.max(...samples.map((s) => s[key]).filter(Number.isFinite));
  const pct = (n: number, d: number) => (100 * n) / Math.max(1, d);

  printTable(`Soak: ${rate} req/s for ${minutes} min, mixed metered routes vs a bare node:http server at the same pace (${baselineSeconds} s)`, [
    { figure: 'achieved rate', lugha: soak.requests / soak.elapsed, baseline: base.requests / base.elapsed, unit: 'req/s' },
    { figure: 'latency p50, whole run', lugha: quantile(soak.all, 0.5), baseline: quantile(base.all, 0.5), unit: 'ms' },
    { figure: 'latency p99, whole run', lugha: quantile(soak.all, 0.99), baseline: quantile(base.all, 0.99), unit: 'ms' },
    { figure: 'latency p50 after warm-up', lugha: quantile(soak.afterWarmup, 0.5), baseline: quantile(base.all, 0.5), unit: 'ms' },
    { figure: 'latency p99 after warm-up', lugha: quantile(soak.afterWarmup, 0.99), baseline: quantile(base.all, 0.99), unit: 'ms' },
    { figure: 'error rate', lugha: pct(soak.errors, soak.requests), baseline: pct(base.errors, base.requests), unit: '%' },
    { figure: 'event-loop delay, worst 1 s p99', lugha: maxOf(soak.samples, 'eldP99'), baseline: maxOf(base.samples, 'eldP99'), unit: 'ms' },
    {
      figure: 'event-loop delay, worst 1 s p99 after warm-up',
      lugha: maxOf(
        soak.samples.filter((x) => x.at > warmupSeconds),
        'eldP99',
      ),
      baseline: maxOf(base.samples, 'eldP99'),
      unit: 'ms',
    },
    { figure: 'RSS at end', lugha: last?.rssMiB ?? Number.NaN, baseline: baseLast?.rssMiB ?? Number.NaN, unit: 'MiB' },
    { figure: 'RSS growth after warm-up', lugha: growth, baseline: baseGrowth, unit: 'MiB' },
  ]);
  const statusLine = (m: Map<string, number>) =>
    [...m]
      .sort()
      .map(([s, n]) => `${s}×${n}`)
      .join(' ');
  process.stdout.write(
    `statuses: Lugha ${statusLine(soak.statuses)}; baseline ${statusLine(base.statuses)}; requests counted by the quota: ${counted} (${soak.requests} sent + ${routes.length} checks)\n` +
      `event-loop delay worst single stall: Lugha ${maxOf(soak.samples, 'eldMax').toFixed(1)} ms, baseline ${maxOf(base.samples, 'eldMax').toFixed(1)} ms\n` +
      `verdict: RSS ${first?.rssMiB.toFixed(1)} MiB at ${first?.at.toFixed(0)} s (end of warm-up) -> ${last?.rssMiB.toFixed(1)} MiB at ${last?.at.toFixed(0)} s: ` +
      `${growth >= 0 ? '+' : ''}${growth.toFixed(1)} MiB (${growthPct >= 0 ? '+' : ''}${growthPct.toFixed(1)}%), slope ${slope.toFixed(2)} MiB/min over ${after.length} samples; ` +
      `error rate ${pct(soak.errors, soak.requests).toFixed(3)}%\n`,
  );
} finally {
  for (const child of children) await stopServer(child);
  rmSync(work, { recursive: true, force: true });
}
