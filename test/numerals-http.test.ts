// Pins GET /api/v1/numerals as a caller sees it: a number in words in the envelope, class agreement,
// the range 0..10^12, every parameter's 400 (allowed classes listed), 404 for a language without
// numerals, the /v1 alias, metering, the bearer key and the OpenAPI description.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { harness, problemOf, type Harness } from './helpers.js';

let h: Harness;
let key: string;
before(async () => {
  h = await harness();
  key = (await h.issue('startup')).key;
});
after(() => h.close());

const get = (url: string, as = key) => h.call(as, url);

function badParameter(res: LightMyRequestResponse, parameter: string): { in: string; parameter: string; message: string; allowed?: unknown[] } {
  assert.equal(res.statusCode, 400, res.body);
  const body = problemOf(res);
  assert.equal(body.code, 'invalid_parameter');
  const entry = (body.errors as Array<{ in: string; parameter: string; message: string; allowed?: unknown[] }>).find((e) => e.parameter === parameter);
  assert.ok(entry, `expected an error naming ${parameter}, got ${res.body}`);
  return entry;
}

describe('GET /api/v1/numerals', () => {
  it('spells a number in the envelope, with the classes the cardinal agrees with', async () => {
    const res = await get('/api/v1/numerals?language=sw&number=1234');
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.equal(body.status, 'ok');
    assert.deepEqual(body.meta, { count: 1, page: 1, per_page: 1, total: 1, pages: 1 });
    const [result] = body.data;
    assert.equal(result.language, 'swh');
    assert.equal(result.number, '1234');
    assert.equal(result.text, 'elfu moja mia mbili thelathini na nne');
    assert.deepEqual(result.words, ['elfu', 'moja', 'mia', 'mbili', 'thelathini', 'na', 'nne']);
    assert.equal(result.class, null);
    assert.ok(result.classes.includes('c8'));
  });

  it('makes the cardinal agree with the class asked for', async () => {
    const [c2] = (await get('/api/v1/numerals?language=swh&number=22&class=c2')).json().data;
    assert.equal(c2.text, 'ishirini na wawili');
    assert.equal(c2.agreement, true);
    const [c8] = (await get('/api/v1/numerals?language=kin&number=3&class=c8')).json().data;
    assert.equal(c8.text, 'bitatu');
    const [nya] = (await get('/api/v1/numerals?language=ny&number=6&class=c2')).json().data;
    assert.equal(nya.text, 'asanu ndi mmodzi');
  });

  it('spells 0 and 10^12, and refuses 10^12 + 1', async () => {
    assert.equal((await get('/api/v1/numerals?language=zul&number=0')).json().data[0].text, 'iqanda');
    const top = await get('/api/v1/numerals?language=swh&number=1000000000000');
    assert.equal(top.statusCode, 200, top.body);
    assert.equal(top.json().data[0].number, '1000000000000');
    const over = badParameter(await get('/api/v1/numerals?language=swh&number=1000000000001'), 'number');
    assert.equal(over.in, 'query');
    assert.match(over.message, /1000000000000/);
  });

  it('refuses a number that is not a whole decimal number', async () => {
    for (const number of ['-1', '2.5', 'ten', '1e6', '']) badParameter(await get(`/api/v1/numerals?language=swh&number=${number}`), 'number');
    badParameter(await get('/api/v1/numerals?language=swh'), 'number');
  });

  it('refuses an unknown class, listing the allowed ones', async () => {
    const res = await get('/api/v1/numerals?language=swh&number=2&class=c99');
    const entry = badParameter(res, 'class');
    assert.ok(entry.allowed?.includes('c2'));
    assert.ok(!entry.allowed?.includes('count'), 'named contexts are not classes');
    badParameter(await get('/api/v1/numerals?language=swh&number=2&class=people'), 'class');
  });

  it('answers 404 for a language without numerals and for an unknown language', async () => {
    const none = await get('/api/v1/numerals?language=lug&number=5');
    assert.equal(none.statusCode, 404);
    assert.equal(problemOf(none).code, 'language_not_found');
    assert.match(String(problemOf(none).detail), /no numeral grammar/);
    const unknown = await get('/api/v1/numerals?language=xyz&number=5');
    assert.equal(unknown.statusCode, 404);
    assert.equal(problemOf(unknown).code, 'language_not_found');
  });

  it('needs a key, is metered, and answers under /v1 too', async () => {
    assert.equal((await h.call(undefined, '/api/v1/numerals?language=swh&number=5')).statusCode, 401);
    const fresh = (await h.issue('academic')).key;
    const first = await get('/api/v1/numerals?language=swh&number=5', fresh);
    const second = await get('/v1/numerals?language=swh&number=5', fresh);
    assert.equal(first.headers.ratelimit, '"daily";r=499;t=43200');
    assert.equal(second.headers.ratelimit, '"daily";r=498;t=43200');
    assert.deepEqual(second.json(), first.json());
  });

  it('is described in OpenAPI with its parameters', async () => {
    const doc = (await h.call(undefined, '/openapi.json')).json();
    const op = doc.paths['/api/v1/numerals'].get;
    const names = op.parameters.map((p: { name: string }) => p.name);
    assert.deepEqual([...names].sort(), ['class', 'language', 'number']);
    assert.ok(op.responses['200'].content['application/json'].schema.properties.data.items.properties.text);
    assert.ok(op.responses['404']);
    assert.ok(op.responses['400']);
  });
});
