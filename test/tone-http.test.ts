// Pins tone over HTTP as a caller sees it: conjugate with include_tones (same segments with and without tones, explicit statuses for a language without tone and for data that is missing), and GET /tonal-pairs (envelope, paging, metering, errors, OpenAPI).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { stripTones } from '../src/tone/marks.js';
import { harness, problemOf, type Harness } from './helpers.js';

let h: Harness;
let key: string;
before(async () => {
  h = await harness();
  key = (await h.issue('startup')).key;
});
after(() => h.close());

const get = (url: string, as = key) => h.call(as, url);

/** A golden tone case of an installed cartridge, to conjugate over HTTP. */
function goldenCase() {
  const golden = h.services.tone.golden().find((g) => g.pass);
  assert.ok(golden?.root && golden.cell, 'no passing golden tone case');
  const cell = golden.cell as Record<string, string>;
  return { ...golden, query: `language=${golden.language}&root=${golden.root}&tense=${cell.tense}&subject=${cell.subject}` };
}

describe('conjugate with include_tones', () => {
  it('fills tonal_analysis per syllable, with a tone-marked transcription of the same segments', async () => {
    const golden = goldenCase();
    const toned = (await get(`/api/v1/conjugate?${golden.query}&include_tones=true`)).json().data[0];
    const plain = (await get(`/api/v1/conjugate?${golden.query}`)).json().data[0];
    assert.equal(toned.surface_form, plain.surface_form);
    assert.deepEqual(toned.slots, plain.slots);
    const analysis = toned.tonal_analysis;
    assert.equal(analysis.status, 'analysed');
    assert.equal(analysis.transcription_high, golden.respelled ?? golden.expect);
    assert.equal(stripTones(analysis.transcription), toned.surface_form);
    assert.equal(stripTones(analysis.transcription_high), toned.surface_form);
    const units = analysis.words[0].units as Array<{ text: string; morph: string; underlying: string; surface: string; rules: string[] }>;
    assert.equal(units.map((u) => u.text).join(''), toned.surface_form);
    for (const u of units) {
      assert.ok(Object.keys(toned.slots).includes(u.morph), `${u.morph} is not a slot of the form`);
      assert.match(u.underlying, /^[HL0]$/);
      assert.match(u.surface, /^[HL]$/);
    }
    assert.ok(units.some((u) => u.surface === 'H'));
    assert.equal(plain.tonal_analysis.status, 'not_requested');
  });

  it('says so for a language without tone, and never invents tones where data is missing', async () => {
    const swahili = (await get('/api/v1/conjugate?language=swh&root=penda&subject=1sg&tense=present&include_tones=true')).json().data[0];
    assert.equal(swahili.tonal_analysis.status, 'not_tonal');
    assert.equal(swahili.tonal_analysis.words, undefined);
    const golden = goldenCase();
    const unknown = (await get(`/api/v1/conjugate?language=${golden.language}&root=zzzqa&tense=${(golden.cell as Record<string, string>).tense}&subject=1sg&include_tones=true`)).json().data[0];
    assert.equal(unknown.surface_form.includes('zzzq'), true);
    assert.equal(unknown.tonal_analysis.status, 'not_available');
    assert.equal(unknown.tonal_analysis.transcription, undefined);
  });

  it('batch-generate carries the same tonal analysis', async () => {
    const golden = goldenCase();
    const cell = golden.cell as Record<string, string>;
    const res = await h.call(key, { method: 'POST', url: '/api/v1/batch-generate', payload: { language: golden.language, items: [{ root: golden.root, tense: cell.tense, subject: cell.subject, include_tones: true }] } });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().data[0].result.tonal_analysis.transcription_high, golden.respelled ?? golden.expect);
  });
});

describe('GET /tonal-pairs', () => {
  it('lists pairs in the envelope, pages them and meters the call', async () => {
    const first = await get('/api/v1/tonal-pairs?per_page=5');
    assert.equal(first.statusCode, 200, first.body);
    const body = first.json();
    assert.equal(body.status, 'ok');
    assert.equal(body.data.length, 5);
    assert.equal(body.meta.count, 5);
    assert.ok(body.meta.total >= 50);
    assert.match(String(first.headers.ratelimit), /"daily";r=\d+/);
    const second = (await get('/api/v1/tonal-pairs?per_page=5&page=2')).json();
    assert.notDeepEqual(second.data[0], body.data[0]);
    assert.equal(second.meta.page, 2);
    for (const pair of body.data) {
      assert.ok(pair.items.length >= 2);
      assert.ok(new Set(pair.items.map((i: { tones: string }) => i.tones)).size >= 2);
      for (const item of pair.items) assert.equal(stripTones(item.form).toLowerCase(), pair.segments.toLowerCase());
    }
  });

  it('filters by language, also under /v1', async () => {
    const language = (await get('/api/v1/tonal-pairs?per_page=1')).json().data[0].language;
    const res = await get(`/v1/tonal-pairs?language=${language}&per_page=200`);
    assert.equal(res.statusCode, 200);
    assert.ok(res.json().data.every((p: { language: string }) => p.language === language));
    assert.equal(res.json().meta.total, h.services.tone.tonalPairs({ language }).ok ? (h.services.tone.tonalPairs({ language }) as { value: unknown[] }).value.length : -1);
  });

  it('answers 404 for an unknown language, 400 for bad paging and unknown parameters, 401 without a key', async () => {
    const unknown = await get('/api/v1/tonal-pairs?language=qqq');
    assert.equal(unknown.statusCode, 404);
    assert.equal(problemOf(unknown).code, 'language_not_found');
    assert.equal((await get('/api/v1/tonal-pairs?per_page=0')).statusCode, 400);
    assert.equal((await get('/api/v1/tonal-pairs?colour=red')).statusCode, 400);
    const anonymous = await h.call(undefined, '/api/v1/tonal-pairs');
    assert.equal(anonymous.statusCode, 401);
  });

  it('is described in the OpenAPI document', async () => {
    const doc = (await h.call(undefined, '/openapi.json')).json();
    const route = doc.paths['/api/v1/tonal-pairs'];
    assert.ok(route?.get);
    assert.ok(route.get.parameters.some((p: { name: string }) => p.name === 'language'));
    assert.ok(doc.paths['/api/v1/conjugate'].get.responses['200']);
  });
});
