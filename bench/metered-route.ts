/**
 * Requests per second of an authenticated, metered route (GET /api/v1/languages
 * with an API key: key lookup, quota upsert, envelope, headers, request logs at
 * `info`) against a bare node:http server returning the same JSON body, both
 * measured in this run on this machine.
 *
 *   npx tsx bench/metered-route.ts [--seconds 10] [--connections 32]
 */
import { parseArgs } from 'node:util';
import { lughaCli, load, printTable, startBaseline, startLugha, stopServer, printLoadDetails } from './lib.js';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '10' }, connections: { type: 'string', default: '32' } } });
const seconds = Number(values.seconds);
const connections = Number(values.connections);

const lugha = await startLugha();
try {
  const url = `${lugha.origin}/api/v1/languages`;
  const body = await (await fetch(url, { headers: lugha.headers })).text();
  const baseline = await startBaseline(body);

  const lughaResult = await load(url, { seconds, connections, headers: lugha.headers });
  const baseResult = await load(baseline.url, { seconds, connections });
  await stopServer(lugha.child);
  await stopServer(baseline.child);

  const counted = lughaCli(['keys', 'list', '--data-dir', lugha.dataDir, '--json']);
  const usedToday = (JSON.parse(counted) as Array<{ used_today: number }>)[0]?.used_today ?? 0;

  printTable(`Metered REST route vs bare node:http (${seconds} s, ${connections} connections, same JSON body)`, [
    { figure: 'requests/s', lugha: lughaResult.requestsPerSecond, baseline: baseResult.requestsPerSecond, unit: 'req/s' },
  ]);
  printLoadDetails(lughaResult, baseResult, usedToday);
} finally {
  await lugha.stop();
}
