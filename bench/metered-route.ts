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
 *   npx tsx bench/metered-route.ts [--seconds 10] [--connections 32]
 */
import { parseArgs } from 'node:util';
import { lughaCli, load, printTable, startBaseline, startLugha, stopServer, printLoadDetails, type Row } from './lib.js';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '10' }, connections: { type: 'string', default: '32' } } });
const seconds = Number(values.seconds);
const connections = Number(values.connections);

const routes = [
  { name: 'GET /api/v1/languages', path: '/api/v1/languages' },
  { name: 'GET /api/v1/conjugate', path: '/api/v1/conjugate?language=swh&root=penda&subject=3pl&tense=future&polarity=negative&object=c7' },
];

const lugha = await startLugha();
try {
  const rows: Row[] = [];
  const details: Array<[string, Awaited<ReturnType<typeof load>>, Awaited<ReturnType<typeof load>>]> = [];
  for (const route of routes) {
    const url = `${lugha.origin}${route.path}`;
    const response = await fetch(url, { headers: lugha.headers });
    if (response.status !== 200) throw new Error(`${route.name}: ${response.status}`);
    const baseline = await startBaseline(await response.text());
    try {
      const baseResult = await load(baseline.url, { seconds, connections });
      const lughaResult = await load(url, { seconds, connections, headers: lugha.headers });
      rows.push(
        { figure: `${route.name}, requests/s`, lugha: lughaResult.requestsPerSecond, baseline: baseResult.requestsPerSecond, unit: 'req/s' },
        { figure: `${route.name}, p99`, lugha: lughaResult.p99Ms, baseline: baseResult.p99Ms, unit: 'ms' },
      );
      details.push([route.name, lughaResult, baseResult]);
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
  const sent = details.reduce((sum, [, r]) => sum + r.requests, 0);
  process.stdout.write(`requests answered by Lugha during the measured loads: ${sent} (+ warm-ups); counted by the quota in all: ${usedToday}\n`);
} finally {
  await lugha.stop();
}
