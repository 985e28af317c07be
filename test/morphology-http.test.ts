// Pins the morphology routes as a caller sees them: conjugate, analyze, languages, syllables and batch-generate — results in the envelope, every parameter's error, unknown languages, batch limits, the /v1 alias, metering and who gets in.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { MAX_BATCH_FORMS } from '../src/access/plans.js';
import { harness, problemOf, type Harness } from './helpers.js';

let h: Harness;
/** Startup tier: 5000 requests a day and batches of 500, so no test here meets a quota by accident. */
let key: string;
before(async () => {
  h = await harness();
  key = (await h.issue('startup')).key;
});
after(() => h.close());

const get = (url: string, as = key) => h.call(as, url);
const batch = (payload: unknown, as = key) => h.call(as, { method: 'POST', url: '/api/v1/batch-generate', payload: payload as Record<string, unknown> });

/** The single `errors` entry of a 400, checked to name `parameter`. */
function badParameter(res: LightMyRequestResponse, parameter: string): { in: string; parameter: string; message: string; allowed?: unknown[] } {
  assert.equal(res.statusCode, 400, res.body);
  const body = problemOf(res);
  assert.equal(body.code, 'invalid_parameter');
  const errors = body.errors as Array<{ in: string; parameter: string; message: string; allowed?: unknown[] }>;
  const entry = errors.find((e) => e.parameter === parameter);
  assert.ok(entry, `expected an error naming ${parameter}, got ${JSON.stringify(errors)}`);
  return entry;
}

const WORKED = '/api/v1/conjugate?language=swh&root=penda&subject=3pl&tense=future&polarity=negative&object=c7';

