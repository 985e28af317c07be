/** Helpers the benchmarks share: child servers on free ports, load with autocannon, a printed table. */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { packageRoot } from '../src/config.js';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Starts a process and waits until `url` answers 200. */
export async function startServer(command: string, args: string[], url: string, env: NodeJS.ProcessEnv = process.env, stdout: 'ignore' | number = 'ignore'): Promise<ChildProcess> {
  const child = spawn(command, args, { stdio: ['ignore', stdout, 'inherit'], env });
  // Up to 60 s: on a shared 2-core machine under load, several instances starting at once take a while.
  for (let i = 0; i < 1200; i++) {
    try {
      if ((await fetch(url)).ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill('SIGKILL');
  throw new Error(`${command} ${args.join(' ')} did not come up at ${url}`);
}

/** What {@link waitReady} saw while the server warmed up. */
export interface Readiness {
  /** From the call to /readyz answering 200. */
  readyMs: number;
  /** The slowest /healthz answer meanwhile (polled one at a time, 20 ms apart). */
  healthzWorstMs: number;
  healthzCount: number;
}

/**
 * Waits until `${origin}/readyz` answers 200: a server that is not ready may be busy warming up, so
 * load starts only then. Meanwhile polls `${origin}/healthz`, one request at a time, and reports
 * the slowest answer: liveness must hold during the warm-up too.
 */
export async function waitReady(origin: string, timeoutMs = 180_000): Promise<Readiness> {
  const start = performance.now();
  let ready = false;
  let healthzWorstMs = 0;
  let healthzCount = 0;
  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const health = (async () => {
    while (!ready && performance.now() - start < timeoutMs) {
      const t0 = performance.now();
      try {
        await (await fetch(`${origin}/healthz`)).arrayBuffer();
        healthzWorstMs = Math.max(healthzWorstMs, performance.now() - t0);
        healthzCount++;
      } catch {
        // not listening yet
      }
      await pause(20);
    }
  })();
  while (performance.now() - start < timeoutMs) {
    try {
      const response = await fetch(`${origin}/readyz`);
      await response.arrayBuffer();
      if (response.ok) {
        ready = true;
        break;
      }
    } catch {
      // not listening yet
    }
    await pause(100);
  }
  const readyMs = performance.now() - start;
  ready = true;
  await health;
  if (readyMs >= timeoutMs) throw new Error(`${origin}/readyz did not answer 200 within ${timeoutMs} ms`);
  return { readyMs, healthzWorstMs, healthzCount };
}

export async function stopServer(child: ChildProcess): Promise<void> {
  // Already gone (an exit code, or killed by a signal such as an earlier SIGTERM): nothing to wait for.
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

const bin = path.join(packageRoot, 'bin', 'lugha.js');
/** The environment without LUGHA_ settings, so a benchmark runs on defaults. */
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('LUGHA_')));

/** Runs `lugha <args>` from the built package and returns its standard output. */
export function lughaCli(args: string[]): string {
  return execFileSync(process.execPath, [bin, ...args], { env: cleanEnv, encoding: 'utf8' });
}

export interface LughaServer {
  child: ChildProcess;
  /** http://127.0.0.1:<port> */
  origin: string;
  /** Authorization header of an Enterprise key: unlimited, so a run never meets 429, but every request is counted. */
  headers: Record<string, string>;
  dataDir: string;
  /** Stops the server and removes its data directory. */
  stop(): Promise<void>;
}

/**
 * `lugha serve` from the built package on a free port, over a fresh data directory with one Enterprise key.
 * Analyzers are built on first use (LUGHA_WARM_ANALYZERS=false) unless `warmAnalyzers`: the background
 * warm-up takes seconds of CPU per language, and on a small machine a short load run would measure it.
 * Resolves once /readyz answers 200.
 */
/** `nodeArgs` go before the script (`--cpu-prof`, `--trace-gc`); `stdout`, a file descriptor, takes the server's standard output (log lines, `--trace-gc` lines) instead of discarding it. */
export async function startLugha(options: { warmAnalyzers?: boolean; nodeArgs?: string[]; stdout?: number } = {}): Promise<LughaServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lugha-bench-'));
  const created = JSON.parse(lughaCli(['keys', 'create', '--tier', 'enterprise', '--offer', 'full', '--data-dir', dataDir, '--json'])) as { key: string };
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const env = { ...cleanEnv, LUGHA_WARM_ANALYZERS: options.warmAnalyzers ? 'true' : 'false' };
  const child = await startServer(process.execPath, [...(options.nodeArgs ?? []), bin, 'serve', '--port', String(port), '--data-dir', dataDir], `${origin}/healthz`, env, options.stdout);
  // Load only once the server says it is ready (with warmAnalyzers, after its warm-up).
  try {
    await waitReady(origin);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    child,
    origin,
    headers: { authorization: `Bearer ${created.key}` },
    dataDir,
    async stop() {
      await stopServer(child);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A bare node:http server answering every request with `body` as JSON: the baseline of a route. */
export async function startBaseline(body: string): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const script = `
    const http = require('node:http');
    const body = Buffer.from(${JSON.stringify(body)});
    http.createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
      res.end(body);
    }).listen(${port}, '127.0.0.1');`;
  const url = `http://127.0.0.1:${port}/`;
  return { child: await startServer(process.execPath, ['-e', script], url), url };
}

export interface LoadResult {
  requestsPerSecond: number;
  /** Requests answered in the measured run (the warm-up second not included). */
  requests: number;
  meanMs: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

/** Drives `url` with `connections` keep-alive connections for `seconds` (after a short warm-up). */
export async function load(url: string, options: { seconds: number; connections: number; headers?: Record<string, string> }): Promise<LoadResult> {
  await autocannon({ url, connections: options.connections, duration: 1, headers: options.headers });
  const result = await autocannon({ url, connections: options.connections, duration: options.seconds, headers: options.headers });
  return {
    requestsPerSecond: result.requests.average,
    requests: result.requests.total,
    meanMs: result.latency.average,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

export interface Row {
  figure: string;
  lugha: number;
  baseline: number;
  unit: string;
}

/** Where `npm run bench` (scripts/run-bench.mjs) collects every benchmark's rows, one JSON object a line. */
export const REPORT_ENV = 'BENCH_REPORT_FILE';

/** The benchmark's name: its file name without `.ts` (bench/metered-route.ts -> metered-route). */
function benchName(): string {
  return path.basename(process.argv[1] ?? 'bench', '.ts');
}

/**
 * Hands rows to the runner: when BENCH_REPORT_FILE names a file (not a LUGHA_ name: those are settings the config validates), appends one JSON line per row
 * ({ bench, table, figure, unit, lugha, baseline }). Run alone, a benchmark only prints.
 */
export function report(table: string, rows: Row[]): void {
  const file = process.env[REPORT_ENV];
  if (!file) return;
  const bench = benchName();
  appendFileSync(file, rows.map((r) => `${JSON.stringify({ bench, table, figure: r.figure, unit: r.unit, lugha: r.lugha, baseline: r.baseline })}\n`).join(''));
}

/** Prints rows of figure | Lugha | baseline | ratio (Lugha / baseline), and reports them to the runner. */
export function printTable(title: string, rows: Row[]): void {
  report(title, rows);
  const lines = [
    `\n${title}`,
    `${'figure'.padEnd(44)} ${'Lugha'.padStart(12)} ${'baseline'.padStart(12)} ${'ratio'.padStart(8)}`,
    ...rows.map((r) => {
      const ratio = r.baseline === 0 ? '-' : (r.lugha / r.baseline).toFixed(2);
      return `${`${r.figure} (${r.unit})`.padEnd(44)} ${fmt(r.lugha).padStart(12)} ${fmt(r.baseline).padStart(12)} ${ratio.padStart(8)}`;
    }),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

function fmt(n: number): string {
  return n >= 100 ? Math.round(n).toString() : n.toFixed(2);
}

/** Prints latency, non-2xx and error counts of a Lugha run and its baseline (and what the quota counted, if given). */
export function printLoadDetails(lugha: LoadResult, baseline: LoadResult, counted?: number): void {
  process.stdout.write(
    `latency (autocannon, whole ms): Lugha mean ${lugha.meanMs.toFixed(2)} ms, p99 ${lugha.p99Ms} ms; ` +
      `baseline mean ${baseline.meanMs.toFixed(2)} ms, p99 ${baseline.p99Ms} ms\n` +
      `non-2xx: Lugha ${lugha.non2xx}, baseline ${baseline.non2xx}; errors: ${lugha.errors}, ${baseline.errors}` +
      (counted === undefined ? '\n' : `; requests counted by the quota: ${counted}\n`),
  );
}
