/**
 * Requests per second and p99 latency of authenticated, metered routes against a bare
 * node:http server returning the same JSON body, both measured in this run on this machine:
 *  - GET /api/v1/languages with an Enterprise key (key lookup, count, the catalogue page
 *    serialised once and sent with its ETag, security and CORS headers, one log line at `info`);
 *  - GET /api/v1/conjugate (the worked example) with the same key: the same metered path plus
 *    the answer kept for that query string (src/http/answer-cache.ts; the first request
 *    validates the query, conjugates and serialises).
 * Each route is loaded right after its own baseline, so both see the same machine load.
 *
 * The baseline writes the body with two headers; Lugha's answer also carries about 1.1 KB of
 * security, CORS, request-id and content headers, which the load generator must read too (on
 * 2 cores it shares the CPUs with the server). `--same-bytes` adds, for each route, a second bare
 * server that writes Lugha's header set as well (the request id fixed, Date and connection headers
 * from Node as in both), loaded after the first: the same bytes on the wire, still no work per
 * request. The first baseline and its ratio are unchanged.
 *
 * `--only <text>` loads only the routes whose path contains it; `--cpu-prof <dir>` runs `lugha serve`
 * under `node --cpu-prof` (profile written in <dir> when the server stops) and `--trace-gc <file>` under
 * `node --trace-gc` (the server's standard output, its log lines and the collector's, in <file>; the
 * scavenges per 1,000 answered requests are printed); `scripts/cpuprofile-top.mjs
 * <file> --last-seconds <seconds>` lists the profile's top frames over the load.
 *
 *   npx tsx bench/metered-route.ts [--seconds 10] [--connections 32] [--same-bytes] [--only conjugate] [--cpu-prof /tmp/prof] [--trace-gc /tmp/gc.log]
 */
import { closeSync, openSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { freePort, lughaCli, load, printTable, startBaseline, startLugha, startServer, stopServer, printLoadDetails, type Row } from './lib.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
    'same-bytes': { type: 'boolean', default: false },
    only: { type: 'string' },
    'cpu-prof': { type: 'string' },
    'trace-gc': { type: 'string' },
  },
});
const seconds = Number(values.seconds);
const connections = Number(values.connections);

/**
 * CPU time (user + system) a process has used, in microseconds, from /proc/<pid>/stat (Linux), or
 * undefined elsewhere. Per request, it depends far less on other work on the machine than
 * requests/s do: on a loaded machine it is the figure to compare.
 */
function cpuMicros(pid: number | undefined): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}
/** USER_HZ: 100 on Linux on every common architecture. */
const CLOCK_TICKS = 100;

/** `load`, with the server's CPU microseconds per answered request (undefined where /proc is missing). */
async function loadWithCpu(pid: number | undefined, url: string, options: Parameters<typeof load>[1]) {
  const before = cpuMicros(pid);
  const result = await load(url, options);
  const after = cpuMicros(pid);
  return { result, cpuPerRequest: before === undefined || after === undefined ? undefined : (after - before) / result.requests };
}

/** Headers Node writes itself (or the server sets from the body), left out of a copied header set. */
const NODE_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

/** A bare node:http server answering every request with `body` and the given headers, all fixed. */
async function startSameBytesBaseline(body: string, headers: Record<string, string>) {
  const port = await freePort();
  const script = `
    const http = require('node:http');
    const body = Buffer.from(${JSON.stringify(body)});
    const headers = { ...${JSON.stringify(headers)}, 'content-length': body.length };
    http.createServer((req, res) => {
      res.writeHead(200, headers);
      res.end(body);
    }).listen(${port}, '127.0.0.1');`;
  const url = `http://127.0.0.1:${port}/`;
  return { child: await startServer(process.execPath, ['-e', script], url), url };
}

const routes = [
  { name: 'GET /api/v1/languages', path: '/api/v1/languages' },
  { name: 'GET /api/v1/conjugate', path: '/api/v1/conjugate?language=swh&root=penda&subject=3pl&tense=future&polarity=negative&object=c7' },
].filter((route) => values.only === undefined || route.path.includes(values.only));

