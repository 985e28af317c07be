// Three `lugha serve` processes on one PostgreSQL + Redis + S3 (s3rver): the daily quota is exact
// under 1,000 concurrent requests spread over the instances; a key revoked through the CLI and
// consent withdrawn through the CLI take effect on every instance on the next request; an instance
// killed with SIGKILL mid-stream leaves the others serving and loses nothing already committed.
import assert from 'node:assert/strict';
import { execFile, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { packageRoot } from '../src/config.js';
import { numeralClips, tone, writeCorpus, type ClipSpec } from './audio-fixtures.js';
import { freshPostgresDatabase, freshRedisPrefix, postgresUp, redisUp, skipUnless, startS3Server, type FreshDatabase, type FreshRedisPrefix, type S3Server } from './backends.js';
import { startServe } from './faults-support.js';
import { assertNothingInternal, tempDir } from './helpers.js';

const run = promisify(execFile);
const bin = path.join(packageRoot, 'bin', 'lugha.js');
const skip = skipUnless('PostgreSQL', postgresUp) ?? skipUnless('Redis', redisUp);
if (!skip && !existsSync(path.join(packageRoot, 'dist', 'cli', 'main.js'))) throw new Error('dist/ is missing: run `npm run build` first (npm test does)');

interface Instance {
  child: ChildProcess;
  origin: string;
}

describe('several instances on PostgreSQL + Redis + S3', { skip }, () => {
  let db: FreshDatabase;
  let redis: FreshRedisPrefix;
  let s3: S3Server;
  let env: NodeJS.ProcessEnv;
  const dirs: string[] = [];
  const instances: Instance[] = [];
  let bigClip: { wav: Buffer; sha: string };

  const lugha = async (...args: string[]) => {
    const dataDir = tempDir('lugha-scale-cli-');
    dirs.push(dataDir);
    const { stdout } = await run(process.execPath, [bin, ...args, '--data-dir', dataDir], { env, maxBuffer: 16 * 1024 * 1024 });
    return stdout;
  };
  const createKey = async (tier: string) => JSON.parse(await lugha('keys', 'create', '--tier', tier, '--offer', 'full', '--json')) as { key: string; id: string };
  const usedToday = async (id: string) => (JSON.parse(await lugha('keys', 'list', '--json')) as Array<{ id: string; used_today: number }>).find((k) => k.id === id)!.used_today;

  async function startInstance(): Promise<Instance> {
    const dataDir = tempDir('lugha-scale-instance-');
    dirs.push(dataDir);
    const { child, origin } = await startServe(['--data-dir', dataDir], env);
    return { child, origin };
  }

  before(async () => {
    [db, s3] = await Promise.all([freshPostgresDatabase(), startS3Server()]);
    redis = freshRedisPrefix();
    env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      LUGHA_DATABASE_URL: db.url,
      LUGHA_REDIS_URL: redis.url,
      LUGHA_REDIS_PREFIX: redis.prefix,
      // No background analyzer warm-up: seconds of CPU per language, three instances at once on a
      // small machine, would measure the warm-up instead of the backends.
      LUGHA_WARM_ANALYZERS: 'false',
      ...s3.env,
    };
    // A corpus: two speakers with ten clips per mode, and one long clip (10 minutes) that takes a
    // while to stream, so an instance can be killed in the middle of it.
    const corpusDir = tempDir('lugha-scale-corpus-');
    dirs.push(corpusDir);
    const big: ClipSpec = { file: 'big.wav', language: 'swh', mode: 'bantu_only', numeral: 100, transcript: 'mia', speaker: 'swh-long', wav: tone(600_000, 220) };
    bigClip = { wav: big.wav, sha: createHash('sha256').update(big.wav).digest('hex') };
    writeCorpus(corpusDir, [...numeralClips('swh', 300), big], ['swh-s1', 'swh-s2', 'swh-long']);
    await lugha('ingest', corpusDir);
    instances.push(...(await Promise.all([startInstance(), startInstance(), startInstance()])));
  });

  after(async () => {
    for (const { child } of instances) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await Promise.all(instances.map(({ child }) => (child.exitCode !== null || child.signalCode !== null ? undefined : new Promise((r) => child.once('exit', r)))));
    await Promise.allSettled([db?.drop(), redis?.clean(), s3?.stop()]);
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  const get = (instance: Instance, url: string, key: string, init: RequestInit = {}) => fetch(`${instance.origin}${url}`, { ...init, headers: { authorization: `Bearer ${key}`, ...(init.headers ?? {}) } });

  it('keeps the daily quota exact under 1,000 concurrent requests spread over three instances', async () => {
    const { key, id } = await createKey('academic'); // 500 requests a day
    const statuses = await Promise.all(
      Array.from({ length: 1000 }, async (_, i) => {
        const response = await get(instances[i % 3]!, '/api/v1/languages', key);
        const body = await response.text();
        return { instance: i % 3, status: response.status, code: response.status === 200 ? '' : (JSON.parse(body) as { code: string }).code };
      }),
    );
    const ok = statuses.filter((s) => s.status === 200);
    const refused = statuses.filter((s) => s.status === 429);
    const histogram = JSON.stringify(statuses.reduce<Record<string, number>>((h, s) => ({ ...h, [`${s.status} ${s.code}`]: (h[`${s.status} ${s.code}`] ?? 0) + 1 }), {}));
    assert.equal(ok.length, 500, histogram);
    assert.equal(refused.length, 500, histogram);
    for (const n of [0, 1, 2])
      assert.ok(
        ok.some((s) => s.instance === n),
        `instance ${n} admitted some requests`,
      );
    assert.equal(await usedToday(id), 500);
    const after = await get(instances[1]!, '/api/v1/languages', key);
    assert.equal(after.status, 429);
    assert.equal(((await after.json()) as { code: string }).code, 'quota_exceeded');
  });

  it('refuses a key revoked through the CLI on every instance on the next request', async () => {
    const { key, id } = await createKey('startup');
    for (const instance of instances) assert.equal((await get(instance, '/api/v1/languages', key)).status, 200);
    await lugha('keys', 'revoke', id);
    for (const instance of instances) {
      const response = await get(instance, '/api/v1/languages', key);
      assert.equal(response.status, 401);
      assert.equal(((await response.json()) as { code: string }).code, 'key_revoked');
    }
  });

  it('answers 410 on every instance for clips whose speaker withdrew consent, on the next request', async () => {
    const { key } = await createKey('startup');
    const list = async (instance: Instance) => ((await (await get(instance, '/api/audio/swh/audio?n=100', key)).json()) as { data: Array<{ recording_id: string; url: string }> }).data;
    const before = await list(instances[0]!);
    assert.equal(before.length, 21);
    for (const instance of instances) {
      const response = await get(instance, before[0]!.url, key, { headers: { range: 'bytes=0-99' } });
      assert.equal(response.status, 206);
      await response.arrayBuffer();
    }
    await lugha('consent', 'withdraw', '--speaker', 'swh-s1');
    const remaining = new Set((await list(instances[2]!)).map((c) => c.recording_id));
    assert.equal(remaining.size, 11, 'the ten clips of swh-s1 are gone from the listing');
    const withdrawn = before.filter((c) => !remaining.has(c.recording_id));
    assert.equal(withdrawn.length, 10);
    for (const clip of withdrawn.slice(0, 3)) {
      for (const instance of instances) {
        const response = await get(instance, clip.url, key);
        assert.equal(response.status, 410);
        const problem = (await response.json()) as { code: string };
        assert.equal(problem.code, 'consent_withdrawn');
        assertNothingInternal(JSON.stringify(problem), [s3.bucket, new URL(s3.endpoint).port, 'swh-s1', 'spk_']);
      }
    }
    const still = before.find((c) => remaining.has(c.recording_id))!;
    for (const instance of instances) assert.equal((await get(instance, still.url, key)).status, 200);
  });

  it('keeps serving from the other instances when one is killed with SIGKILL mid-stream, and loses nothing', async () => {
    const { key, id } = await createKey('startup');
    const clips = ((await (await get(instances[1]!, '/api/audio/swh/audio?n=100', key)).json()) as { data: Array<{ numeral: number; url: string }> }).data;
    const big = clips.find((c) => c.numeral === 100)!;
    const victim = instances[0]!;

    const streaming = await get(victim, big.url, key);
    assert.equal(streaming.status, 200);
    assert.equal(Number(streaming.headers.get('content-length')), bigClip.wav.length);
    const reader = streaming.body!.getReader();
    const first = await reader.read();
    assert.ok(first.value && first.value.length > 0 && first.value.length < bigClip.wav.length, 'the stream has started and is not over');
    const countedBefore = await usedToday(id);

    // Kill it while it streams, with requests to the survivors in flight at the same moment.
    const survivors = [instances[1]!, instances[2]!];
    const during = Promise.all(Array.from({ length: 40 }, (_, i) => get(survivors[i % 2]!, '/api/v1/languages', key).then((r) => r.status)));
    const exited = new Promise((resolve) => victim.child.once('exit', (_code, signal) => resolve(signal)));
    victim.child.kill('SIGKILL');
    assert.equal(await exited, 'SIGKILL');
    let received = first.value.length;
    await assert.rejects(async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        received += value.length;
      }
    }, 'the cut stream ends in an error, not as a complete clip');
    assert.ok(received < bigClip.wav.length);
    assert.deepEqual(new Set(await during), new Set([200]));

    // The survivors serve the same clip whole, byte for byte, and a range of it.
    for (const instance of survivors) {
      const whole = Buffer.from(await (await get(instance, big.url, key)).arrayBuffer());
      assert.equal(createHash('sha256').update(whole).digest('hex'), bigClip.sha);
      const ranged = await get(instance, big.url, key, { headers: { range: `bytes=${received}-${received + 9}` } });
      assert.equal(ranged.status, 206);
      assert.deepEqual(Buffer.from(await ranged.arrayBuffer()), bigClip.wav.subarray(received, received + 10));
    }
    // Nothing committed was lost: every count made before and after the kill is there, and the corpus is whole.
    // 40 requests, two whole reads, and one Range read: a Range request for a clip counts once per key and day.
    assert.equal(await usedToday(id), countedBefore + 40 + 2 + 1);
    const coverage = (await (await fetch(`${survivors[0]!.origin}/api/audio/swh/audio-summary`)).json()) as { clips: number };
    assert.equal(coverage.clips, 11);
  });
});
