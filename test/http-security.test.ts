// Pins who gets in: 401 with WWW-Authenticate for every kind of bad credential, revocation and rotation seen at once, nothing secret leaked.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { DAY_MS } from '../src/access/plans.js';
import { harness, problemOf, type Harness } from './helpers.js';

describe('authentication', () => {
  let h: Harness;
  let key: string;
  before(async () => {
    h = await harness({ start: '2026-05-01T08:00:00.000Z' });
    key = (await h.issue('startup')).key;
  });
  after(() => h.close());

  async function refused(authorization: string | undefined, code: string) {
    const headers = authorization === undefined ? {} : { authorization };
    const res = await h.app.inject({ method: 'GET', url: '/api/v1/languages', headers });
    assert.equal(res.statusCode, 401, `${JSON.stringify(authorization)} should be refused`);
    assert.equal(problemOf(res).code, code, JSON.stringify(authorization));
    assert.match(String(res.headers['www-authenticate']), /^Bearer realm="lugha"/);
    assert.equal(res.headers.ratelimit, undefined, 'a refused request is not metered');
    return res;
  }

  it('refuses a request without a key', async () => {
    const res = await refused(undefined, 'key_missing');
    assert.equal(res.headers['www-authenticate'], 'Bearer realm="lugha"');
    await refused('', 'key_missing');
  });

  it('refuses malformed Authorization headers', async () => {
    const shaped = key.slice(6);
    for (const header of [
      `Basic ${Buffer.from(`u:${key}`).toString('base64')}`,
      'Bearer',
      'Bearer ',
      `Token ${key}`,
      `Bearer ${key} extra`,
      `Bearer ${shaped}`,
      `Bearer ${key}x`,
      `Bearer lugha_${'!'.repeat(43)}`,
      `${key}`,
    ]) {
      const res = await refused(header, 'key_malformed');
      assert.match(String(res.headers['www-authenticate']), /error="invalid_token"/);
    }
  });

  it('accepts the scheme in any case, as RFC 9110 says', async () => {
    assert.equal((await h.app.inject({ url: '/api/v1/languages', headers: { authorization: `bearer ${key}` } })).statusCode, 200);
  });

  it('refuses a well-formed key nobody issued', async () => {
    await refused(`Bearer lugha_${'A'.repeat(43)}`, 'key_unknown');
  });

  it('refuses a revoked key on the very next request', async () => {
    const issued = await h.issue('academic');
    assert.equal((await h.call(issued.key, '/api/v1/languages')).statusCode, 200);
    await h.services.keys.revoke(issued.id);
    await refused(`Bearer ${issued.key}`, 'key_revoked');
  });

  it('honours a rotated key inside its grace period and refuses it after', async () => {
    const issued = await h.issue('academic');
    const rotated = await h.services.keys.rotate(issued.id, 60_000);
    assert.ok(rotated.ok);
    assert.equal((await h.call(issued.key, '/api/v1/languages')).statusCode, 200);
    h.clock.advance(59_000);
    assert.equal((await h.call(issued.key, '/api/v1/languages')).statusCode, 200);
    h.clock.advance(1_000);
    await refused(`Bearer ${issued.key}`, 'key_rotated');
    assert.equal((await h.call(rotated.value.key, '/api/v1/languages')).statusCode, 200);
  });

  it('refuses a pilot key once its 75 days are over', async () => {
    const pilot = await h.issue('startup', 'pilot', ['swh', 'zul', 'lug']);
    h.clock.advance(75 * DAY_MS - 1_000);
    assert.equal((await h.call(pilot.key, '/api/v1/languages')).statusCode, 200);
    h.clock.advance(1_000);
    const res = await refused(`Bearer ${pilot.key}`, 'key_expired');
    assert.match(String(problemOf(res).detail), /expired at/);
  });

  it('keeps public routes public', async () => {
    for (const url of ['/healthz', '/readyz', '/openapi.json', '/problems/key-missing']) {
      assert.equal((await h.app.inject({ url })).statusCode, 200, url);
    }
  });
});

describe('leaks', () => {
  it('never logs the key, and never shows the data directory in a response', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const h = await harness();
    try {
      const { buildApp } = await import('../src/http/app.js');
      const app = await buildApp(h.services, { logger: { level: 'trace', stream: sink } });
      const key = (await h.issue('startup')).key;
      const responses = await Promise.all([
        app.inject({ url: '/api/v1/languages', headers: { authorization: `Bearer ${key}` } }),
        app.inject({ url: '/api/v1/languages?x=1', headers: { authorization: `Bearer ${key}` } }),
        // A key sent where no header redaction sees it: a query string (any parameter name) and a path.
        app.inject({ url: `/api/v1/languages?api_key=${key}` }),
        app.inject({ url: `/api/v1/languages?q=${key}&token=s3cr3t-token-value` }),
        app.inject({ url: `/api/audio/audio/${key}` }),
        app.inject({ url: '/readyz' }),
        app.inject({ url: '/nope' }),
      ]);
      await app.close();
      const logged = lines.join('');
      assert.ok(logged.includes('"url":"/api/v1/languages"'), 'requests are logged');
      assert.equal(logged.includes(key.slice(6)), false, 'the key must not reach the logs');
      assert.equal(logged.includes('s3cr3t-token-value'), false, 'a credential parameter must not reach the logs');
      assert.ok(logged.includes('api_key=[redacted]'), 'the redacted URL is still logged');
      for (const res of responses) assert.equal(res.body.includes(h.dataDir), false);
    } finally {
      await h.close();
    }
  });
});