const nodeArgs = [...(values['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', values['cpu-prof']] : []), ...(values['trace-gc'] ? ['--trace-gc'] : [])];
const gcLog = values['trace-gc'] ? openSync(values['trace-gc'], 'w') : undefined;
const lugha = await startLugha({ nodeArgs, stdout: gcLog });
try {
  const rows: Row[] = [];
  let sent = 0;
  const details: Array<[string, Awaited<ReturnType<typeof load>>, Awaited<ReturnType<typeof load>>]> = [];
  for (const route of routes) {
    const url = `${lugha.origin}${route.path}`;
    const response = await fetch(url, { headers: lugha.headers });
    if (response.status !== 200) throw new Error(`${route.name}: ${response.status}`);
    const body = await response.text();
    const baseline = await startBaseline(body);
    try {
      const { result: baseResult, cpuPerRequest: baseCpu } = await loadWithCpu(baseline.child.pid, baseline.url, { seconds, connections });
      const { result: lughaResult, cpuPerRequest: lughaCpu } = await loadWithCpu(lugha.child.pid, url, { seconds, connections, headers: lugha.headers });
      rows.push(
        { figure: `${route.name}, requests/s`, lugha: lughaResult.requestsPerSecond, baseline: baseResult.requestsPerSecond, unit: 'req/s' },
        { figure: `${route.name}, p99`, lugha: lughaResult.p99Ms, baseline: baseResult.p99Ms, unit: 'ms' },
      );
      if (lughaCpu !== undefined && baseCpu !== undefined) rows.push({ figure: `${route.name}, server CPU per request`, lugha: lughaCpu, baseline: baseCpu, unit: 'µs' });
      details.push([route.name, lughaResult, baseResult]);
      sent += lughaResult.requests;
      if (values['same-bytes']) {
        const headers: Record<string, string> = {};
        response.headers.forEach((value, name) => {
          if (!NODE_HEADERS.has(name)) headers[name] = value;
        });
        const sameBytes = await startSameBytesBaseline(body, headers);
        try {
          const { result: sameResult, cpuPerRequest: sameCpu } = await loadWithCpu(sameBytes.child.pid, sameBytes.url, { seconds, connections });
          if (lughaCpu !== undefined && sameCpu !== undefined) rows.push({ figure: `${route.name}, server CPU per request vs same bytes`, lugha: lughaCpu, baseline: sameCpu, unit: 'µs' });
          rows.push(
            { figure: `${route.name}, req/s vs same bytes`, lugha: lughaResult.requestsPerSecond, baseline: sameResult.requestsPerSecond, unit: 'req/s' },
            { figure: `${route.name}, p99 vs same bytes`, lugha: lughaResult.p99Ms, baseline: sameResult.p99Ms, unit: 'ms' },
          );
          details.push([`${route.name} (same-bytes baseline)`, lughaResult, sameResult]);
        } finally {
          await stopServer(sameBytes.child);
        }
      }
    } finally {
      await stopServer(baseline.child);
    }
  }
  // SIGTERM writes the counts still held for group commit; then the CLI reads what was counted.
  await stopServer(lugha.child);
  const counted = lughaCli(['keys', 'list', '--data-dir', lugha.dataDir, '--json']);
  const usedToday = (JSON.parse(counted) as Array<{ used_today: number }>)[0]?.used_today ?? 0;

  printTable(`Metered REST routes vs bare node:http (${seconds} s each, ${connections} connections, same JSON body)`, rows);
  for (const [name, lughaResult, baseResult] of details) {
    process.stdout.write(`${name}: `);
    printLoadDetails(lughaResult, baseResult);
  }
  process.stdout.write(`requests answered by Lugha during the measured loads: ${sent} (+ warm-ups); counted by the quota in all: ${usedToday}\n`);
  if (gcLog !== undefined && values['trace-gc']) {
    closeSync(gcLog);
    // Every line V8 writes for a young-generation collection names it (`Scavenge`); the log lines are JSON.
    const scavenges = readFileSync(values['trace-gc'], 'utf8')
      .split('\n')
      .filter((line) => line.includes('Scavenge') && !line.startsWith('{')).length;
    process.stdout.write(`scavenges in the server's whole run: ${scavenges} (${((scavenges / usedToday) * 1000).toFixed(2)} per 1,000 counted requests)\n`);
  }
} finally {
  await lugha.stop();
}
