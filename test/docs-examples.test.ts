// Runs the curl examples of README.md and docs/api.md against the service and checks that each documented answer still has the documented status, members, values and counts.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { ensureDemoCorpus } from '../src/audio/demo-corpus.js';
import type { Offer, Tier } from '../src/access/plans.js';
import { packageRoot } from '../src/config.js';
import { ensureDemoKeys } from '../src/demo.js';
import { harness, type Harness } from './helpers.js';

interface Block {
  lang: string;
  text: string;
  line: number;
}

/** The fenced code blocks of a markdown file, in order. */
function codeBlocks(file: string): Block[] {
  const lines = readFileSync(path.join(packageRoot, file), 'utf8').split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^\s*```(\w*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^\s*```\s*$/.test(lines[i]!); i++) body.push(lines[i]!);
    blocks.push({ lang: open[1]!, text: body.join('\n'), line: start + 1 });
  }
  return blocks;
}

interface Example {
  where: string;
  method: 'GET' | 'POST';
  url: string;
  body?: unknown;
  /** The documented answer (JSON, possibly abridged, possibly after HTTP headers), if the docs show one. */
  answer?: string;
}

/** Each `curl` line of a sh block, with the answer shown in the block right after it (only for the block's last curl). */
function curlExamples(file: string, apiBase: string): Example[] {
  const blocks = codeBlocks(file);
  const examples: Example[] = [];
  blocks.forEach((block, b) => {
    if (block.lang !== 'sh') return;
    const curls = block.text
      .replace(/\\\n\s*/g, ' ')
      .split('\n')
      .filter((l) => /^curl\s/.test(l.trim()));
    const next = blocks[b + 1];
    const answer = next && (next.lang === 'json' || (next.lang === '' && /^HTTP\/1\.1 /.test(next.text))) ? next.text : undefined;
    curls.forEach((line, c) => {
      const quoted = /"((?:\$API|https?:\/\/)[^"]+)"/.exec(line) ?? /\s(https?:\/\/\S+)/.exec(line);
      assert.ok(quoted, `${file}:${block.line}: a curl example without a URL: ${line}`);
      const url = new URL(quoted[1]!.replace('$API', apiBase));
      // A body read from a file the docs do not show (--data-binary @file) cannot be replayed; a -d '...' JSON body is sent as documented.
      if (/--data-binary\s+@/.test(line)) return;
      const data = /\s-d\s+'([^']*)'/.exec(line);
      const request = data ? { method: 'POST' as const, body: JSON.parse(data[1]!) as unknown } : { method: 'GET' as const };
      examples.push({ where: `${file}:${block.line}`, ...request, url: url.pathname + url.search, answer: c === curls.length - 1 ? answer : undefined });
    });
  });
  return examples;
}

const VOLATILE = new Set(['request_id', 'key_id', 'expires_at', 'remaining', 'reset_seconds', 'recording_id', 'url']);

/** Every value stored under `key` anywhere in `value`. */
function valuesOf(value: unknown, key: string, out: unknown[] = []): unknown[] {
  if (Array.isArray(value)) for (const v of value) valuesOf(v, key, out);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === key) out.push(v);
      valuesOf(v, key, out);
    }
  }
  return out;
}

/**
 * Checks an actual JSON answer against a documented one that may be abridged (`...`, `…`):
 * the status, every member the docs name (it exists somewhere in the answer), every scalar and
 * every complete list of strings the docs show (the answer holds that value under that member
 * somewhere), and `meta` exactly (the counts).
 */
