// Pins the CORS headers a browser reads, for any origin (`*`) and for a list of origins: on
// answered, refused (401) and unknown (404) requests, and on preflights (OPTIONS), which
// @fastify/cors answers while the app's own hook writes the headers of every other request.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { harness, type Harness } from './helpers.js';

const EXPOSED = 'Accept-Ranges, Content-Range, Content-Length, ETag, RateLimit, RateLimit-Policy, Retry-After, X-Request-Id, WWW-Authenticate, Mcp-Session-Id, Mcp-Protocol-Version';
const ALLOWED = 'Authorization, Content-Type, Range, X-Request-Id, Mcp-Protocol-Version, Mcp-Session-Id, Mcp-Method, Mcp-Name, Last-Event-ID';

/** The CORS headers of a response, and Vary. */
function corsOf(headers: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => name.startsWith('access-control-') || name === 'vary'));
}

describe('CORS, any origin', () => {
  let h: Harness;
  let key: string;
  before(async () => {
    h = await harness();
    key = (await h.issue('startup')).key;
  });
  after(() => h.close());

  it('lets any origin read answers, refusals and unknown paths, with the exposed headers', async () => {
    const expected = { 'access-control-allow-origin': '*', 'access-control-expose-headers': EXPOSED };
    for (const [caller, url, status] of [
      [key, '/api/v1/conjugate?language=swh&root=penda&subject=1sg&tense=present', 200],
      [undefined, '/api/v1/conjugate?language=swh&root=penda&subject=1sg&tense=present', 401],
      [key, '/api/v1/nothing-here', 404],
      [undefined, '/healthz', 200],
    ] as const) {
      for (const origin of ['https://app.example', undefined]) {
        const res = await h.call(caller, { method: 'GET', url, headers: origin ? { origin } : {} });
        assert.equal(res.statusCode, status, `${url}: ${res.body}`);
        assert.deepEqual(corsOf(res.headers), expected, `${url} from ${origin ?? 'no origin'}`);
      }
    }
  });

  it('answers a preflight with the methods and headers a script may use, and an OPTIONS without Origin with 204', async () => {
    const preflight = await h.call(undefined, {
      method: 'OPTIONS',
      url: '/api/v1/conjugate',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
    });
    assert.equal(preflight.statusCode, 204);
    assert.deepEqual(corsOf(preflight.headers), {
      'access-control-allow-origin': '*',
      'access-control-expose-headers': EXPOSED,
      'access-control-allow-methods': 'GET, HEAD, POST, OPTIONS',
      'access-control-allow-headers': ALLOWED,
      'access-control-max-age': '600',
    });
    assert.equal(preflight.headers['x-content-type-options'], 'nosniff');
    const bare = await h.call(undefined, { method: 'OPTIONS', url: '/api/v1/languages' });
    assert.equal(bare.statusCode, 204);
  });
});

describe('CORS, listed origins', () => {
  let h: Harness;
  let key: string;
  before(async () => {
    h = await harness({ flags: { corsOrigins: 'https://app.example, https://other.example' } });
    key = (await h.issue('startup')).key;
  });
  after(() => h.close());

  it('names a listed Origin back, never an unlisted one, and varies on Origin', async () => {
    for (const [caller, url] of [
      [key, '/api/v1/conjugate?language=swh&root=penda&subject=1sg&tense=present'],
      [undefined, '/api/v1/conjugate?language=swh&root=penda&subject=1sg&tense=present'],
      [undefined, '/healthz'],
    ] as const) {
      const listed = await h.call(caller, { method: 'GET', url, headers: { origin: 'https://other.example' } });
      assert.deepEqual(corsOf(listed.headers), { vary: 'Origin', 'access-control-allow-origin': 'https://other.example', 'access-control-expose-headers': EXPOSED }, url);
      const unlisted = await h.call(caller, { method: 'GET', url, headers: { origin: 'https://evil.example' } });
      assert.deepEqual(corsOf(unlisted.headers), { vary: 'Origin', 'access-control-expose-headers': EXPOSED }, url);
      const none = await h.call(caller, url);
      assert.deepEqual(corsOf(none.headers), { vary: 'Origin', 'access-control-expose-headers': EXPOSED }, url);
    }
  });

  it('keeps Vary: Origin on an answer with an ETag, which also varies on Authorization', async () => {
    for (const url of ['/api/v1/languages', '/openapi.json']) {
      const listed = await h.call(key, { method: 'GET', url, headers: { origin: 'https://other.example' } });
      assert.equal(listed.statusCode, 200, url);
      assert.ok(listed.headers.etag, url);
      assert.deepEqual(corsOf(listed.headers), { vary: 'Origin, Authorization', 'access-control-allow-origin': 'https://other.example', 'access-control-expose-headers': EXPOSED }, url);
      const unlisted = await h.call(key, { method: 'GET', url, headers: { origin: 'https://evil.example', 'if-none-match': String(listed.headers.etag) } });
      assert.equal(unlisted.statusCode, 304, url);
      assert.deepEqual(corsOf(unlisted.headers), { vary: 'Origin, Authorization', 'access-control-expose-headers': EXPOSED }, url);
    }
  });

  it('answers a preflight from a listed origin with that origin, and from an unlisted one without it', async () => {
    const ask = (origin: string) => h.call(undefined, { method: 'OPTIONS', url: '/api/v1/conjugate', headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' } });
    const listed = await ask('https://app.example');
    assert.equal(listed.statusCode, 204);
    assert.equal(listed.headers['access-control-allow-origin'], 'https://app.example');
    assert.equal(listed.headers.vary, 'Origin');
    assert.equal(listed.headers['access-control-allow-methods'], 'GET, HEAD, POST, OPTIONS');
    const unlisted = await ask('https://evil.example');
    assert.equal(unlisted.headers['access-control-allow-origin'], undefined);
  });
});
