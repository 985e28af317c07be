// The operator commands of the scale-out work: `lugha doctor` (checks every backend, exit 1 on a
// failure, prints no secret), `lugha migrate`, and `lugha copy` from an embedded data directory
// into PostgreSQL + S3, after which the same keys and clips are served from the new backends.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { after, before, describe, it } from 'node:test';
import { loadConfig, packageRoot } from '../src/config.js';
import { openServices } from '../src/services.js';
import { numeralClips, writeCorpus } from './audio-fixtures.js';
import { freshPostgresDatabase, freshRedisPrefix, postgresUp, redisUp, skipUnless, startS3Server, type FreshDatabase, type FreshRedisPrefix, type S3Server } from './backends.js';
import { tempDir } from './helpers.js';

const bin = path.join(packageRoot, 'bin', 'lugha.js');
const skip = skipUnless('PostgreSQL', postgresUp) ?? skipUnless('Redis', redisUp);
if (!skip && !existsSync(path.join(packageRoot, 'dist', 'cli', 'main.js'))) throw new Error('dist/ is missing: run `npm run build` first (npm test does)');

async function lugha(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { env: { PATH: process.env.PATH, ...env } }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('lugha doctor, migrate and copy', { skip }, () => {
  let db: FreshDatabase;
  let redis: FreshRedisPrefix;
  let s3: S3Server;
  let env: NodeJS.ProcessEnv;
  const dirs: string[] = [];
  const dir = () => {
    const d = tempDir('lugha-ops-');
    dirs.push(d);
    return d;
  };

  before(async () => {
    [db, s3] = await Promise.all([freshPostgresDatabase(), startS3Server()]);
    redis = freshRedisPrefix();
    env = { LUGHA_DATABASE_URL: db.url, LUGHA_REDIS_URL: redis.url, LUGHA_REDIS_PREFIX: redis.prefix, ...s3.env };
  });
  after(async () => {
    await Promise.allSettled([db?.drop(), redis?.clean(), s3?.stop()]);
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('doctor passes on the embedded defaults and on PostgreSQL + Redis + S3, naming no secret', async () => {
    const embedded = await lugha(['doctor', '--data-dir', dir()], {});
    assert.equal(embedded.code, 0, embedded.stderr);
    assert.match(embedded.stdout, /ok\s+store\s+SQLite: answers; schema up to date/);
    assert.match(embedded.stdout, /several instances\s+one instance only/);

    const migrated = await lugha(['migrate', '--data-dir', dir()], env);
    assert.equal(migrated.code, 0, migrated.stderr);
    assert.match(migrated.stdout, /postgres: schema up to date/);

    const scaled = await lugha(['doctor', '--data-dir', dir(), '--json'], env);
    assert.equal(scaled.code, 0, scaled.stderr);
    const checks = JSON.parse(scaled.stdout) as Array<{ check: string; ok: boolean; detail: string }>;
    assert.deepEqual(
      checks.map((c) => [c.check, c.ok]),
      [
        ['configuration', true],
        ['store', true],
        ['quota counter', true],
        ['blob storage', true],
        ['several instances', true],
      ],
    );
    assert.match(checks[1]!.detail, /PostgreSQL: answers; schema up to date/);
    assert.match(checks[4]!.detail, /ready: store, counters and blobs are shared/);
    assert.doesNotMatch(scaled.stdout, new RegExp(`${s3.bucket}|${new URL(s3.endpoint).port}|S3RVER|6379|5432|lugha_test_`));
  });

  it('doctor exits 1 and says which backend failed when PostgreSQL, Redis or the bucket is unreachable, without their addresses', async () => {
    const broken = {
      LUGHA_DATABASE_URL: 'postgres://lugha:hunter2@127.0.0.1:1/lugha',
      LUGHA_REDIS_URL: 'redis://:hunter3@127.0.0.1:1/0',
      ...s3.env,
      LUGHA_S3_BUCKET: 'no-such-lugha-bucket',
    };
    const result = await lugha(['doctor', '--data-dir', dir()], broken);
    assert.equal(result.code, 1);
    assert.match(result.stdout, /FAIL\s+store\s+PostgreSQL: connection refused/);
    assert.match(result.stdout, /FAIL\s+quota counter\s+Redis: connection refused/);
    assert.match(result.stdout, /FAIL\s+blob storage\s+S3: object store check failed: not found/);
    assert.match(result.stderr, /3 check\(s\) failed/);
    assert.doesNotMatch(result.stdout + result.stderr, /hunter2|hunter3|no-such-lugha-bucket|127\.0\.0\.1|S3RVER/);

    const badConfig = await lugha(['doctor', '--data-dir', dir()], { LUGHA_DATABASE_URL: 'mysql://root:hunter2@db/x' });
    assert.equal(badConfig.code, 1);
    assert.match(badConfig.stdout, /FAIL\s+configuration\s+LUGHA_DATABASE_URL \(--database-url\): must be a postgres/);
    assert.doesNotMatch(badConfig.stdout, /hunter2/);
  });

  it('copies an embedded data directory into PostgreSQL + S3, which then serve the same keys and clips; a second copy adds nothing', async () => {
    const source = dir();
    const corpus = dir();
    writeCorpus(corpus, numeralClips('swh', 300), ['swh-s1', 'swh-s2']);
    assert.equal((await lugha(['ingest', corpus, '--data-dir', source], {})).code, 0);
    const created = JSON.parse((await lugha(['keys', 'create', '--tier', 'startup', '--offer', 'full', '--data-dir', source, '--json'], {})).stdout) as { key: string; id: string };
    assert.equal((await lugha(['consent', 'withdraw', '--speaker', 'swh-s2', '--data-dir', source], {})).code, 0);

    const copied = await lugha(['copy', '--from-data-dir', source, '--data-dir', dir(), '--json'], env);
    assert.equal(copied.code, 0, copied.stderr);
    const report = JSON.parse(copied.stdout) as { tables: Array<{ table: string; source: number; copied: number; target: number }>; blobs: { source: number; copied: number } };
    const rows = Object.fromEntries(report.tables.map((t) => [t.table, t]));
    assert.equal(rows.recordings!.source, 20);
    assert.equal(rows.recordings!.target, 20);
    assert.equal(rows.api_keys!.target, 1);
    assert.deepEqual(report.blobs, { source: 20, copied: 20, present: 0 });

    const again = JSON.parse((await lugha(['copy', '--from-data-dir', source, '--data-dir', dir(), '--json'], env)).stdout) as typeof report;
    assert.ok(again.tables.every((t) => t.copied === 0));
    assert.equal(again.blobs.copied, 0);

    // The copied key works on the new backends, consent state came along, and the bytes are the same.
    const services = await openServices(loadConfig({ env: { ...env, LUGHA_DATA_DIR: dir(), LUGHA_LOG_LEVEL: 'silent' } }));
    try {
      assert.equal(services.store.kind, 'postgres');
      const auth = await services.keys.authenticate(`Bearer ${created.key}`);
      assert.ok(auth.ok);
      const listed = await services.audio.list(auth.value, 'swh', { n: 100, page: 1 });
      assert.ok(listed.ok);
      assert.equal(listed.value.meta.total, 10, 'the withdrawn speaker stays withdrawn');
      for (const clip of listed.value.data.slice(0, 3)) {
        const authorized = await services.audio.authorizeClip(auth.value, clip.recording_id);
        assert.ok(authorized.ok);
        const bytes = await buffer(services.blobs.read(authorized.value.sha256));
        assert.equal(createHash('sha256').update(bytes).digest('hex'), authorized.value.sha256);
        const original = readFileSync(path.join(source, 'blobs', authorized.value.sha256.slice(0, 2), authorized.value.sha256));
        assert.deepEqual(bytes, original);
      }
    } finally {
      await services.close();
    }
  });
});