describe('morphology routes, happy path', () => {
  it('conjugates the worked example into the envelope, with every filled slot in template order', async () => {
    const res = await get(WORKED);
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.equal(body.status, 'ok');
    assert.deepEqual(body.meta, { count: 1, page: 1, per_page: 1, total: 1, pages: 1 });
    const [result] = body.data;
    assert.equal(result.surface_form, 'hawatakipenda');
    assert.equal(result.english, 'they will not love it (class 7)');
    assert.deepEqual(Object.keys(result.slots), ['pre_initial', 'subject', 'tam', 'object', 'root', 'fv']);
    assert.deepEqual(result.slots.object, { form: 'ki', id: 'c7' });
    assert.deepEqual(result.features, { word_class: 'verb', tense: 'future', mood: 'indicative', polarity: 'negative', subject: 'c2', object: 'c7' });
    assert.equal(result.tonal_analysis.status, 'not_tonal');
  });

  it('answers exactly what the morphology service computes, no member lost or invented', async () => {
    const [result] = (await get(WORKED)).json().data;
    const direct = h.services.morphology.conjugate({ language: 'swh', root: 'penda', subject: '3pl', tense: 'future', polarity: 'negative', object: 'c7' });
    assert.ok(direct.ok);
    assert.deepEqual(result, JSON.parse(JSON.stringify(direct.value)));
    const [analysis] = (await get('/api/v1/analyze?form=hawatakipenda&language=swh')).json().data;
    const analysed = h.services.text.analyzeForm('hawatakipenda', 'swh');
    assert.ok(analysed.ok);
    assert.deepEqual(analysis, JSON.parse(JSON.stringify(analysed.value[0])));
  });

  it('accepts a root as penda, -pend- or kupenda, and a language as swh, sw or swa', async () => {
    for (const url of [
      '/api/v1/conjugate?language=swh&root=penda&subject=1sg&tense=present',
      '/api/v1/conjugate?language=swh&root=-pend-&subject=1sg&tense=present',
      '/api/v1/conjugate?language=swh&root=kupenda&subject=1sg&tense=present',
      '/api/v1/conjugate?language=sw&root=penda&subject=1sg&tense=present',
      '/api/v1/conjugate?language=swa&root=penda&subject=1sg&tense=present',
    ]) {
      const res = await get(url);
      assert.equal(res.statusCode, 200, url);
      assert.equal(res.json().data[0].surface_form, 'ninapenda', url);
      assert.equal(res.json().data[0].language, 'swh', url);
    }
  });

  it('takes a UniMorph bundle instead of tense, subject and polarity', async () => {
    const [result] = (await get('/api/v1/conjugate?language=swh&root=penda&features=V;IND;FUT;NEG;3;PL')).json().data;
    assert.equal(result.surface_form, 'hawatapenda');
    assert.equal(result.features.subject, 'c2');
  });

  it('takes mood, variant, extensions and include_tones', async () => {
    const subjunctive = (await get('/api/v1/conjugate?language=swh&root=penda&subject=1sg&mood=subjunctive')).json().data[0];
    assert.equal(subjunctive.features.mood, 'subjunctive');
    const variant = (await get('/api/v1/conjugate?language=swh&root=penda&subject=1sg&tense=conditional&polarity=negative&variant=ha_negative')).json().data[0];
    assert.equal(variant.features.variant, 'ha_negative');
    const applied = (await get('/api/v1/conjugate?language=swh&root=penda&subject=1sg&tense=present&extensions=applicative&include_tones=true')).json().data[0];
    assert.equal(applied.surface_form, 'ninapendea');
    assert.deepEqual(applied.slots.extensions, { form: 'e', id: 'applicative' });
    assert.ok(applied.tonal_analysis);
    assert.equal((await get('/api/v1/conjugate?language=swh&root=penda&subject=1sg&include_tones=false')).statusCode, 200);
  });

  it('shows both words of a periphrastic form, the auxiliary in slots.auxiliary', async () => {
    const [result] = (await get('/api/v1/conjugate?language=swh&root=penda&subject=1sg&tense=past_progressive')).json().data;
    assert.equal(result.words.length, 2);
    assert.equal(result.surface_form, result.words.map((w: { surface: string }) => w.surface).join(' '));
    assert.equal(result.slots.auxiliary.surface, result.words[0].surface);
  });

  it('analyses a form, most plausible first, with paging', async () => {
    const res = await get('/api/v1/analyze?form=hawatakipenda&language=swh');
    assert.equal(res.statusCode, 200);
    const { data, meta } = res.json();
    assert.equal(data[0].lemma, 'penda');
    assert.equal(data[0].english, 'they will not love it (class 7)');
    assert.deepEqual(data[0].features, { word_class: 'verb', tense: 'future', mood: 'indicative', polarity: 'negative', subject: 'c2', object: 'c7' });
    for (let i = 1; i < data.length; i++) assert.ok(data[i - 1].score >= data[i].score, 'sorted by score');
    const paged = (await get('/api/v1/analyze?form=hawatakipenda&language=swh&per_page=1&page=2')).json();
    assert.deepEqual(paged.meta, { count: 1, page: 2, per_page: 1, total: meta.total, pages: meta.total });
    assert.deepEqual(paged.data[0], data[1]);
  });

  it('analyses in every installed language when no language is given', async () => {
    const { data } = (await get('/api/v1/analyze?form=hawatakipenda')).json();
    assert.ok(data.some((a: { language: string; lemma: string }) => a.language === 'swh' && a.lemma === 'penda'));
  });

  it('answers a word with no analysis with an empty list, not an error', async () => {
    const res = await get('/api/v1/analyze?form=xqxq&language=swh');
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { status: 'ok', data: [], meta: { count: 0, page: 1, per_page: 50, total: 0, pages: 1 } });
  });

  it('lists every cartridge with capabilities, tenses, subjects and golden-test coverage', async () => {
    const { data } = (await get('/api/v1/languages?has_cartridge=true&per_page=200')).json();
    assert.deepEqual(
      data.map((l: { iso: string }) => l.iso),
      h.services.morphology.languages().map((l) => l.iso),
    );
    const swh = data.find((l: { iso: string }) => l.iso === 'swh');
    assert.equal(swh.name, 'Swahili');
    for (const capability of ['conjugation', 'analysis', 'syllables']) assert.ok(swh.capabilities.includes(capability), capability);
    assert.ok(swh.tenses.some((t: { id: string }) => t.id === 'future'));
    assert.ok(swh.subjects.includes('c7'));
    assert.ok(swh.golden_tests.passing <= swh.golden_tests.total);
  });

  it('gives the syllable inventory of a language', async () => {
    const res = await get('/api/v1/syllables/swh');
    assert.equal(res.statusCode, 200);
    const { data, meta } = res.json();
    assert.equal(meta.count, 1);
    assert.equal(data[0].language, 'swh');
    assert.ok(data[0].onsets.some((o: { grapheme: string }) => o.grapheme === 'mb'));
    assert.ok(data[0].counts.possible_syllables > 0);
    assert.deepEqual((await get('/api/v1/syllables/sw')).json().data, data);
  });

  it('generates items and a paradigm in one batch, in order, counting forms', async () => {
    const res = await batch({
      language: 'swh',
      items: [
        { root: 'penda', subject: '3pl', tense: 'future', polarity: 'negative', object: 'c7' },
        { root: 'soma', subject: '1sg', tense: 'past', extensions: ['applicative'] },
      ],
      paradigm: { roots: ['la'], subjects: ['1sg', '3pl'], tenses: ['present', 'perfect'], polarity: ['positive', 'negative'] },
    });
    assert.equal(res.statusCode, 200, res.body);
    const { data, meta } = res.json();
    assert.equal(meta.count, 2 + 1 * 2 * 2 * 2);
    assert.deepEqual(
      data.map((d: { index: number }) => d.index),
      [...data.keys()],
    );
    assert.ok(data.every((d: { ok: boolean }) => d.ok));
    assert.deepEqual(
      data.map((d: { result: { surface_form: string } }) => d.result.surface_form),
      ['hawatakipenda', 'nilisomea', 'ninakula', 'wanakula', 'sili', 'hawali', 'nimekula', 'wamekula', 'sijala', 'hawajala'],
    );
  });

  it('fills a paradigm with every tense and subject, positive, when only roots are given', async () => {
    const swh = h.services.morphology.languages().find((l) => l.iso === 'swh')!;
    // A whole Swahili paradigm (over 500 forms) is more than a Startup batch allows: an Enterprise key asks.
    const unlimited = (await h.issue('enterprise')).key;
    const { data, meta } = (await batch({ language: 'swh', paradigm: { roots: ['penda'] } }, unlimited)).json();
    assert.equal(meta.count, swh.tenses.length * swh.subjects.length);
    assert.equal(data[0].result.surface_form, 'ninapenda');
    assert.ok(data.filter((d: { ok: boolean }) => d.ok).every((d: { result: { features: { polarity: string } } }) => d.result.features.polarity === 'positive'));
  });

  it('reports a failed item in its place and still generates the others', async () => {
    const { data, meta } = (await batch({ language: 'swh', items: [{ root: 'penda', subject: '1sg', tense: 'soon' }, { root: 'penda', subject: '1sg' }, { root: 'p3nda' }] })).json();
    assert.equal(meta.count, 3);
    assert.equal(data[0].ok, false);
    assert.equal(data[0].error.code, 'invalid_parameter');
    assert.equal(data[0].error.parameter, 'tense');
    assert.ok(data[0].error.allowed.includes('future'));
    assert.equal(data[1].ok, true);
    assert.equal(data[1].result.surface_form, 'ninapenda');
    assert.deepEqual([data[2].ok, data[2].error.parameter], [false, 'root']);
  });

  it('serves every morphology route at /v1 too, with the same body', async () => {
    for (const url of ['/conjugate?language=swh&root=penda&subject=1sg', '/analyze?form=ninapenda&language=swh', '/languages', '/syllables/swh']) {
      assert.deepEqual((await get(`/v1${url}`)).json(), (await get(`/api/v1${url}`)).json(), url);
    }
    const alias = await h.call(key, { method: 'POST', url: '/v1/batch-generate', payload: { language: 'swh', items: [{ root: 'penda', subject: '1sg' }] } });
    assert.equal(alias.json().data[0].result.surface_form, 'ninapenda');
  });

  it('meters every morphology route: the RateLimit count goes down by one per request', async () => {
    const fresh = (await h.issue('academic')).key;
    const urls = [WORKED, '/api/v1/analyze?form=ninapenda&language=swh', '/api/v1/languages', '/api/v1/syllables/swh'];
    let remaining = 500;
    for (const url of urls) {
      const res = await get(url, fresh);
      remaining--;
      assert.equal(res.headers['ratelimit-policy'], '"daily";q=500;w=86400', url);
      assert.equal(res.headers.ratelimit, `"daily";r=${remaining};t=43200`, url);
    }
    const batched = await batch({ language: 'swh', paradigm: { roots: ['penda'], subjects: ['1sg'], tenses: ['present', 'past'] } }, fresh);
    assert.equal(batched.headers.ratelimit, `"daily";r=${remaining - 1};t=43200`, 'a batch is one request');
  });

  it('describes every morphology route in OpenAPI, once', async () => {
    const doc = (await h.call(undefined, '/openapi.json')).json();
    const conjugate = doc.paths['/api/v1/conjugate'].get;
    const names = conjugate.parameters.map((p: { name: string }) => p.name);
    for (const name of ['language', 'root', 'subject', 'tense', 'polarity', 'object', 'mood', 'variant', 'extensions', 'features', 'include_tones']) {
      assert.ok(names.includes(name), name);
    }
    assert.ok(conjugate.responses['200'].content['application/json'].schema.properties.data.items.properties.surface_form);
    assert.ok(conjugate.responses['404']);
    assert.ok(doc.paths['/api/v1/analyze'].get.parameters.some((p: { name: string }) => p.name === 'form'));
    assert.ok(doc.paths['/api/v1/syllables/{lang}'].get);
    const post = doc.paths['/api/v1/batch-generate'].post;
    assert.ok(post.requestBody.content['application/json'].schema.properties.paradigm);
    assert.ok(post.responses['413']);
    assert.equal(doc.paths['/v1/conjugate'], undefined);
  });
});

