// Pins what a caller sees when the database is locked (SQLite: another process holds the write
// lock) or unreachable (PostgreSQL behind a TCP proxy that is cut mid-run): a 503
// service_unavailable with Retry-After that names no path, host or port; the status page says
// degraded; and once the fault ends the service answers again with every committed count kept.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, it } from 'node:test';
import { freshPostgresDatabase, POSTGRES_ADMIN_URL, postgresUp, skipUnless } from './backends.js';
import { bin, holdSqliteWriteLock, startTcpProxy } from './faults-support.js';
import { assertNothingInternal, harness, problemOf } from './helpers.js';

const run = promisify(execFile);

/** Remaining requests today, from the RateLimit header (`"daily";r=97;t=…`). */
function remaining(response: { headers: Record<string, unknown> }): number {
  const match = /;r=(\d+);/.exec(String(response.headers['ratelimit']));
  assert.ok(match, `no RateLimit header: ${String(response.headers['ratelimit'])}`);
  return Number(match[1]);
}

describe('SQLite database locked by another process', () => {
  it('answers 503 service_unavailable with Retry-After, then serves again with every committed count kept', async () => {
    const h = await harness();
    try {
      const { key } = await h.issue('evaluation', 'evaluation'); // 100 requests a day
      for (let i = 0; i < 3; i++) assert.equal((await h.call(key, '/api/v1/languages')).statusCode, 200);

      const lock = await holdSqliteWriteLock(path.join(h.dataDir, 'lugha.db'));
      let refused;
      try {
        // The metered request has to write its count; it waits out the busy timeout, then gives up.
        refused = await h.call(key, '/api/v1/languages');
        // A key issued while the lock is held is refused the same way, and not half-created.
        const issuing = await h.services.keys.create({ tier: 'academic', offer: 'full' }).then(
          () => undefined,
          (error: unknown) => error as { code?: string; status?: number },
        );
        assert.equal(issuing?.code, 'service_unavailable');
        assert.equal(issuing?.status, 503);
        // The operator's CLI says the same in words, without a stack trace.
        const cli = await run(process.execPath, [bin, 'keys', 'create', '--tier', 'academic', '--offer', 'full', '--data-dir', h.dataDir]).then(
          () => assert.fail('lugha keys create succeeded under the lock'),
          (error: { code?: number; stderr?: string }) => error,
        );
        assert.equal(cli.code, 1);
        assert.match(String(cli.stderr), /^lugha: the database is locked by another writer; nothing was written, retry in a moment\n$/);
        // Routes that do not write keep answering.
        assert.equal((await h.call(undefined, '/healthz')).statusCode, 200);
        assert.equal((await h.call(undefined, '/readyz')).statusCode, 200, 'reads still work in WAL mode');
      } finally {
        await lock.release();
      }
      assert.equal(refused.statusCode, 503);
      const problem = problemOf(refused);
      assert.equal(problem.code, 'service_unavailable');
      assert.match(String(problem.detail), /locked/);
      assert.equal(refused.headers['retry-after'], '2');
      assert.ok(!refused.body.includes(h.dataDir), 'no data directory in the body');
      assert.doesNotMatch(refused.body, /lugha\.db|SQLITE_|better-sqlite3/);

      // The lock is gone: served again; the refused request was not counted, the three before it were.
      const again = await h.call(key, '/api/v1/languages');
      assert.equal(again.statusCode, 200);
      assert.equal(remaining(again), 100 - 4);
      const keys = await h.services.keys.list();
      assert.equal(keys.length, 1, 'the key refused under the lock was not created');
      assert.equal((await h.services.keys.create({ tier: 'academic', offer: 'full' })).ok, true);
    } finally {
      await h.close();
    }
  });
});

describe('PostgreSQL unreachable', { skip: skipUnless('PostgreSQL', postgresUp) }, () => {
  it('answers 503 with Retry-After while the database is cut off, reports degraded, and recovers when it returns', async () => {
    const db = await freshPostgresDatabase();
    const target = new URL(db.url);
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const proxied = new URL(db.url);
    proxied.host = `127.0.0.1:${proxy.port}`;
    const h = await harness({ flags: { databaseUrl: proxied.toString(), databasePoolSize: 2 } });
    const leaks = [String(proxy.port), new URL(POSTGRES_ADMIN_URL).port || '5432', '127.0.0.1', target.pathname.slice(1), 'postgres://'];
    const assertNoLeak = (body: string) => assertNothingInternal(body, leaks);
    try {
      const { key } = await h.issue('evaluation', 'evaluation');
      for (let i = 0; i < 3; i++) assert.equal((await h.call(key, '/api/v1/languages')).statusCode, 200);
      const healthy = (await h.call(undefined, '/api/os/status')).json() as { service: { status: string } };
      assert.equal(healthy.service.status, 'ok');

      await proxy.cut();

      const refused = await h.call(key, '/api/v1/languages');
      assert.equal(refused.statusCode, 503);
      assert.equal(problemOf(refused).code, 'service_unavailable');
      assert.equal(refused.headers['retry-after'], '2');
      assertNoLeak(refused.body);

      const ready = await h.call(undefined, '/readyz');
      assert.equal(ready.statusCode, 503);
      assertNoLeak(ready.body);
      const status = await h.call(undefined, '/api/os/status');
      assert.equal(status.statusCode, 200);
      const degraded = status.json() as { service: { status: string }; storage: { database: { kind: string; healthy: boolean } } };
      assert.equal(degraded.service.status, 'degraded');
      assert.deepEqual(degraded.storage.database, { kind: 'postgres', healthy: false });
      assertNoLeak(status.body);
      assert.equal((await h.call(undefined, '/healthz')).statusCode, 200, 'the process itself is alive');

      await proxy.restore();

      const again = await h.call(key, '/api/v1/languages');
      assert.equal(again.statusCode, 200, again.body);
      assert.equal(remaining(again), 100 - 4, 'the three counts committed before the outage are kept');
      assert.equal((await h.call(undefined, '/readyz')).statusCode, 200);
      assert.equal(((await h.call(undefined, '/api/os/status')).json() as { service: { status: string } }).service.status, 'ok');
    } finally {
      await h.close();
      await proxy.close();
      await db.drop();
    }
  });
});