function assertMatchesDocumented(where: string, documented: string, response: LightMyRequestResponse): void {
  const body = response.json() as Record<string, unknown>;
  const text = documented.slice(documented.indexOf('{'));
  const status = /^\{\s*"type":[^\n]*"status":(\d{3})/.exec(text) ?? /^\{"type".*?"status":(\d{3})/s.exec(text);
  assert.equal(response.statusCode, status ? Number(status[1]) : 200, `${where}: status (${response.body.slice(0, 300)})`);
  for (const [, key] of text.matchAll(/"([A-Za-z_][A-Za-z0-9_]*)":/g)) {
    assert.ok(valuesOf(body, key!).length > 0 || key === 'status', `${where}: the documented member "${key}" is not in the answer`);
  }
  for (const [, key, raw] of text.matchAll(/"([A-Za-z_][A-Za-z0-9_]*)":("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?|true|false|null)(?=\s*[,}\]])/g)) {
    if (VOLATILE.has(key!) || raw!.includes('…') || raw!.includes('...')) continue;
    const expected = JSON.parse(raw!) as unknown;
    const found = valuesOf(body, key!);
    assert.ok(
      found.some((v) => v === expected),
      `${where}: "${key}" is documented as ${raw}; the answer has ${JSON.stringify(found.slice(0, 5))}`,
    );
  }
  for (const [, key, raw] of text.matchAll(/"([A-Za-z_][A-Za-z0-9_]*)":(\[\s*"[^\]]*\])/g)) {
    if (VOLATILE.has(key!) || raw!.includes('…') || raw!.includes('...')) continue;
    const expected = JSON.parse(raw!) as unknown;
    const found = valuesOf(body, key!);
    assert.ok(
      found.some((v) => JSON.stringify(v) === JSON.stringify(expected)),
      `${where}: "${key}" is documented as ${raw}; the answer has ${JSON.stringify(found.slice(0, 3))}`,
    );
  }
  const meta = /"meta":(\{[^}]*\})/.exec(text);
  if (meta) assert.deepEqual(body.meta, JSON.parse(meta[1]!), `${where}: meta (the counts)`);
}

/** The tier and offer an answer documents (`/me`), else the default. */
function planOf(answer: string | undefined, fallback: { tier: Tier; offer: Offer }): { tier: Tier; offer: Offer } {
  const tier = answer && /"tier":"(\w+)"/.exec(answer)?.[1];
  const offer = answer && /"offer":"(\w+)"/.exec(answer)?.[1];
  return tier && offer ? { tier: tier as Tier, offer: offer as Offer } : fallback;
}

describe('the curl examples of README.md', () => {
  let h: Harness;
  let evaluationKey: string;
  before(async () => {
    h = await harness();
    // As `npm start` does: the demo keys and the demo corpus; the README's $KEY is the first demo key.
    evaluationKey = (await ensureDemoKeys(h.services)).keys[0]!.key;
    await ensureDemoCorpus(h.services);
  });
  after(() => h.close());

  it('the first call answers as shown: status, rate-limit headers, members, values and counts', async () => {
    const [first] = curlExamples('README.md', '');
    assert.ok(first?.answer, 'README.md shows the answer of its first call');
    const response = await h.call(evaluationKey, first.url);
    const headers = first.answer.split('\n\n')[0]!;
    assert.equal(`HTTP/1.1 ${response.statusCode} OK`, headers.split('\n')[0]);
    assert.equal(`ratelimit-policy: ${String(response.headers['ratelimit-policy'])}`, /^ratelimit-policy: .*$/m.exec(headers)?.[0]);
    const documentedLeft = /^ratelimit: "daily";r=(\d+);/m.exec(headers)?.[1];
    assert.equal(/r=(\d+)/.exec(String(response.headers.ratelimit))?.[1], documentedLeft, 'requests left after the first call');
    assert.match(headers, new RegExp(`^content-type: ${String(response.headers['content-type']).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
    assertMatchesDocumented(first.where, first.answer, response);
  });

  it('the audio calls answer: public coverage, the dataset card, n clips, and a playable clip', async () => {
    const examples = curlExamples('README.md', '').filter((e) => e.url.startsWith('/api/audio/'));
    assert.equal(examples.length, 4, 'the four audio examples');
    let recordingId = '';
    for (const example of examples) {
      const url = example.url.replace('%3Crecording_id%3E', recordingId).replace('<recording_id>', recordingId);
      const response = await h.call(url.includes('/voices') || url.includes('/dataset-card') ? undefined : evaluationKey, url);
      assert.equal(response.statusCode, 200, `${example.where} ${url}: ${response.body.slice(0, 200)}`);
      if (url.includes('/dataset-card')) assert.match(response.body, /^---\n/, 'a card with YAML front matter');
      if (url.includes('/audio?')) {
        const n = Number(new URL(url, 'http://x').searchParams.get('n'));
        const clips = (response.json() as { data: Array<{ recording_id: string; mode: string }> }).data;
        assert.equal(clips.length, n, `${example.where}: n=${n} clips`);
        assert.ok(clips.every((c) => c.mode === 'bantu_english'));
        recordingId = clips[0]!.recording_id;
      }
      if (url.includes('/audio/audio/')) assert.match(String(response.headers['content-type']), /^audio\//);
    }
  });
});

describe('the curl examples of docs/api.md', () => {
  let h: Harness;
  before(async () => {
    h = await harness();
  });
  after(() => h.close());

  const examples = curlExamples('docs/api.md', 'http://127.0.0.1:8080/api/v1');

  it('finds the examples', () => {
    assert.ok(examples.filter((e) => e.answer).length >= 7, `${examples.length} examples`);
  });

  for (const example of examples) {
    it(`${example.where}: ${example.method} ${example.url}`, async () => {
      const plan = planOf(example.answer, { tier: 'startup', offer: 'full' });
      const { key } = await h.issue(plan.tier, plan.offer);
      const response = await h.call(key, example.method === 'GET' ? example.url : { method: 'POST', url: example.url, payload: example.body as object });
      if (example.answer === undefined) {
        assert.equal(response.statusCode, 200, response.body.slice(0, 300));
        return;
      }
      // A documented fragment (a member of the answer, not the whole document) is checked for its members and values.
      const fragment = !example.answer.trimStart().startsWith('{');
      assertMatchesDocumented(example.where, fragment ? `{${example.answer}}` : example.answer, response);
    });
  }

  it('the batch example: the documented body gives the documented answer, and an Evaluation key is refused with the documented size', async () => {
    const blocks = codeBlocks('docs/api.md');
    const bodyAt = blocks.findIndex((b) => b.lang === 'json' && b.text.startsWith('{"language":"swh",') && b.text.includes('"paradigm"'));
    assert.notEqual(bodyAt, -1, 'docs/api.md shows a batch body');
    const { key } = await h.issue('startup', 'full');
    const batch = await h.call(key, { method: 'POST', url: '/api/v1/batch-generate', payload: JSON.parse(blocks[bodyAt]!.text) as object });
    assertMatchesDocumented(`docs/api.md:${blocks[bodyAt + 1]!.line}`, blocks[bodyAt + 1]!.text, batch);

    const tooLarge = blocks.find((b) => b.text.includes('"code":"batch_too_large"'));
    const requestBlock = blocks[blocks.indexOf(tooLarge!) - 1];
    assert.ok(tooLarge && requestBlock?.text.startsWith('{"language"'), 'docs/api.md shows the request of the 413 example');
    const evaluation = await h.issue('evaluation', 'evaluation');
    const refused = await h.call(evaluation.key, { method: 'POST', url: '/api/v1/batch-generate', payload: JSON.parse(requestBlock!.text) as object });
    assertMatchesDocumented(`docs/api.md:${tooLarge!.line}`, tooLarge!.text, refused);
  });
});
