/**
 * Tool-call latency of the MCP server, p50 and p99, one client calling
 * `conjugate_verb` (the worked example) in sequence:
 *   - over HTTP: the SDK client against `/mcp` of `lugha serve`; baseline: the same
 *     form from `GET /api/v1/conjugate` of the same server (what MCP adds over REST);
 *   - over HTTP with `fetch` alone: the exact request the SDK client sent (its headers and
 *     JSON-RPC body, recorded once) posted again with `fetch` and the answer read whole, for each
 *     revision: what the server adds over REST, without the SDK client's own cost;
 *   - over stdio: the SDK client driving `lugha mcp`; baseline: a bare child process
 *     answering each JSON-RPC line on stdio with the same result bytes (what the SDK
 *     and the engine add over the pipe).
 * Both measured in this run on this machine. Calls are counted by the quota (Enterprise key).
 *
 * Cold start of `lugha mcp` (first, before the latency runs; median of `--cold` runs of a fresh
 * process each): process start → answer to `initialize` → first tool result, for `conjugate_verb`
 * (swh) and `analyze_form` (zul); baseline: `lugha --version`, the whole process, in the same run.
 * Then, in the same process, the same call again as soon as the first result came, and ten more
 * 300 ms apart while the analysers warm in the background: the median latency of that second
 * call and the worst of all of them, against the fastest call of the process (a call nothing held
 * up). `--cold-only` stops after it.
 *
 *   npx tsx bench/mcp.ts [--calls 2000] [--cold 1] [--cold-only]
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createInterface } from 'node:readline';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { packageRoot } from '../src/config.js';
import { lughaCli, printTable, startLugha, type LughaServer } from './lib.js';

const { values } = parseArgs({
  options: { calls: { type: 'string', default: '2000' }, cold: { type: 'string', default: '1' }, 'cold-only': { type: 'boolean', default: false }, seconds: { type: 'string' }, connections: { type: 'string' } },
});
const calls = Number(values.calls);
const WARM_UP = 200;
const args = { language: 'swh', root: 'penda', subject: '3pl', tense: 'future', polarity: 'negative', object: 'c7' };
const bin = path.join(packageRoot, 'bin', 'lugha.js');
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([k, v]) => !k.startsWith('LUGHA_') && v !== undefined)) as Record<string, string>;

interface Latency {
  p50: number;
  p99: number;
  mean: number;
}

/** Runs `once` WARM_UP times unmeasured, then `calls` times, and returns the latency figures in ms. */
async function measure(once: () => Promise<void>): Promise<Latency> {
  for (let i = 0; i < WARM_UP; i++) await once();
  const times: number[] = [];
  for (let i = 0; i < calls; i++) {
    const start = performance.now();
    await once();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  return { p50: at(0.5), p99: at(0.99), mean: times.reduce((s, t) => s + t, 0) / times.length };
}

async function expectForm(client: Client): Promise<void> {
  const result = await client.callTool({ name: 'conjugate_verb', arguments: args });
  if ((result.structuredContent as { surface_form?: string } | undefined)?.surface_form !== 'hawatakipenda') throw new Error(`unexpected answer: ${JSON.stringify(result).slice(0, 300)}`);
}

/** A `fetch` for the SDK client's transport that keeps the last `tools/call` it sent (headers and body). */
function recordingFetch(): { fetch: typeof fetch; recorded(): { headers: Headers; body: string } } {
  let last: { headers: Headers; body: string } | undefined;
  return {
    fetch: (input, init) => {
      if (typeof init?.body === 'string' && init.body.includes('"tools/call"')) last = { headers: new Headers(init.headers), body: init.body };
      return fetch(input, init);
    },
    recorded() {
      if (!last) throw new Error('the SDK client sent no tools/call');
      return last;
    },
  };
}

/** Posts a recorded tools/call again with `fetch` and reads the whole answer (JSON or an SSE stream). */
async function replay(url: URL, request: { headers: Headers; body: string }): Promise<void> {
  const response = await fetch(url, { method: 'POST', headers: request.headers, body: request.body });
  const text = await response.text();
  if (response.status !== 200 || !text.includes('hawatakipenda')) throw new Error(`unexpected answer ${response.status}: ${text.slice(0, 300)}`);
}

/** A child answering every JSON-RPC request line with `result` (and initialize with a minimal handshake). */
function startEcho(result: unknown): { call(): Promise<void>; stop(): void } {
  const script = `
    const rl = require('node:readline').createInterface({ input: process.stdin });
    const result = ${JSON.stringify(JSON.stringify(result))};
    rl.on('line', (line) => { const id = JSON.parse(line).id; process.stdout.write('{"jsonrpc":"2.0","id":' + id + ',"result":' + result + '}\\n'); });`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting = new Map<number, () => void>();
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const id = (JSON.parse(line) as { id: number }).id;
    waiting.get(id)?.();
    waiting.delete(id);
  });
  let next = 1;
  return {
    call() {
      const id = next++;
      return new Promise<void>((resolve) => {
        waiting.set(id, resolve);
        child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'conjugate_verb', arguments: args } })}\n`);
      });
    },
    stop: () => child.kill('SIGTERM'),
  };
}

/** Milliseconds from spawning `node <args>` to its exit. */
function wholeProcess(argv: string[]): Promise<number> {
  const start = performance.now();
  const child = spawn(process.execPath, argv, { stdio: 'ignore', env: cleanEnv });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(performance.now() - start) : reject(new Error(`node ${argv.join(' ')} exited ${code}`))));
  });
}

/** Calls sent after the first result of a cold start: one at once, then FOLLOW_CALLS more FOLLOW_GAP_MS apart (the analysers warm in between). */
const FOLLOW_CALLS = 10;
const FOLLOW_GAP_MS = 300;

/** Tool calls each cold start makes (all counted by the quota). */
const CALLS_PER_COLD_START = 2 + FOLLOW_CALLS;

interface ColdStart {
  initialize: number;
  first: number;
  /** ms from sending to the result of the same call sent when the first result came. */
  second: number;
  /** ms from sending to the result, of each of the calls sent FOLLOW_GAP_MS apart after it. */
  follow: number[];
}

/**
 * One fresh `lugha mcp`: ms from spawn to the initialize answer, and to the result of one tools/call
 * (refused if it is an error); then the same call again at once, and FOLLOW_CALLS more, FOLLOW_GAP_MS
 * apart, while the analysers warm in the background.
 */
function coldStart(dataDir: string, key: string, tool: string, toolArgs: Record<string, unknown>): Promise<ColdStart> {
  const start = performance.now();
  const child = spawn(process.execPath, [bin, 'mcp', '--data-dir', dataDir], { stdio: ['pipe', 'pipe', 'inherit'], env: { ...cleanEnv, LUGHA_API_KEY: key } });
  const send = (message: unknown) => child.stdin!.write(`${JSON.stringify(message)}\n`);
  const sent = new Map<number, number>();
  const call = (id: number) => {
    sent.set(id, performance.now());
    send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: tool, arguments: toolArgs } });
  };
  const result: ColdStart = { initialize: 0, first: 0, second: 0, follow: [] };
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`lugha mcp exited ${code} before answering`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const message = JSON.parse(line) as { id?: number; result?: { isError?: boolean }; error?: unknown };
      if (message.id === undefined) return;
      const now = performance.now();
      if (message.id === 1) {
        result.initialize = now - start;
        send({ jsonrpc: '2.0', method: 'notifications/initialized' });
        call(2);
        return;
      }
      if (message.error || message.result?.isError) {
        child.removeAllListeners('exit');
        child.kill('SIGTERM');
        reject(new Error(`${tool} failed: ${line.slice(0, 300)}`));
        return;
      }
      const took = now - sent.get(message.id)!;
      if (message.id === 2) {
        result.first = now - start;
        call(3);
      } else if (message.id === 3) result.second = took;
      else result.follow.push(took);
      if (message.id >= 3 && message.id < 3 + FOLLOW_CALLS) setTimeout(() => call(message.id! + 1), FOLLOW_GAP_MS);
      else if (message.id === 3 + FOLLOW_CALLS) {
        child.removeAllListeners('exit');
        child.kill('SIGTERM');
        resolve(result);
      }
    });
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'lugha-bench', version: '1' } } });
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The cold-start figures, each the median of `runs` fresh processes, taken one after another. */
async function coldStarts(dataDir: string, key: string, runs: number) {
  const version: number[] = [];
  const swh: ColdStart[] = [];
  const zul: ColdStart[] = [];
  for (let i = 0; i < runs; i++) {
    version.push(await wholeProcess([bin, '--version']));
    swh.push(await coldStart(dataDir, key, 'conjugate_verb', args));
    zul.push(await coldStart(dataDir, key, 'analyze_form', { language: 'zul', form: 'ngiyabonga' }));
  }
  const both = [...swh, ...zul];
  return {
    version: median(version),
    initialize: median(both.map((r) => r.initialize)),
    swh: median(swh.map((r) => r.first)),
    zul: median(zul.map((r) => r.first)),
    second: median(both.map((r) => r.second)),
    // The slowest call during the warm-up, against the fastest of the same process's calls (an undisturbed call).
    worst: Math.max(...both.map((r) => Math.max(r.second, ...r.follow))),
    fastest: median(both.map((r) => Math.min(r.second, ...r.follow))),
  };
}

/** The tool-call latency figures (see the head of this file). */
async function latencies(lugha: LughaServer, key: string, coldCalls: number): Promise<void> {
  const endpoint = new URL(`${lugha.origin}/mcp`);
  const httpRecorder = recordingFetch();
  const http = new Client({ name: 'lugha-bench', version: '1' });
  await http.connect(new StreamableHTTPClientTransport(endpoint, { requestInit: { headers: lugha.headers }, fetch: httpRecorder.fetch }));
  const sample = await http.callTool({ name: 'conjugate_verb', arguments: args });
  const mcpHttp = await measure(() => expectForm(http));
  await http.close();
  const modernRecorder = recordingFetch();
  const modern = new Client({ name: 'lugha-bench', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await modern.connect(new StreamableHTTPClientTransport(endpoint, { requestInit: { headers: lugha.headers }, fetch: modernRecorder.fetch }));
  const mcpModern = await measure(() => expectForm(modern));
  await modern.close();
  const httpRequest = httpRecorder.recorded();
  const mcpFetch = await measure(() => replay(endpoint, httpRequest));
  const modernRequest = modernRecorder.recorded();
  const mcpModernFetch = await measure(() => replay(endpoint, modernRequest));
  const restUrl = `${lugha.origin}/api/v1/conjugate?${new URLSearchParams(args).toString()}`;
  const rest = await measure(async () => {
    const response = await fetch(restUrl, { headers: lugha.headers });
    if (response.status !== 200) throw new Error(`REST answered ${response.status}`);
    await response.arrayBuffer();
  });

  const stdio = new Client({ name: 'lugha-bench', version: '1' });
  await stdio.connect(new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp', '--data-dir', lugha.dataDir], env: { ...cleanEnv, LUGHA_API_KEY: key } }));
  const mcpStdio = await measure(() => expectForm(stdio));
  await stdio.close();
  const echo = startEcho(sample);
  const pipe = await measure(() => echo.call());
  echo.stop();

  const counted = (JSON.parse(lughaCli(['keys', 'list', '--data-dir', lugha.dataDir, '--json'])) as Array<{ used_today: number }>)[0]?.used_today ?? 0;

  printTable(`MCP tool-call latency, conjugate_verb, ${calls} sequential calls after ${WARM_UP} warm-up (lower is better)`, [
    { figure: 'HTTP /mcp p50 vs REST GET /conjugate', lugha: mcpHttp.p50, baseline: rest.p50, unit: 'ms' },
    { figure: 'HTTP /mcp p99 vs REST GET /conjugate', lugha: mcpHttp.p99, baseline: rest.p99, unit: 'ms' },
    { figure: 'HTTP /mcp 2026-07-28 p50 vs REST', lugha: mcpModern.p50, baseline: rest.p50, unit: 'ms' },
    { figure: 'HTTP /mcp 2026-07-28 p99 vs REST', lugha: mcpModern.p99, baseline: rest.p99, unit: 'ms' },
    { figure: 'HTTP /mcp, fetch client, p50 vs REST', lugha: mcpFetch.p50, baseline: rest.p50, unit: 'ms' },
    { figure: 'HTTP /mcp, fetch client, p99 vs REST', lugha: mcpFetch.p99, baseline: rest.p99, unit: 'ms' },
    { figure: 'HTTP /mcp 2026-07-28, fetch client, p50 vs REST', lugha: mcpModernFetch.p50, baseline: rest.p50, unit: 'ms' },
    { figure: 'HTTP /mcp 2026-07-28, fetch client, p99 vs REST', lugha: mcpModernFetch.p99, baseline: rest.p99, unit: 'ms' },
    { figure: 'stdio p50 vs bare stdio echo', lugha: mcpStdio.p50, baseline: pipe.p50, unit: 'ms' },
    { figure: 'stdio p99 vs bare stdio echo', lugha: mcpStdio.p99, baseline: pipe.p99, unit: 'ms' },
  ]);
  process.stdout.write(
    `the HTTP /mcp rows without a revision are a 2025-11-25 client (the SDK client's default); the fetch client rows post the request the SDK client sent, with fetch alone.\n` +
      `means: HTTP /mcp ${mcpHttp.mean.toFixed(2)} ms, 2026-07-28 ${mcpModern.mean.toFixed(2)} ms, fetch ${mcpFetch.mean.toFixed(2)} ms, 2026-07-28 fetch ${mcpModernFetch.mean.toFixed(2)} ms, REST ${rest.mean.toFixed(2)} ms, stdio ${mcpStdio.mean.toFixed(2)} ms, echo ${pipe.mean.toFixed(2)} ms; ` +
      `requests counted by the quota: ${counted} (expected ${6 * (calls + WARM_UP) + 1 + coldCalls}, ${coldCalls} of them cold-start calls)\n`,
  );
}

