// Pins what survives SIGKILL: `lugha ingest` killed while a clip's blob is being written leaves a
// store that opens and passes an integrity check, lists and plays only whole clips (every clip
// reported ingested among them), and a rerun gives exactly the corpus; `lugha serve` on SQLite
// killed under a burst of metered requests has counted every request it answered with 200, and
// serves again on restart; with an unlimited key (counts written in groups) every request answered
// before the last flush window is counted, and SIGTERM writes the rest.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, watch } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, it } from 'node:test';
import { Database as BetterSqlite3 } from '../src/store/sqlite-driver.js';
import { tone, writeCorpus } from './audio-fixtures.js';
import { bin, exited, startServe } from './faults-support.js';
import { harness, tempDir } from './helpers.js';

const run = promisify(execFile);
const sha256 = (bytes: Buffer | Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** `PRAGMA integrity_check` on the data directory's database, read-only. */
function integrity(dataDir: string): string {
  const db = new BetterSqlite3(path.join(dataDir, 'lugha.db'), { readonly: true });
  try {
    return (db.pragma('integrity_check') as Array<{ integrity_check: string }>).map((r) => r.integrity_check).join('\n');
  } finally {
    db.close();
  }
}

describe('SIGKILL during lugha ingest', () => {
  it('leaves only whole clips listed and served, and a rerun gives exactly the corpus', async (t) => {
    const dataDir = tempDir('lugha-faults-kill-data-');
    const dir = tempDir('lugha-faults-kill-corpus-');
    // Clips of about 2 MB, so a blob takes a while to write and the kill lands inside one.
    const clips = Array.from({ length: 24 }, (_, i) => ({
      file: `k${i}.wav`,
      language: 'swh',
      mode: 'bantu_only' as const,
      numeral: i + 1,
      transcript: `k${i + 1}`,
      speaker: 'kill-ingest',
      wav: tone(60_000, 200 + i * 9),
    }));
    writeCorpus(dir, clips, ['kill-ingest']);
    const byTranscript = new Map(clips.map((c) => [c.transcript, sha256(c.wav)]));
    const blobs = path.join(dataDir, 'blobs');
    mkdirSync(blobs, { recursive: true });
    try {
      const child = spawn(process.execPath, [bin, 'ingest', dir, '--data-dir', dataDir], { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      // Killed when a temporary blob file appears after a few clips are in: mid-write of a clip.
      const watcher = watch(blobs, { recursive: true }, (_event, name) => {
        if (String(name).includes('.tmp-') && /\[4\/24\]/.test(stderr) && child.exitCode === null) child.kill('SIGKILL');
      });
      await exited(child);
      watcher.close();
      assert.equal(child.signalCode, 'SIGKILL', `the ingest ran to its end: ${stderr}`);
      const reported = [...stderr.matchAll(/\] (k\d+)\.wav: ingested/g)].map((m) => `k${Number(m[1]!.slice(1)) + 1}`);
      assert.ok(reported.length >= 4 && reported.length < clips.length, stderr);

      const temporary = readdirSync(blobs, { recursive: true }).filter((f) => String(f).includes('.tmp-')).length;
      t.diagnostic(`killed after ${reported.length} clip(s) reported ingested; ${temporary} temporary blob file(s) left`);

      // Before any rerun: the database is sound and the service lists and plays only whole clips.
      assert.equal(integrity(dataDir), 'ok');
      const h = await harness({ flags: { dataDir } });
      try {
        const { key } = await h.issue('startup', 'full');
        const listing = await h.call(key, '/api/audio/swh/audio?n=100');
        assert.equal(listing.statusCode, 200);
        const listed = (listing.json() as { data: Array<{ transcript: string; url: string }> }).data;
        for (const transcript of reported)
          assert.ok(
            listed.some((c) => c.transcript === transcript),
            `${transcript} was reported ingested but is not listed`,
          );
        for (const clip of listed) {
          const played = await h.call(key, clip.url);
          assert.equal(played.statusCode, 200);
          assert.equal(sha256(played.rawPayload), byTranscript.get(clip.transcript), `${clip.transcript} plays whole`);
        }
        assert.equal(listed.length, (await h.services.store.audio.allShas()).size);
      } finally {
        await h.close();
      }

      // The rerun completes: every clip exactly once, nothing refused, nothing temporary left.
      const rerun = await run(process.execPath, [bin, 'ingest', dir, '--data-dir', dataDir, '--json'], { maxBuffer: 8 * 1024 * 1024 });
      const report = JSON.parse(rerun.stdout) as { ingested: number; duplicates: number; refused: unknown[] };
      assert.equal(report.ingested + report.duplicates, clips.length);
      assert.deepEqual(report.refused, []);
      const after = await harness({ flags: { dataDir } });
      try {
        const { key } = await after.issue('startup', 'full');
        const listed = ((await after.call(key, '/api/audio/swh/audio?n=100')).json() as { data: Array<{ transcript: string; url: string }> }).data;
        assert.deepEqual(listed.map((c) => c.transcript).sort(), [...byTranscript.keys()].sort());
        for (const clip of listed) assert.equal(sha256((await after.call(key, clip.url)).rawPayload), byTranscript.get(clip.transcript));
        assert.deepEqual((await after.services.blobs.list()).sort(), [...byTranscript.values()].sort(), 'no orphan blob');
        assert.equal(await after.services.blobs.cleanTemporary(), 0, 'no temporary file left');
      } finally {
        await after.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('SIGKILL of lugha serve (SQLite) under a burst of metered requests', () => {
  it('has counted every request answered 200, passes an integrity check and serves again', async (t) => {
    const dataDir = tempDir('lugha-faults-burst-');
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, LUGHA_WARM_ANALYZERS: 'false', LUGHA_LOG_LEVEL: 'silent' };
    const lugha = async (...args: string[]) => (await run(process.execPath, [bin, ...args, '--data-dir', dataDir], { env })).stdout;
    try {
      const { key, id } = JSON.parse(await lugha('keys', 'create', '--tier', 'startup', '--offer', 'full', '--json')) as { key: string; id: string }; // 5000 a day
      const server = await startServe(['--data-dir', dataDir], env);
      let acknowledged = 0;
      let sent = 0;
      let failed = 0;
      const killAfter = 300;
      // Sixteen callers in a loop until the server is gone; the kill comes while requests are in flight.
      const caller = async () => {
        while (server.child.exitCode === null && server.child.signalCode === null) {
          sent++;
          try {
            const response = await fetch(`${server.origin}/api/v1/languages`, { headers: { authorization: `Bearer ${key}` } });
            await response.arrayBuffer();
            if (response.status !== 200) throw new Error(`unexpected ${response.status}`);
            acknowledged++;
            if (acknowledged === killAfter) server.child.kill('SIGKILL');
          } catch (error) {
            if (/unexpected/.test(String(error))) throw error;
            failed++; // the connection died with the process: not acknowledged
          }
        }
      };
      await Promise.all(Array.from({ length: 16 }, caller));
      await exited(server.child);
      assert.equal(server.child.signalCode, 'SIGKILL');
      assert.ok(acknowledged >= killAfter);

      assert.equal(integrity(dataDir), 'ok');
      const used = (JSON.parse(await lugha('keys', 'list', '--json')) as Array<{ id: string; used_today: number }>).find((k) => k.id === id)!.used_today;
      t.diagnostic(`sent ${sent}, answered 200 ${acknowledged}, connection lost ${failed}, counted ${used}`);
      assert.ok(used >= acknowledged, `${used} counted, ${acknowledged} answered 200: an acknowledged request was lost`);
      assert.ok(used <= sent, `${used} counted but only ${sent} sent`);

      const restarted = await startServe(['--data-dir', dataDir], env);
      try {
        const response = await fetch(`${restarted.origin}/api/v1/languages`, { headers: { authorization: `Bearer ${key}` } });
        assert.equal(response.status, 200);
        await response.arrayBuffer();
        assert.match(String(response.headers.get('ratelimit')), new RegExp(`;r=${5000 - used - 1};`), 'the count carries on from what was committed');
      } finally {
        restarted.child.kill('SIGTERM');
        await exited(restarted.child);
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('SIGKILL of lugha serve (SQLite) with an unlimited key: the group-commit window', () => {
  it('has counted every request answered before the last LUGHA_QUOTA_FLUSH_MS, and loses at most the last window', async (t) => {
    const dataDir = tempDir('lugha-faults-window-');
    const flushMs = 250; // the documented default, set explicitly
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, LUGHA_WARM_ANALYZERS: 'false', LUGHA_LOG_LEVEL: 'silent', LUGHA_QUOTA_FLUSH_MS: String(flushMs) };
    const lugha = async (...args: string[]) => (await run(process.execPath, [bin, ...args, '--data-dir', dataDir], { env })).stdout;
    try {
      const { key, id } = JSON.parse(await lugha('keys', 'create', '--tier', 'enterprise', '--offer', 'full', '--json')) as { key: string; id: string };
      const server = await startServe(['--data-dir', dataDir], env);
      const burst = async (n: number) => {
        let answered = 0;
        await Promise.all(
          Array.from({ length: 8 }, async () => {
            while (answered < n) {
              answered++;
              const response = await fetch(`${server.origin}/api/v1/languages?per_page=1`, { headers: { authorization: `Bearer ${key}` } });
              await response.arrayBuffer();
              assert.equal(response.status, 200);
            }
          }),
        );
        return answered;
      };
      const settled = await burst(400);
      // More than a window passes: these 400 must be on disk whatever happens next.
      await new Promise((resolve) => setTimeout(resolve, flushMs * 4));
      const late = await burst(100); // answered within the last window before the kill
      server.child.kill('SIGKILL');
      await exited(server.child);
      assert.equal(server.child.signalCode, 'SIGKILL');

      const used = (JSON.parse(await lugha('keys', 'list', '--json')) as Array<{ id: string; used_today: number }>).find((k) => k.id === id)!.used_today;
      t.diagnostic(`answered ${settled} then ${late} just before SIGKILL; counted ${used}`);
      assert.ok(used >= settled, `${used} counted: a request answered more than a window before the kill was lost`);
      assert.ok(used <= settled + late, `${used} counted but only ${settled + late} answered`);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('writes every pending count on SIGTERM', async () => {
    const dataDir = tempDir('lugha-faults-term-');
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, LUGHA_WARM_ANALYZERS: 'false', LUGHA_LOG_LEVEL: 'silent', LUGHA_QUOTA_FLUSH_MS: '10000' };
    const lugha = async (...args: string[]) => (await run(process.execPath, [bin, ...args, '--data-dir', dataDir], { env })).stdout;
    try {
      const { key, id } = JSON.parse(await lugha('keys', 'create', '--tier', 'enterprise', '--offer', 'full', '--json')) as { key: string; id: string };
      const server = await startServe(['--data-dir', dataDir], env);
      for (let i = 0; i < 25; i++) {
        const response = await fetch(`${server.origin}/api/v1/languages?per_page=1`, { headers: { authorization: `Bearer ${key}` } });
        await response.arrayBuffer();
        assert.equal(response.status, 200);
      }
      server.child.kill('SIGTERM');
      await exited(server.child);
      const used = (JSON.parse(await lugha('keys', 'list', '--json')) as Array<{ id: string; used_today: number }>).find((k) => k.id === id)!.used_today;
      assert.equal(used, 25);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