describe('morphology routes, errors', () => {
  const base = '/api/v1/conjugate?language=swh&root=penda&subject=1sg';
  /** url -> the parameter the 400 must name and, for a closed set, one value it must list as allowed. */
  const cases: Array<[string, string, string | undefined]> = [
    ['/api/v1/conjugate?root=penda', 'language', undefined],
    ['/api/v1/conjugate?language=12345&root=penda', 'language', undefined],
    ['/api/v1/conjugate?language=swh', 'root', undefined],
    ['/api/v1/conjugate?language=swh&root=p3nda', 'root', undefined],
    ['/api/v1/conjugate?language=swh&root=penda&subject=9sg', 'subject', '3pl'],
    [`${base}&tense=soon`, 'tense', 'future'],
    [`${base}&polarity=maybe`, 'polarity', 'negative'],
    [`${base}&tense=general_present&polarity=negative`, 'polarity', 'positive'],
    [`${base}&object=c99`, 'object', 'c7'],
    [`${base}&mood=wishful`, 'mood', 'subjunctive'],
    [`${base}&tense=conditional&variant=odd`, 'variant', 'ha_negative'],
    [`${base}&extensions=flying`, 'extensions', 'applicative'],
    ['/api/v1/conjugate?language=swh&root=penda&features=XYZ;Q', 'features', undefined],
    [`${base}&include_tones=yes`, 'include_tones', 'true'],
    [`${base}&colour=blue`, 'colour', undefined],
  ];
  for (const [url, parameter, allowed] of cases) {
    it(`conjugate names ${parameter} in ${url.split('?')[1]}`, async () => {
      const entry = badParameter(await get(url), parameter);
      assert.equal(entry.in, 'query');
      if (allowed) assert.ok(entry.allowed?.includes(allowed), `${parameter} should list ${allowed}: ${JSON.stringify(entry.allowed)}`);
    });
  }

  it('answers an unknown language with 404 language_not_found on every route', async () => {
    const responses = [
      await get('/api/v1/conjugate?language=xyz&root=penda'),
      await get('/api/v1/analyze?form=ninapenda&language=xyz'),
      await get('/api/v1/syllables/xyz'),
      await batch({ language: 'xyz', items: [{ root: 'penda' }] }),
    ];
    for (const res of responses) {
      assert.equal(res.statusCode, 404, res.body);
      const body = problemOf(res);
      assert.equal(body.code, 'language_not_found');
      assert.match(String(body.detail), /installed: .*swh/);
    }
  });

  it('names analyze parameters: a missing or overlong form, an unknown parameter', async () => {
    badParameter(await get('/api/v1/analyze?language=swh'), 'form');
    badParameter(await get(`/api/v1/analyze?form=${'a'.repeat(101)}`), 'form');
    badParameter(await get('/api/v1/analyze?form=ninapenda&lang=swh'), 'lang');
    badParameter(await get('/api/v1/syllables/swh?word=mtu'), 'word');
  });

  it('refuses a batch larger than the tier allows with 413 naming the limit, before generating', async () => {
    const evaluation = (await h.issue('evaluation', 'evaluation')).key;
    const ten = await batch({ language: 'swh', paradigm: { roots: ['penda', 'soma'], subjects: ['1sg'], tenses: ['present', 'past', 'future', 'perfect', 'habitual'] } }, evaluation);
    assert.equal(ten.statusCode, 200);
    const res = await batch(
      { language: 'swh', items: [{ root: 'penda', subject: '1sg' }], paradigm: { roots: ['penda', 'soma'], subjects: ['1sg'], tenses: ['present', 'past', 'future', 'perfect', 'habitual'] } },
      evaluation,
    );
    assert.equal(res.statusCode, 413);
    const body = problemOf(res);
    assert.equal(body.code, 'batch_too_large');
    assert.equal(body.limit, 10);
    assert.equal(body.size, 11);
    assert.match(String(body.detail), /at most 10/);
  });

  it('refuses a paradigm over the hard cap even for an unlimited tier, naming the cap', async () => {
    const enterprise = (await h.issue('enterprise')).key;
    const roots = Array.from({ length: 20_000 }, (_, i) => `penda${String.fromCharCode(97 + (i % 26))}`);
    const res = await batch({ language: 'swh', paradigm: { roots } }, enterprise);
    assert.equal(res.statusCode, 413);
    const body = problemOf(res);
    assert.equal(body.code, 'batch_too_large');
    assert.equal(body.limit, MAX_BATCH_FORMS);
    assert.ok(Number(body.size) > MAX_BATCH_FORMS);
    assert.match(String(body.detail), new RegExp(`at most ${MAX_BATCH_FORMS}`));
  });

  it('refuses a malformed batch body as a whole, naming the field', async () => {
    badParameter(await batch({ language: 'swh' }), 'items');
    badParameter(await batch({ language: 'swh', items: [] }), 'items');
    badParameter(await batch({ language: 'swh', items: [{ root: 'penda', polarity: 'maybe' }] }), 'items.0.polarity');
    badParameter(await batch({ language: 'swh', items: [{ root: 'penda', colour: 'blue' }] }), 'items.0.colour');
    badParameter(await batch({ language: 'swh', paradigm: { roots: [] } }), 'paradigm.roots');
    badParameter(await batch({ items: [{ root: 'penda' }] }), 'language');
    const notJson = await h.call(key, { method: 'POST', url: '/api/v1/batch-generate', headers: { 'content-type': 'application/json' }, payload: '{"language":' });
    assert.equal(problemOf(notJson).code, 'invalid_json');
    const form = await h.call(key, { method: 'POST', url: '/api/v1/batch-generate', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'language=swh' });
    assert.equal(form.statusCode, 415);
  });

  it('answers GET on the batch route and POST on the others with 405', async () => {
    assert.equal((await get('/api/v1/batch-generate')).statusCode, 405);
    assert.equal((await h.call(key, { method: 'POST', url: '/api/v1/conjugate', payload: {} })).statusCode, 405);
  });
});

