// Pins the audio API: public coverage/manifest/card, offer and plan gating, the capped sample, withdrawal (410, live counts), expiry, Range/ETag on the proxy, and that no speaker id, path, blob name or checksum leaks anywhere.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { ingest } from '../src/audio/ingest.js';
import { harness, problemOf, tempDir, type Harness } from './helpers.js';
import { numeralClips, writeCorpus } from './audio-fixtures.js';

const A = '/api/audio';
const CAP = 3;

describe('audio API', () => {
  let h: Harness;
  let full: string;
  let evaluation: string;
  let pilot: string;
  const corpusDirs: string[] = [];
  const seen: LightMyRequestResponse[] = [];
  const call = async (key: string | undefined, url: string, headers: Record<string, string> = {}) => {
    const r = await h.call(key, { method: 'GET', url, headers });
    seen.push(r);
    return r;
  };

  before(async () => {
    h = await harness({ flags: { sampleCap: CAP } });
    for (const [lang, base] of [
      ['swh', 200],
      ['zul', 300],
      ['xho', 400],
    ] as const) {
      const dir = tempDir('lugha-corpus-');
      corpusDirs.push(dir);
      writeCorpus(dir, numeralClips(lang, base), [`${lang}-s1`, `${lang}-s2`]);
      const report = await ingest(dir, h.services);
      assert.equal(report.ingested, 20, JSON.stringify(report.refused));
    }
    full = (await h.issue('startup', 'full')).key;
    evaluation = (await h.issue('evaluation', 'evaluation')).key;
    pilot = (await h.issue('academic', 'pilot', ['swh', 'zul', 'sna'])).key;
  });
  after(() => h.close());

  it('lists coverage publicly, without a key', async () => {
    const voices = await call(undefined, `${A}/voices`);
    assert.equal(voices.statusCode, 200);
    const body = voices.json();
    assert.equal(body.tier, 'public');
    assert.deepEqual(
      body.languages.map((l: { language: string }) => l.language),
      ['swh', 'xho', 'zul'],
    );
    assert.equal(body.languages[0].clips, 20);
    assert.equal(body.languages[0].modes.bantu_english.clips, 10);
    const withKey = (await call(evaluation, `${A}/voices`)).json();
    assert.equal(withKey.tier, 'evaluation');
    assert.deepEqual(
      withKey.languages.map((l: { playable: boolean }) => l.playable),
      [true, false, true],
    );
    const summary = (await call(undefined, `${A}/sw/audio-summary`)).json();
    assert.equal(summary.language, 'swh');
    assert.equal(summary.speakers, 2);
    assert.equal(summary.modes.bantu_only.speakers, 2);
    const none = await call(undefined, `${A}/sna/audio-summary`);
    assert.equal(none.json().clips, 0);
    assert.equal(problemOf(await call(undefined, `${A}/xyz/audio-summary`)).code, 'language_not_found');
  });

  it('serves the consent manifest and a Hugging Face dataset card (markdown, or JSON by Accept)', async () => {
    const manifest = (await call(undefined, `${A}/zul/consent-manifest`)).json();
    assert.equal(manifest.consent_records.length, 1);
    assert.equal(manifest.consent_records[0].speakers, 2);
    assert.deepEqual(manifest.consent_records[0].scopes, ['research', 'commercial-training']);
    assert.match(manifest.withdrawal_policy, /next request/);
    const md = await call(undefined, `${A}/zul/dataset-card`);
    assert.match(String(md.headers['content-type']), /^text\/markdown/);
    assert.match(md.body, /^---\n[\s\S]*language:\n {2}- zul\n[\s\S]*task_categories:[\s\S]*size_categories:[\s\S]*configs:[\s\S]*dataset_info:[\s\S]*\n---\n\n# /);
    const json = (await call(undefined, `${A}/zul/dataset-card`, { accept: 'application/json' })).json();
    assert.equal(json.metadata.dataset_info.splits[0].num_examples, 20);
  });

  it('caps evaluation and pilot lists to a fixed sample and refuses clips outside it', async () => {
    const capped = await call(evaluation, `${A}/swh/audio?n=100`);
    assert.equal(capped.statusCode, 200);
    assert.equal(capped.json().meta.total, 2 * CAP);
    assert.ok(capped.headers.ratelimit, 'metered');
    const again = (await call(pilot, `${A}/swh/audio?n=100`)).json();
    assert.deepEqual(
      again.data.map((c: { recording_id: string }) => c.recording_id).sort(),
      capped
        .json()
        .data.map((c: { recording_id: string }) => c.recording_id)
        .sort(),
    );
    const all = (await call(full, `${A}/swh/audio?n=100`)).json();
    assert.equal(all.meta.total, 20);
    const sample = new Set(capped.json().data.map((c: { recording_id: string }) => c.recording_id));
    const outside = all.data.find((c: { recording_id: string }) => !sample.has(c.recording_id));
    const inside = all.data.find((c: { recording_id: string }) => sample.has(c.recording_id));
    assert.equal(problemOf(await call(evaluation, outside.url)).code, 'not_in_tier');
    assert.equal((await call(evaluation, outside.url)).statusCode, 403);
    assert.equal((await call(evaluation, inside.url)).statusCode, 200);
    assert.equal((await call(full, outside.url)).statusCode, 200);
    const english = (await call(full, `${A}/swh/audio?mode=bantu_english&n=2&page=2`)).json();
    assert.equal(english.data.length, 2);
    assert.ok(english.data.every((c: { mode: string; switch_ms: number }) => c.mode === 'bantu_english' && c.switch_ms === 500));
    assert.equal(problemOf(await call(full, `${A}/swh/audio?n=101`)).code, 'invalid_parameter');
    assert.equal(problemOf(await call(full, `${A}/swh/audio?mode=english`)).code, 'invalid_parameter');
    assert.equal(problemOf(await call(undefined, `${A}/swh/audio`)).code, 'key_missing');
    assert.equal(problemOf(await call(full, `${A}/audio/rec_nope`)).code, 'recording_not_found');
  });

  it('refuses languages outside the plan: evaluation beyond the foundational layer, pilot beyond its 3', async () => {
    const evalXho = await call(evaluation, `${A}/xho/audio`);
    assert.equal(evalXho.statusCode, 403);
    assert.equal(problemOf(evalXho).code, 'language_not_in_plan');
    const pilotXho = await call(pilot, `${A}/xho/audio`);
    assert.equal(problemOf(pilotXho).code, 'language_not_in_plan');
    const xhoClip = (await call(full, `${A}/xho/audio?n=1`)).json().data[0];
    assert.equal((await call(pilot, xhoClip.url)).statusCode, 403);
    assert.equal(problemOf(await call(pilot, xhoClip.url)).code, 'language_not_in_plan');
    assert.equal((await call(pilot, `${A}/zul/audio`)).statusCode, 200);
  });

  it('streams with ETag, Range and 416 as HTTP says', async () => {
    const clip = (await call(full, `${A}/zul/audio?n=1&mode=bantu_only`)).json().data[0];
    const original = readFileSync(path.join(corpusDirs[1]!, `zul-only-${clip.numeral}.wav`));
    const size = original.length;
    const whole = await call(full, clip.url);
    assert.equal(whole.statusCode, 200);
    assert.equal(whole.headers['content-type'], 'audio/wav');
    assert.equal(Number(whole.headers['content-length']), size);
    assert.equal(whole.headers['accept-ranges'], 'bytes');
    assert.ok(whole.rawPayload.equals(original));
    const etag = String(whole.headers.etag);
    assert.match(etag, /^"[A-Za-z0-9_-]+"$/);
    assert.equal((await call(full, clip.url, { 'if-none-match': etag })).statusCode, 304);

    const suffix = await call(full, clip.url, { range: 'bytes=-500' });
    assert.equal(suffix.statusCode, 206);
    assert.equal(suffix.headers['content-range'], `bytes ${size - 500}-${size - 1}/${size}`);
    assert.ok(suffix.rawPayload.equals(original.subarray(size - 500)));
    const open = await call(full, clip.url, { range: 'bytes=100-' });
    assert.equal(open.statusCode, 206);
    assert.equal(Number(open.headers['content-length']), size - 100);
    assert.ok(open.rawPayload.equals(original.subarray(100)));
    const middle = await call(full, clip.url, { range: 'bytes=10-19' });
    assert.ok(middle.rawPayload.equals(original.subarray(10, 20)));
    for (const bad of [`bytes=${size}-`, 'bytes=-0', 'bytes=0-1,5-9']) {
      const r = await call(full, clip.url, { range: bad });
      assert.equal(r.statusCode, 416, bad);
      assert.equal(r.headers['content-range'], `bytes */${size}`);
      assert.equal(problemOf(r).code, 'range_not_satisfiable');
    }
    const head = await h.call(full, { method: 'HEAD', url: clip.url, headers: { range: 'bytes=0-9' } });
    assert.equal(head.statusCode, 206);
    assert.equal(head.headers['content-length'], '10');
    assert.equal(head.rawPayload.length, 0);
    const headWhole = await h.call(full, { method: 'HEAD', url: clip.url });
    assert.equal(Number(headWhole.headers['content-length']), size);
    const stale = await call(full, clip.url, { range: 'bytes=0-9', 'if-range': '"other"' });
    assert.equal(stale.statusCode, 200);
  });

  it('withdrawal answers 410 at once and every count follows', async () => {
    const clip = (await call(full, `${A}/xho/audio?n=1&mode=bantu_only`)).json().data[0];
    assert.equal((await call(full, clip.url)).statusCode, 200);
    const before = (await call(undefined, `${A}/xho/audio-summary`)).json().clips;
    const withdrawn = await h.services.store.audio.withdraw('xho-s1', h.clock.now().toISOString());
    assert.equal(withdrawn, 1);
    const listed = (await call(full, `${A}/xho/audio?n=100`)).json().data;
    const speakerOf = (n: number) => (n % 2 ? 's1' : 's2');
    const gone = await call(full, `${A}/audio/${clip.recording_id}`);
    assert.equal(gone.statusCode, speakerOf(clip.numeral) === 's1' ? 410 : 200);
    if (gone.statusCode === 410) assert.equal(problemOf(gone).code, 'consent_withdrawn');
    assert.equal(listed.length, 10);
    const afterSummary = (await call(undefined, `${A}/xho/audio-summary`)).json();
    assert.equal(afterSummary.clips, before - 10);
    assert.equal(afterSummary.speakers, 1);
    const manifest = (await call(undefined, `${A}/xho/consent-manifest`)).json();
    assert.equal(manifest.clips_served, 10);
    assert.deepEqual(manifest.consent_records.map((r: { status: string }) => r.status).sort(), ['active', 'withdrawn']);
    const card = (await call(undefined, `${A}/xho/dataset-card`, { accept: 'application/json' })).json();
    assert.equal(card.metadata.dataset_info.splits[0].num_examples, 10);
    const anyWithdrawn = (await h.services.store.audio.listRecordings({ language: 'xho', limit: 100, offset: 0 })).items;
    assert.ok(anyWithdrawn.every((r) => r.numeral % 2 === 0));
  });

  it('leaks no speaker id, path, blob name or checksum in any header or body', async () => {
    const shas = [...(await h.services.store.audio.allShas())];
    const consents = await h.services.store.audio.listConsents();
    const forbidden = [...shas, ...shas.map((s) => s.slice(0, 16)), ...consents.map((c) => c.speakerId), ...consents.map((c) => c.localId), h.dataDir, ...corpusDirs, '/blobs', 'spk_', '.wav'];
    // Errors too: unknown ids, bad ranges, missing keys.
    await call(undefined, `${A}/audio/rec_x`);
    await call(full, `${A}/audio/..%2F..%2Fetc%2Fpasswd`);
    await call(full, `${A}/audio/${'a'.repeat(64)}`);
    assert.ok(seen.length > 40);
    for (const r of seen) {
      const text = `${JSON.stringify(r.headers)}\n${r.headers['content-type']?.toString().startsWith('audio/') ? '' : r.body}`;
      for (const needle of forbidden) assert.ok(!text.includes(needle), `${needle} leaked in a ${r.statusCode} answer`);
    }
  });

  it('counts Range requests for one clip once per key and UTC day; whole downloads count each time', async () => {
    const { key } = await h.issue('evaluation', 'evaluation');
    const remaining = (r: LightMyRequestResponse) => Number(/r=(\d+)/.exec(String(r.headers.ratelimit))![1]);
    const [a, b] = (await call(key, `${A}/zul/audio?n=2&mode=bantu_only`)).json().data;
    const first = await call(key, a.url, { range: 'bytes=0-99' });
    assert.equal(first.statusCode, 206);
    assert.equal(remaining(first), 98);
    for (const range of ['bytes=100-199', 'bytes=200-', 'bytes=-10']) {
      const again = await call(key, a.url, { range });
      assert.equal(again.statusCode, 206);
      assert.equal(remaining(again), 98, range);
    }
    assert.equal(remaining(await call(key, b.url, { range: 'bytes=0-99' })), 97, 'another clip counts');
    assert.equal(remaining(await call(key, a.url)), 96, 'a whole download counts');
    // After a counted range, headers that end in the whole clip count like a plain download (issue 20).
    let expected = 96;
    for (const headers of [{ range: 'bytes=abc' }, { range: 'bytes=5-2' }, { range: 'items=0-9' }, { range: 'bytes=0-9', 'if-range': '"stale"' }] as Array<Record<string, string>>) {
      const whole = await call(key, a.url, headers);
      assert.equal(whole.statusCode, 200, JSON.stringify(headers));
      assert.ok(whole.rawPayload.length > 1000, 'the whole clip is sent');
      assert.equal(remaining(whole), --expected, `${JSON.stringify(headers)} counts`);
    }
    const ranged = await call(key, a.url, { range: 'bytes=0-9' });
    assert.equal(ranged.statusCode, 206);
    assert.equal(remaining(ranged), expected, 'a honoured range of a counted clip still counts once');
    h.clock.advance(86_400_000);
    assert.equal(remaining(await call(key, a.url, { range: 'bytes=0-99' })), 99, 'a new day counts again');
  });

  it('an expired pilot key gets 401', async () => {
    h.clock.advance(76 * 86_400_000);
    const r = await call(pilot, `${A}/swh/audio`);
    assert.equal(r.statusCode, 401);
    assert.equal(problemOf(r).code, 'key_expired');
    const clip = (await call(full, `${A}/swh/audio?n=1`)).json().data[0];
    assert.equal((await call(pilot, clip.url)).statusCode, 401);
  });
});
