// A conjugation asked again is answered from the route's answer cache: the caller gets the same
// bytes and headers as the first time, every request is still authenticated and counted, and a
// query that was refused is refused again. The cache stays within its number of entries.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AnswerCache } from '../src/http/answer-cache.js';
import { harness, problemOf, type Harness } from './helpers.js';

let h: Harness;
let key: string;
let id: string;
before(async () => {
  h = await harness();
  ({ key, id } = await h.issue('startup'));
});
after(() => h.close());

const WORKED = '/api/v1/conjugate?language=swh&root=penda&subject=3pl&tense=future&polarity=negative&object=c7';
const remaining = (headers: Record<string, unknown>) => Number(/r=(\d+)/.exec(String(headers.ratelimit))![1]);
/** The headers a caller compares between two answers: all but the per-request id. */
const stable = (headers: Record<string, unknown>) => Object.fromEntries(Object.entries(headers).filter(([name]) => name !== 'x-request-id' && name !== 'ratelimit'));

describe('conjugation answer cache', () => {
  it('answers a repeated query with the same bytes and headers, counting every request', async () => {
    const first = await h.call(key, WORKED);
    const second = await h.call(key, WORKED);
    const third = await h.call(key, WORKED);
    for (const res of [first, second, third]) assert.equal(res.statusCode, 200, res.body);
    assert.equal(second.body, first.body);
    assert.equal(third.body, first.body);
    assert.deepEqual(stable(second.headers), stable(first.headers));
    assert.equal(second.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(Number(second.headers['content-length']), Buffer.byteLength(first.body));
    assert.notEqual(second.headers['x-request-id'], first.headers['x-request-id']);
    assert.equal(remaining(second.headers), remaining(first.headers) - 1);
    assert.equal(remaining(third.headers), remaining(first.headers) - 2);
    assert.equal(second.json().data[0].surface_form, 'hawatakipenda');
  });

  it('answers each distinct query with its own conjugation', async () => {
    const present = await h.call(key, '/api/v1/conjugate?language=swh&root=penda&subject=1sg&tense=present');
    const again = await h.call(key, '/api/v1/conjugate?language=swh&root=penda&subject=1sg&tense=present');
    const other = await h.call(key, '/api/v1/conjugate?language=swh&root=penda&subject=2sg&tense=present');
    const reordered = await h.call(key, '/api/v1/conjugate?tense=present&subject=1sg&root=penda&language=swh');
    assert.equal(present.json().data[0].surface_form, 'ninapenda');
    assert.equal(again.body, present.body);
    assert.equal(other.json().data[0].surface_form, 'unapenda');
    assert.equal(reordered.body, present.body);
  });

  it('refuses a bad query again, and an unknown language again, as the first time', async () => {
    for (const url of ['/api/v1/conjugate?language=swh&root=penda&subject=1sg&tense=yesterday', '/api/v1/conjugate?language=xxx&root=penda&subject=1sg&tense=present']) {
      const first = await h.call(key, url);
      const second = await h.call(key, url);
      assert.ok(first.statusCode >= 400, first.body);
      assert.equal(second.statusCode, first.statusCode);
      assert.equal(problemOf(second).code, problemOf(first).code);
    }
  });

  it('answers HEAD of a cached query without a body, with the length of the GET', async () => {
    const get = await h.call(key, WORKED);
    const head = await h.call(key, { method: 'HEAD', url: WORKED });
    assert.equal(head.statusCode, 200);
    assert.equal(head.body, '');
    assert.equal(head.headers['content-length'], get.headers['content-length']);
  });

  it('still refuses a key revoked after its query was cached, and a request without a key', async () => {
    const other = await h.issue('startup');
    assert.equal((await h.call(other.key, WORKED)).statusCode, 200);
    assert.ok((await h.services.keys.revoke(other.id)).ok);
    assert.equal(problemOf(await h.call(other.key, WORKED)).code, 'key_revoked');
    assert.equal(problemOf(await h.call(undefined, WORKED)).code, 'key_missing');
    assert.equal((await h.call(key, WORKED)).statusCode, 200, `key ${id} still works`);
  });
});

describe('AnswerCache', () => {
  it('keeps at most its number of entries, dropping the least recently used', () => {
    const cache = new AnswerCache(2);
    cache.set('a', Buffer.from('A'));
    cache.set('b', Buffer.from('B'));
    assert.equal(cache.get('a')?.toString(), 'A'); // a is now the most recently used
    cache.set('c', Buffer.from('C'));
    assert.equal(cache.entries, 2);
    assert.equal(cache.get('b'), undefined);
    assert.equal(cache.get('a')?.toString(), 'A');
    assert.equal(cache.get('c')?.toString(), 'C');
  });
});