describe('morphology routes, security', () => {
  it('refuses every morphology route without a key, before any work', async () => {
    for (const url of [WORKED, '/api/v1/analyze?form=ninapenda', '/api/v1/languages', '/api/v1/syllables/swh', '/v1/conjugate?language=swh&root=penda']) {
      const res = await h.call(undefined, url);
      assert.equal(res.statusCode, 401, url);
      assert.equal(problemOf(res).code, 'key_missing');
    }
    const post = await h.call(undefined, { method: 'POST', url: '/api/v1/batch-generate', payload: { language: 'swh', paradigm: { roots: ['penda'] } } });
    assert.equal(post.statusCode, 401);
  });

  it('counts a refused 400 against the quota, but not a 401', async () => {
    const fresh = (await h.issue('academic')).key;
    const bad = await get('/api/v1/conjugate?language=swh&root=penda&tense=soon', fresh);
    assert.equal(bad.statusCode, 400);
    assert.match(String(bad.headers.ratelimit), /r=499;/);
  });

  it('refuses a body over the configured limit with 413 payload_too_large', async () => {
    const roots = Array.from({ length: 200_000 }, () => 'pendapenda');
    const res = await batch({ language: 'swh', paradigm: { roots } });
    assert.equal(res.statusCode, 413);
    assert.equal(problemOf(res).code, 'payload_too_large');
  });

  it('echoes no markup and no server paths in its errors', async () => {
    const res = await get('/api/v1/conjugate?language=swh&root=%3Cscript%3Ealert(1)%3C%2Fscript%3E');
    assert.equal(res.statusCode, 400);
    assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    const missing = await get('/api/v1/syllables/xyz');
    assert.equal(missing.body.includes(h.services.config.languagesDir), false);
  });
});
