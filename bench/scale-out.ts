/**
 * Metered requests per second (GET /api/v1/languages with an Enterprise key: key lookup,
 * quota count, envelope, request logs at `info`) of
 *   1. one instance on the embedded backends (SQLite file; the baseline of this run),
 *   2. one instance on PostgreSQL + Redis,
 *   3. three instances on PostgreSQL + Redis behind a small round-robin balancer (node:http),
 * all measured in this run on this machine. PostgreSQL and Redis are the local servers
 * (TEST_POSTGRES_URL, TEST_REDIS_URL to override); a fresh database and Redis
 * prefix are made for the run and removed after.
 *
 *   npx tsx bench/scale-out.ts [--seconds 10] [--connections 32]
 *
 * On a machine with few cores, three instances and the balancer share the same cores as the
 * load generator: the third figure shows the cost of the extra hop there, not the gain of
 * more machines.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { packageRoot } from '../src/config.js';
import { freshPostgresDatabase, freshRedisPrefix, postgresUp, redisUp } from '../test/backends.js';
import { freePort, load, printTable, startServer, stopServer, waitReady, type LoadResult } from './lib.js';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '10' }, connections: { type: 'string', default: '32' } } });
const seconds = Number(values.seconds);
const connections = Number(values.connections);

if (!postgresUp || !redisUp) {
  process.stderr.write(`bench/scale-out.ts: needs PostgreSQL and Redis on this machine (PostgreSQL ${postgresUp ? 'up' : 'down'}, Redis ${redisUp ? 'up' : 'down'})\n`);
  process.exit(1);
}

const bin = path.join(packageRoot, 'bin', 'lugha.js');
const baseEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('LUGHA_')));
const children: ChildProcess[] = [];
const dirs: string[] = [];

function cli(args: string[], env: NodeJS.ProcessEnv): string {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lugha-bench-scale-'));
  dirs.push(dataDir);
  return execFileSync(process.execPath, [bin, ...args, '--data-dir', dataDir], { env, encoding: 'utf8' });
}

/** A data directory for one instance, removed at the end of the run. */
function scratchDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'lugha-bench-scale-'));
  dirs.push(dir);
  return dir;
}

/**
 * `lugha serve` on a free port; resolves once /readyz answers 200 (a server not ready yet may be busy,
 * and would be measured). Analyzers are built on first use
 * (LUGHA_WARM_ANALYZERS=false): GET /api/v1/languages needs none, and the background warm-up would
 * otherwise compete with the load (the benchmark used to wait for it: about a minute of the run).
 */
async function serve(env: NodeJS.ProcessEnv, dataDir: string): Promise<string> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child = await startServer(process.execPath, [bin, 'serve', '--port', String(port), '--data-dir', dataDir], `${origin}/healthz`, { ...env, LUGHA_LOG_LEVEL: 'info', LUGHA_WARM_ANALYZERS: 'false' });
  children.push(child);
  await waitReady(origin);
  return origin;
}

/** A round-robin HTTP balancer with keep-alive to the upstreams, in its own process. */
async function balancer(upstreams: string[]): Promise<string> {
  const port = await freePort();
  const script = `
    const http = require('node:http');
    const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
    const ups = ${JSON.stringify(upstreams)}.map((u) => new URL(u));
    let next = 0;
    http.createServer((req, res) => {
      const up = ups[next++ % ups.length];
      const out = http.request({ host: up.hostname, port: up.port, method: req.method, path: req.url, headers: req.headers, agent }, (r) => {
        res.writeHead(r.statusCode, r.headers);
        r.pipe(res);
      });
      out.on('error', () => { res.statusCode = 502; res.end(); });
      req.pipe(out);
    }).listen(${port}, '127.0.0.1', () => process.stdout.write('ready\\n'));`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
  return `http://127.0.0.1:${port}`;
}

async function measure(origin: string, key: string): Promise<LoadResult> {
  return load(`${origin}/api/v1/languages`, { seconds, connections, headers: { authorization: `Bearer ${key}` } });
}

const db = await freshPostgresDatabase();
const redis = freshRedisPrefix();
try {
  // 1. Embedded.
  const embeddedDir = mkdtempSync(path.join(tmpdir(), 'lugha-bench-scale-'));
  dirs.push(embeddedDir);
  const embeddedKey = (
    JSON.parse(execFileSync(process.execPath, [bin, 'keys', 'create', '--tier', 'enterprise', '--offer', 'full', '--json', '--data-dir', embeddedDir], { env: baseEnv, encoding: 'utf8' })) as { key: string }
  ).key;
  const embeddedOrigin = await serve(baseEnv, embeddedDir);
  const embedded = await measure(embeddedOrigin, embeddedKey);
  for (const child of children.splice(0)) await stopServer(child);

  // 2. One instance on PostgreSQL + Redis.
  const sharedEnv = { ...baseEnv, LUGHA_DATABASE_URL: db.url, LUGHA_REDIS_URL: redis.url, LUGHA_REDIS_PREFIX: redis.prefix };
  const sharedKey = (JSON.parse(cli(['keys', 'create', '--tier', 'enterprise', '--offer', 'full', '--json'], sharedEnv)) as { key: string }).key;
  const one = await serve(sharedEnv, scratchDir());
  const single = await measure(one, sharedKey);
  for (const child of children.splice(0)) await stopServer(child);

  // 3. Three instances behind the balancer.
  const three = await Promise.all([0, 1, 2].map(() => serve(sharedEnv, scratchDir())));
  const front = await balancer(three);
  const balanced = await measure(front, sharedKey);
  for (const child of children.splice(0)) await stopServer(child);

  const counted = (JSON.parse(cli(['keys', 'list', '--json'], sharedEnv)) as Array<{ used_today: number }>)[0]?.used_today ?? 0;

  printTable(`Metered route on shared backends vs one embedded instance (${seconds} s, ${connections} connections; baseline = embedded, same run)`, [
    { figure: '1 instance, PostgreSQL+Redis', lugha: single.requestsPerSecond, baseline: embedded.requestsPerSecond, unit: 'req/s' },
    { figure: '3 instances + LB, PostgreSQL+Redis', lugha: balanced.requestsPerSecond, baseline: embedded.requestsPerSecond, unit: 'req/s' },
  ]);
  process.stdout.write(
    `embedded: ${Math.round(embedded.requestsPerSecond)} req/s, mean ${embedded.meanMs.toFixed(2)} ms, p99 ${embedded.p99Ms} ms, non-2xx ${embedded.non2xx}, errors ${embedded.errors}\n` +
      `1 instance PostgreSQL + Redis: mean ${single.meanMs.toFixed(2)} ms, p99 ${single.p99Ms} ms, non-2xx ${single.non2xx}, errors ${single.errors}\n` +
      `3 instances + balancer: mean ${balanced.meanMs.toFixed(2)} ms, p99 ${balanced.p99Ms} ms, non-2xx ${balanced.non2xx}, errors ${balanced.errors}\n` +
      `requests counted by the shared quota today (runs 2 and 3, warm-ups included): ${counted}\n`,
  );
} finally {
  for (const child of children) await stopServer(child);
  await db.drop();
  await redis.clean();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}
