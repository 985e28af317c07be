// Pins what a caller with a good key sees: the envelope, paging, rate-limit headers, the /v1 alias, docs and probes.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { harness, tempDir, type Harness } from './helpers.js';

/** Three cartridges with metadata only (no grammar yet), so the listing has something to page through. */
function fixtureLanguages(): string {
  const dir = tempDir('lugha-langs-');
  for (const [iso, name] of [
    ['swh', 'Swahili'],
    ['zul', 'Zulu'],
    ['sna', 'Shona'],
  ]) {
    mkdirSync(path.join(dir, iso!));
    writeFileSync(path.join(dir, iso!, 'cartridge.yaml'), `metadata:\n  iso639_3: ${iso}\n  name: ${name}\n  foundational: ${iso === 'swh'}\n`);
  }
  return dir;
}

describe('linguistic API, happy path', () => {
  let h: Harness;
  let key: string;
  before(async () => {
    h = await harness({ flags: { languagesDir: fixtureLanguages() } });
    key = (await h.issue('evaluation', 'evaluation')).key;
  });
  after(() => h.close());

  it('lists languages in the envelope', async () => {
    const res = await h.call(key, '/api/v1/languages?has_cartridge=true');
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    const body = res.json();
    assert.equal(body.status, 'ok');
    assert.deepEqual(
      body.data.map((l: { iso: string }) => l.iso),
      ['sna', 'swh', 'zul'],
    );
    assert.deepEqual(body.meta, { count: 3, page: 1, per_page: 50, total: 3, pages: 1 });
    assert.equal(body.data.find((l: { iso: string }) => l.iso === 'swh').foundational, true);
  });

  it('lists a cartridge that has only metadata, with no capabilities yet, filling in the Glottolog facts', async () => {
    const zul = (await h.call(key, '/api/v1/languages?q=zul')).json().data.find((l: { iso: string }) => l.iso === 'zul');
    assert.deepEqual(zul, {
      iso: 'zul',
      iso639_1: null,
      name: 'Zulu',
      endonym: null,
      glottocode: 'zulu1248', // the cartridge has none; Glottolog's
      guthrie: 'S.40',
      foundational: false,
      capabilities: [],
      tenses: [],
      subjects: [],
      extensions: [],
      word_classes: [],
      lexicon_size: 0,
      golden_tests: { total: 0, passing: 0 },
      sources: [],
      glottolog_name: null,
      guthrie_group: 'S.40',
      countries: ['BW', 'LS', 'MZ', 'SZ', 'ZA'],
      latitude: zul.latitude,
      longitude: zul.longitude,
      has_cartridge: true,
      coverage: {
        level: 'declared',
        capabilities: { metadata: 'declared', syllables: 'none', noun_classes: 'none', verb_conjugation: 'none', analysis: 'none', numerals: 'none', tone: 'none' },
      },
    });
    assert.equal(typeof zul.latitude, 'number');
  });

  it('pages with page and per_page', async () => {
    const body = (await h.call(key, '/api/v1/languages?has_cartridge=true&page=2&per_page=2')).json();
    assert.deepEqual(
      body.data.map((l: { iso: string }) => l.iso),
      ['zul'],
    );
    assert.deepEqual(body.meta, { count: 1, page: 2, per_page: 2, total: 3, pages: 2 });
  });

  it('serves every /api/v1 route at /v1 too, with the same body', async () => {
    const a = (await h.call(key, '/api/v1/languages')).json();
    const b = (await h.call(key, '/v1/languages')).json();
    assert.deepEqual(a, b);
  });

  it('carries RateLimit headers that count down, and resets in seconds to UTC midnight', async () => {
    const fresh = (await h.issue('academic')).key;
    const first = await h.call(fresh, '/api/v1/languages');
    const second = await h.call(fresh, '/api/v1/languages');
    assert.equal(first.headers['ratelimit-policy'], '"daily";q=500;w=86400');
    assert.equal(first.headers.ratelimit, '"daily";r=499;t=43200'); // clock at 12:00 UTC
    assert.equal(second.headers.ratelimit, '"daily";r=498;t=43200');
  });

  it('sends no RateLimit headers for an unlimited (Enterprise) key', async () => {
    const unlimited = (await h.issue('enterprise')).key;
    const res = await h.call(unlimited, '/api/v1/languages');
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers.ratelimit, undefined);
    assert.equal(res.headers['ratelimit-policy'], undefined);
  });

  it('gives every response a request id, keeping a well-formed one sent by the caller', async () => {
    const own = await h.call(key, { method: 'GET', url: '/api/v1/languages', headers: { 'x-request-id': 'trace-1234abcd' } });
    assert.equal(own.headers['x-request-id'], 'trace-1234abcd');
    const bad = await h.call(key, { method: 'GET', url: '/api/v1/languages', headers: { 'x-request-id': 'x\u00e9<script>' } });
    assert.match(String(bad.headers['x-request-id']), /^[0-9a-f-]{36}$/);
  });

  it('answers probes without a key', async () => {
    assert.deepEqual((await h.call(undefined, '/healthz')).json(), { status: 'ok' });
    const ready = await h.call(undefined, '/readyz');
    assert.equal(ready.statusCode, 200);
    assert.deepEqual(ready.json(), { status: 'ready', store: { kind: 'sqlite', ok: true } });
  });

  it('describes itself in OpenAPI 3.1 with bearer security and problem responses', async () => {
    const doc = (await h.call(undefined, '/openapi.json')).json();
    assert.equal(doc.openapi, '3.1.0');
    const op = doc.paths['/api/v1/languages'].get;
    assert.deepEqual(op.security, [{ bearerAuth: [] }]);
    assert.ok(op.parameters.some((p: { name: string }) => p.name === 'per_page'));
    assert.ok(op.responses['429'].content['application/problem+json']);
    assert.ok(op.responses['200'].content['application/json'].schema.properties.meta);
    assert.equal(doc.paths['/v1/languages'], undefined, 'aliases are described once');
    const page = await h.call(undefined, '/docs');
    const html = page.statusCode === 302 ? await h.call(undefined, String(page.headers.location)) : page;
    assert.equal(html.statusCode, 200);
    assert.match(html.body, /swagger/i);
  });

  it('sends security headers and answers CORS preflights', async () => {
    const res = await h.call(key, '/api/v1/languages');
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.match(String(res.headers['content-security-policy']), /default-src 'self'/);
    const preflight = await h.call(undefined, {
      method: 'OPTIONS',
      url: '/api/v1/languages',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    assert.equal(preflight.statusCode, 204);
    assert.equal(preflight.headers['access-control-allow-origin'], '*');
    assert.match(String(preflight.headers['access-control-allow-headers']), /Authorization/);
    const cors = await h.call(key, { method: 'GET', url: '/api/v1/languages', headers: { origin: 'https://app.example' } });
    assert.match(String(cors.headers['access-control-expose-headers']), /RateLimit/);
  });
});
