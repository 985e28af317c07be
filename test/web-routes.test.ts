// Pins the routes behind the try-it page: the page and its files at / and /web/ under the security headers,
// the demo key served only with --demo and only the Evaluation one, and GET /api/v1/me (tier, offer, quota) not metered.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { ensureDemoKeys } from '../src/demo.js';
import { WEB_ROOT } from '../src/http/routes/web.js';
import { harness, problemOf, type Harness } from './helpers.js';

describe('the page and its files', () => {
  let h: Harness;
  before(async () => {
    h = await harness();
  });
  after(() => h.close());

  it('serves the page at / with a self-only CSP that lets it play fetched clips', async () => {
    const res = await h.app.inject({ url: '/' });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assert.match(res.body, /<script type="module" src="\/web\/app.js"><\/script>/);
    assert.equal(res.headers['cache-control'], 'no-cache');
    const csp = String(res.headers['content-security-policy']);
    assert.match(csp, /default-src 'self'/);
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.match(csp, /media-src 'self' blob:/);
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
  });

  it('serves every file of web/ and refers to nothing outside the service', async () => {
    for (const file of readdirSync(WEB_ROOT)) {
      const res = await h.app.inject({ url: `/web/${file}` });
      assert.equal(res.statusCode, 200, file);
      assert.doesNotMatch(res.body, /(src|href)=["']https?:|@import\s+url\(["']?https?:|from ['"]https?:/, `${file} loads nothing from outside`);
    }
    assert.match(String((await h.app.inject({ url: '/web/app.js' })).headers['content-type']), /javascript/);
  });

  it('keeps the problem+json 404 for unknown paths and files', async () => {
    for (const url of ['/web/missing.js', '/web/../package.json', '/nowhere']) {
      const res = await h.app.inject({ url });
      assert.equal(res.statusCode, 404, url);
      assert.equal(problemOf(res).code, 'route_not_found', url);
    }
  });

  it('serves the Glottolog languoids the map places, with their source', async () => {
    const res = await h.app.inject({ url: '/web/narrow-bantu.json' });
    const body = res.json() as { source: string; languoids: Array<{ glottocode: string; lat: number; lon: number }> };
    assert.match(body.source, /Glottolog/);
    assert.ok(body.languoids.length > 500);
    for (const l of body.languoids) assert.ok(Number.isFinite(l.lat) && Number.isFinite(l.lon) && l.glottocode, JSON.stringify(l));
  });

  it('has no demo key route without --demo', async () => {
    assert.equal((await h.app.inject({ url: '/web/config.json' })).json().demo_key, false);
    const res = await h.app.inject({ url: '/web/demo-key' });
    assert.equal(res.statusCode, 404);
    assert.equal(problemOf(res).code, 'route_not_found');
  });
});

describe('the demo key on a --demo install', () => {
  let h: Harness;
  before(async () => {
    h = await harness({ flags: { demo: true } });
  });
  after(() => h.close());

  it('answers 404 until the demo keys exist', async () => {
    assert.equal((await h.app.inject({ url: '/web/config.json' })).json().demo_key, true);
    assert.equal((await h.app.inject({ url: '/web/demo-key' })).statusCode, 404);
  });

  it('serves the Evaluation demo key and no other', async () => {
    const demo = await ensureDemoKeys(h.services);
    const res = await h.app.inject({ url: '/web/demo-key' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['cache-control'], 'no-store', 'no cache keeps the key');
    const body = res.json() as { key: string; tier: string; offer: string };
    assert.equal(body.key, demo.keys.find((k) => k.tier === 'evaluation')!.key);
    for (const other of demo.keys.filter((k) => k.tier !== 'evaluation')) assert.ok(!res.body.includes(other.key), `${other.tier} key not served`);
    const me = (await h.call(body.key, '/api/v1/me')).json().data[0];
    assert.equal(me.tier, 'evaluation');
    assert.equal(me.offer, 'evaluation');
  });

  it('stops serving the demo key once it is revoked', async () => {
    const demo = await ensureDemoKeys(h.services);
    await h.services.keys.revoke(demo.keys.find((k) => k.tier === 'evaluation')!.id);
    assert.equal((await h.app.inject({ url: '/web/demo-key' })).statusCode, 404);
  });
});

describe('GET /api/v1/me', () => {
  let h: Harness;
  before(async () => {
    h = await harness();
  });
  after(() => h.close());

  it('describes the key and its quota without spending a request', async () => {
    const { key, id } = await h.issue('academic', 'pilot', ['swh', 'zul', 'sna']);
    const first = await h.call(key, '/api/v1/me');
    assert.equal(first.statusCode, 200);
    const me = first.json().data[0];
    assert.equal(me.key_id, id);
    assert.equal(me.tier, 'academic');
    assert.equal(me.offer, 'pilot');
    assert.deepEqual(me.languages, ['swh', 'zul', 'sna']);
    assert.equal(me.audio_languages, 'chosen');
    assert.equal(me.sample_capped, true);
    assert.deepEqual(me.limits, { requests_per_day: 500, batch_size: 50, mcp: 'read-only' });
    assert.equal(me.quota.remaining, 500);
    assert.match(String(first.headers.ratelimit), /^"daily";r=500;t=\d+$/);
    assert.equal((await h.call(key, '/api/v1/me')).json().data[0].quota.remaining, 500, 'asking again spends nothing');
    await h.call(key, '/api/v1/languages');
    assert.equal((await h.call(key, '/v1/me')).json().data[0].quota.remaining, 499, 'a metered call does');
    assert.ok(!first.body.includes(key), 'the secret is never echoed');
  });

  it('says unlimited for an enterprise key and carries no RateLimit headers', async () => {
    const { key } = await h.issue('enterprise');
    const res = await h.call(key, '/api/v1/me');
    assert.equal(res.json().data[0].quota.remaining, null);
    assert.equal(res.json().data[0].limits.batch_size, null);
    assert.equal(res.headers.ratelimit, undefined);
  });

  it('refuses a missing or bad key with 401', async () => {
    const missing = await h.call(undefined, '/api/v1/me');
    assert.equal(missing.statusCode, 401);
    assert.equal(problemOf(missing).code, 'key_missing');
    assert.equal(problemOf(await h.call(`lugha_${'A'.repeat(43)}`, '/api/v1/me')).code, 'key_unknown');
  });

  it('is described in the OpenAPI document', async () => {
    const doc = (await h.app.inject({ url: '/openapi.json' })).json();
    assert.ok(doc.paths['/api/v1/me']?.get, 'GET /api/v1/me');
    assert.ok(!doc.paths['/'], 'the page is not an API operation');
  });
});
