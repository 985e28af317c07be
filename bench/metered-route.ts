/**
 * Requests per second of an authenticated, metered route (GET /api/v1/languages
 * with an API key: key lookup, quota upsert, envelope, headers, request logs at
 * `info`) against a bare node:http server returning the same JSON body, both
 * measured in this run on this machine.
 *
 *   npx tsx bench/metered-route.ts [--seconds 10] [--connections 32]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { packageRoot } from '../src/config.js';
import { freePort, load, printTable, startServer, stopServer } from './lib.js';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '10' }, connections: { type: 'string', default: '32' } } });
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const bin = path.join(packageRoot, 'bin', 'lugha.js');
const dataDir = mkdtempSync(path.join(tmpdir(), 'lugha-bench-'));
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('LUGHA_')));

try {
  // Enterprise: unlimited, so the run never hits 429, but every request is still counted.
  const created = JSON.parse(
    execFileSync(process.execPath, [bin, 'keys', 'create', '--tier', 'enterprise', '--offer', 'full', '--data-dir', dataDir, '--json'], { env, encoding: 'utf8' }),
  ) as { key: string; id: string };
  const lughaPort = await freePort();
  const lugha = await startServer(process.execPath, [bin, 'serve', '--port', String(lughaPort), '--data-dir', dataDir], `http://127.0.0.1:${lughaPort}/healthz`, env);
  const url = `http://127.0.0.1:${lughaPort}/api/v1/languages`;
  const headers = { authorization: `Bearer ${created.key}` };
  const body = await (await fetch(url, { headers })).text();

  const basePort = await freePort();
  const baselineScript = `
    const http = require('node:http');
    const body = Buffer.from(${JSON.stringify(body)});
    http.createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
      res.end(body);
    }).listen(${basePort}, '127.0.0.1');`;
  const baseline = await startServer(process.execPath, ['-e', baselineScript], `http://127.0.0.1:${basePort}/`);

  const lughaResult = await load(url, { seconds, connections, headers });
  const baseResult = await load(`http://127.0.0.1:${basePort}/`, { seconds, connections });
  await stopServer(lugha);
  await stopServer(baseline);

  const counted = execFileSync(process.execPath, [bin, 'keys', 'list', '--data-dir', dataDir, '--json'], { env, encoding: 'utf8' });
  const usedToday = (JSON.parse(counted) as Array<{ used_today: number }>)[0]?.used_today ?? 0;

  printTable(`Metered REST route vs bare node:http (${seconds} s, ${connections} connections, same JSON body)`, [
    { figure: 'requests/s', lugha: lughaResult.requestsPerSecond, baseline: baseResult.requestsPerSecond, unit: 'req/s' },
  ]);
  process.stdout.write(
    `latency (autocannon, whole ms): Lugha mean ${lughaResult.meanMs.toFixed(2)} ms, p99 ${lughaResult.p99Ms} ms; ` +
      `baseline mean ${baseResult.meanMs.toFixed(2)} ms, p99 ${baseResult.p99Ms} ms\n` +
      `non-2xx: Lugha ${lughaResult.non2xx}, baseline ${baseResult.non2xx}; errors: ${lughaResult.errors}, ${baseResult.errors}; ` +
      `requests counted by the quota: ${usedToday}\n`,
  );
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
