// Pins the error contract: every catalogue code renders as problem+json, is documented, and Fastify's own errors map into it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { errorCatalogue, LughaError, problemType, type ErrorCode } from '../src/errors.js';
import { assertBatchSize, principalOf, protect } from '../src/http/auth.js';
import { readErrorDocs } from '../src/http/routes/problems.js';
import { harness, problemOf, type Harness } from './helpers.js';

const codes = Object.keys(errorCatalogue) as ErrorCode[];

describe('error catalogue', () => {
  it('documents every code in docs/errors.md, and nothing else', () => {
    const docs = readErrorDocs();
    for (const code of codes) {
      assert.ok(docs.get(code), `docs/errors.md has no "## ${code}" section`);
      assert.match(docs.get(code)!, new RegExp(`^${errorCatalogue[code].status}\\.`), `${code}: section should open with its status`);
    }
    assert.deepEqual([...docs.keys()].sort(), [...codes].sort());
  });
});

describe('errors over HTTP', () => {
  let h: Harness;
  let key: string;
  before(async () => {
    // Test-only routes: one that raises any catalogue code, one that takes a body, one that checks batch size.
    h = await harness({
      extraRoutes: async (app, services) => {
        app.post('/test/echo', async (request) => request.body);
        app.get('/test/raise/:code', async (request) => {
          throw new LughaError((request.params as { code: ErrorCode }).code, 'raised by a test');
        });
        await app.register(async (scope) => {
          protect(scope, { keys: services.keys, meter: services.meter });
          scope.get('/test/batch/:size', async (request) => {
            assertBatchSize(principalOf(request), Number((request.params as { size: string }).size));
            return { ok: true };
          });
        });
      },
    });
    key = (await h.issue('evaluation', 'evaluation')).key;
  });
  after(() => h.close());

  for (const code of codes) {
    it(`renders ${code} as problem+json`, async () => {
      const res = await h.call(undefined, { method: 'GET', url: `/test/raise/${code}`, headers: { 'x-request-id': 'req-for-test-1' } });
      assert.equal(res.statusCode, errorCatalogue[code].status);
      const body = problemOf(res);
      assert.equal(body.code, code);
      assert.equal(body.type, problemType(code));
      assert.equal(body.status, errorCatalogue[code].status);
      assert.equal(body.title, errorCatalogue[code].title);
      assert.equal(body.detail, 'raised by a test');
      assert.equal(body.request_id, 'req-for-test-1');
      const doc = await h.call(undefined, String(body.type));
      assert.equal(doc.statusCode, 200);
      assert.equal(doc.json().code, code);
    });
  }

  it('answers an unknown route with 404 problem+json', async () => {
    const body = problemOf(await h.call(key, '/api/v1/nothing-here'));
    assert.equal(body.code, 'route_not_found');
  });

  it('answers URLs that fail before routing with problem+json too', async () => {
    const badEncoding = await h.call(key, '/api/audio/%zz/audio-summary');
    assert.equal(badEncoding.statusCode, 400);
    assert.equal(problemOf(badEncoding).code, 'invalid_parameter');
    assert.ok(badEncoding.headers['x-request-id'], 'request id on a framework error');
    const longSegment = await h.call(key, `/api/audio/audio/${'a'.repeat(300)}`);
    assert.equal(longSegment.statusCode, 414);
    assert.equal(problemOf(longSegment).code, 'uri_too_long');
    assert.ok(!longSegment.body.includes('a'.repeat(300)), 'the over-long segment is not echoed back');
  });

  it('answers an OPTIONS request that is not a CORS preflight without a plain-text error', async () => {
    const res = await h.call(undefined, { method: 'OPTIONS', url: '/healthz' });
    assert.ok(res.statusCode < 400, `status ${res.statusCode}: ${res.body}`);
  });

  it('answers a wrong method with 405 and Allow', async () => {
    const res = await h.call(key, { method: 'DELETE', url: '/api/v1/languages' });
    assert.equal(res.statusCode, 405);
    assert.equal(problemOf(res).code, 'method_not_allowed');
    assert.match(String(res.headers.allow), /GET/);
  });

  it('names unknown and out-of-range parameters', async () => {
    const res = await h.call(key, '/api/v1/languages?per_page=5000&colour=blue');
    assert.equal(res.statusCode, 400);
    const body = problemOf(res);
    assert.equal(body.code, 'invalid_parameter');
    const errors = body.errors as Array<{ in: string; parameter: string; message: string }>;
    assert.ok(errors.some((e) => e.parameter === 'per_page' && e.in === 'query' && /200/.test(e.message)));
    assert.ok(errors.some((e) => e.parameter === 'colour' && /unknown parameter/.test(e.message)));
  });

  it('refuses words with control characters or lone surrogates, naming the parameter', async () => {
    const cases: Array<{ url: string; method?: 'POST'; payload?: unknown; parameter: string }> = [
      { url: '/api/v1/analyze?form=ki%00tabu&language=swh', parameter: 'form' },
      { url: '/api/v1/analyze?form=soma%0Asoma&language=swh', parameter: 'form' },
      { url: '/api/v1/conjugate?language=swh&root=pend%09a&subject=1sg', parameter: 'root' },
      { url: '/api/v1/hfst/analyze', method: 'POST', payload: { language: 'swh', inputs: ['anapenda', 'ana\ud800penda'] }, parameter: 'inputs.1' },
    ];
    for (const c of cases) {
      const res = await h.call(key, c.method ? { method: c.method, url: c.url, payload: c.payload as object } : c.url);
      assert.equal(res.statusCode, 400, c.url);
      const body = problemOf(res);
      assert.equal(body.code, 'invalid_parameter', c.url);
      const errors = body.errors as Array<{ parameter: string; message: string }>;
      assert.ok(
        errors.some((e) => e.parameter === c.parameter && /control characters/.test(e.message)),
        `${c.url}: ${JSON.stringify(errors)}`,
      );
    }
    const plain = await h.call(key, '/api/v1/analyze?form=anapenda&language=swh');
    assert.equal(plain.statusCode, 200, 'the same route accepts an ordinary word');
  });

  it('refuses bad JSON, the wrong media type and oversized bodies', async () => {
    const post = (payload: string, type = 'application/json') => h.call(undefined, { method: 'POST', url: '/test/echo', headers: { 'content-type': type }, payload });
    assert.equal((await post('{"a":1}')).statusCode, 200);
    const bad = await post('{"a":');
    assert.equal(bad.statusCode, 400);
    assert.equal(problemOf(bad).code, 'invalid_json');
    const empty = await post('');
    assert.equal(problemOf(empty).code, 'invalid_json');
    const media = await post('a=1', 'application/x-www-form-urlencoded');
    assert.equal(media.statusCode, 415);
    assert.equal(problemOf(media).code, 'unsupported_media_type');
    const big = await post(JSON.stringify({ a: 'x'.repeat(2 * 1024 * 1024) }));
    assert.equal(big.statusCode, 413);
    assert.equal(problemOf(big).code, 'payload_too_large');
  });

  it('answers a body sent to a GET-only route with 405, not a parse error', async () => {
    const res = await h.call(key, { method: 'POST', url: '/api/v1/languages', headers: { 'content-type': 'application/json' }, payload: '{"a":' });
    assert.equal(res.statusCode, 405);
    assert.equal(problemOf(res).code, 'method_not_allowed');
  });

  it('refuses a batch over the tier limit with 413 naming the limit', async () => {
    assert.equal((await h.call(key, '/test/batch/10')).statusCode, 200);
    const res = await h.call(key, '/test/batch/11');
    assert.equal(res.statusCode, 413);
    const body = problemOf(res);
    assert.equal(body.code, 'batch_too_large');
    assert.equal(body.limit, 10);
    assert.match(String(body.detail), /at most 10/);
  });

  it('hides internals of unexpected failures', async () => {
    h.app.log.level = 'silent';
    const res = await h.call(undefined, '/test/raise/not_a_code');
    assert.equal(res.statusCode, 500);
    const body = problemOf(res);
    assert.equal(body.code, 'internal_error');
    assert.doesNotMatch(res.body, /TypeError|at |\/work\/|node_modules|lugha\.db/);
  });
});