const lugha = await startLugha();
try {
  const key = lugha.headers.authorization!.replace(/^Bearer /, '');

  const coldRuns = Number(values.cold);
  const cold = await coldStarts(lugha.dataDir, key, coldRuns);
  printTable(
    `lugha mcp cold start, median of ${coldRuns} fresh processes, ms from spawn (lower is better); load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
    [
      { figure: 'initialize answered vs lugha --version (whole process)', lugha: cold.initialize, baseline: cold.version, unit: 'ms' },
      { figure: 'first conjugate_verb (swh) vs lugha --version', lugha: cold.swh, baseline: cold.version, unit: 'ms' },
      { figure: 'first analyze_form (zul) vs lugha --version', lugha: cold.zul, baseline: cold.version, unit: 'ms' },
      { figure: 'the same call sent as the first result came, median vs fastest call of the process', lugha: cold.second, baseline: cold.fastest, unit: 'ms' },
      { figure: `worst of ${FOLLOW_CALLS + 1} calls during the warm-up (${FOLLOW_GAP_MS} ms apart), all runs, vs the same`, lugha: cold.worst, baseline: cold.fastest, unit: 'ms' },
    ],
  );
  if (!values['cold-only']) await latencies(lugha, key, 2 * coldRuns * CALLS_PER_COLD_START);
} finally {
  await lugha.stop();
}
