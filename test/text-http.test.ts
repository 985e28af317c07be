// Pins POST /api/v1/analyze-text as a caller sees it (JSON and text/plain bodies, tokens with offsets and readings, one metered request, every bad input's problem) and the reading fields GET /api/v1/analyze gained.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { harness, problemOf, type Harness } from './helpers.js';

let h: Harness;
let key: string;

before(async () => {
  h = await harness();
  key = (await h.issue('startup')).key;
});
after(() => h.close());

const post = (body: unknown, url = '/api/v1/analyze-text') => h.call(key, { method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) });
const postPlain = (text: string, url: string, type = 'text/plain; charset=utf-8') => h.call(key, { method: 'POST', url, headers: { 'content-type': type }, payload: text });

interface TokenView {
  text: string;
  kind: string;
  start: number;
  end: number;
  sentence: number;
  paragraph: number;
  analyses: Array<{ lemma: string; pos: string; word_class: string; probability: number; guess: boolean; morphemes: Array<{ surface: string; canonical: string; tag: string }> }>;
}

describe('POST /api/v1/analyze-text: happy path', () => {
  it('tokenises and analyses a text: offsets into the text, punctuation and numbers with their own readings, sentences counted', async () => {
    const text = 'Ngiyabonga kakhulu, mngane! Sinezinkomo ezi-2.';
    const res = await post({ language: 'zu', text });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as { status: string; data: TokenView[]; meta: { count: number }; language: string; analyzer: string };
    assert.equal(body.status, 'ok');
    assert.equal(body.language, 'zul');
    assert.equal(body.meta.count, body.data.length);
    assert.deepEqual(
      body.data.map((t) => t.text),
      ['Ngiyabonga', 'kakhulu', ',', 'mngane', '!', 'Sinezinkomo', 'ezi-2', '.'],
    );
    for (const t of body.data) {
      assert.equal(text.slice(t.start, t.end), t.text);
      assert.ok(t.analyses.length >= 1, `${t.text} has a reading`);
      const mass = t.analyses.reduce((sum, a) => sum + a.probability, 0);
      assert.ok(mass <= 1 + 1e-9, `${t.text}: probabilities sum to at most 1`);
    }
    assert.deepEqual(
      body.data.map((t) => t.sentence),
      [0, 0, 0, 0, 0, 1, 1, 1],
    );
    const comma = body.data[2]!;
    assert.equal(comma.analyses[0]!.pos, 'PUNC');
    // The first word is read as the verb 'thank' (bonga), the capital notwithstanding; morphemes are as written.
    const first = body.data[0]!.analyses[0]!;
    assert.equal(first.lemma, 'bonga');
    assert.equal(first.word_class, 'verb');
    assert.equal(first.guess, false);
    assert.deepEqual(
      first.morphemes.map((m) => m.surface),
      ['Ngi', 'ya', 'bong', 'a'],
    );
  });

  it('takes the text itself as text/plain with the language in the query, also under /v1', async () => {
    for (const url of ['/api/v1/analyze-text?language=zul', '/v1/analyze-text?language=zul']) {
      const res = await postPlain('Ngiyabonga.', url);
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(
        res.json().data.map((t: TokenView) => t.text),
        ['Ngiyabonga', '.'],
      );
    }
  });

  it('cuts readings to the likeliest by default and returns every one with all=true', async () => {
    const some = (await post({ language: 'zul', text: 'umphakathi' })).json().data[0] as TokenView;
    const every = (await post({ language: 'zul', text: 'umphakathi', all: true })).json().data[0] as TokenView;
    assert.ok(some.analyses.length <= 5);
    assert.ok(every.analyses.length > some.analyses.length, `${every.analyses.length} readings with all, ${some.analyses.length} without`);
  });

  it('analyses a word in another script, or mixing scripts, as an unknown word rather than failing', async () => {
    const res = await post({ language: 'zul', text: 'Привет Pривет' });
    assert.equal(res.statusCode, 200);
    for (const t of res.json().data as TokenView[]) assert.deepEqual([t.analyses[0]!.word_class, t.analyses[0]!.guess], ['unknown', true]);
  });

  it('counts a long text as one request', async () => {
    const fresh = (await h.issue('academic')).key;
    const call = () => h.call(fresh, { method: 'POST', url: '/api/v1/analyze-text?language=zul', headers: { 'content-type': 'text/plain' }, payload: 'Ngiyabonga kakhulu. '.repeat(200) });
    const remaining = (res: { headers: Record<string, unknown> }) => Number(/r=(\d+)/.exec(String(res.headers.ratelimit))?.[1]);
    const first = await call();
    const second = await call();
    assert.equal(first.statusCode, 200);
    assert.equal(remaining(first) - remaining(second), 1);
  });
});

describe('POST /api/v1/analyze-text: bad input', () => {
  it('refuses empty or missing text, naming the parameter', async () => {
    for (const body of [{ language: 'zul', text: '  ' }, { language: 'zul' }, { language: 'zul', text: 5 }]) {
      const res = await post(body);
      assert.equal(res.statusCode, 400);
      const problem = problemOf(res);
      assert.equal(problem.code, 'invalid_parameter');
      assert.equal((problem.errors as Array<{ parameter: string }>)[0]!.parameter, 'text', JSON.stringify(body));
    }
  });

  it('refuses text over 20,000 characters with 413 text_too_long naming the limit, and a 1 MB body before reading it', async () => {
    const over = await post({ language: 'zul', text: 'a '.repeat(10_001) });
    assert.equal(over.statusCode, 413);
    const problem = problemOf(over);
    assert.equal(problem.code, 'text_too_long');
    assert.equal(problem.limit, 20_000);
    assert.equal(problem.size, 20_002);
    const huge = await postPlain('a '.repeat(500_000), '/api/v1/analyze-text?language=zul');
    assert.equal(huge.statusCode, 413);
    assert.equal(problemOf(huge).code, 'payload_too_large');
  });

  it('refuses binary content and overlong tokens with their own codes and the offset', async () => {
    const binary = await post({ language: 'zul', text: 'Ngiya\u0000bonga' });
    assert.equal(binary.statusCode, 400);
    assert.deepEqual([problemOf(binary).code, problemOf(binary).offset], ['invalid_text', 5]);
    const undecodable = await postPlain(Buffer.from([0x4e, 0x67, 0xff, 0xfe, 0x20, 0x61]) as unknown as string, '/api/v1/analyze-text?language=zul');
    assert.equal(problemOf(undecodable).code, 'invalid_text');
    const long = await post({ language: 'zul', text: `Sawubona ${'x'.repeat(101)} mngane` });
    assert.equal(long.statusCode, 400);
    assert.deepEqual([problemOf(long).code, problemOf(long).offset], ['token_too_long', 9]);
  });

  it('answers 415 for another media type, 400 for text/plain without a language, 404 for an unknown language', async () => {
    const other = await postPlain('Ngiyabonga', '/api/v1/analyze-text?language=zul', 'application/octet-stream');
    assert.equal(other.statusCode, 415);
    assert.equal(problemOf(other).code, 'unsupported_media_type');
    const noLanguage = await postPlain('Ngiyabonga', '/api/v1/analyze-text');
    assert.equal(noLanguage.statusCode, 400);
    assert.equal((problemOf(noLanguage).errors as Array<{ parameter: string }>)[0]!.parameter, 'language');
    const unknown = await post({ language: 'xyz', text: 'Ngiyabonga' });
    assert.equal(unknown.statusCode, 404);
    assert.equal(problemOf(unknown).code, 'language_not_found');
  });

  it('needs a key', async () => {
    const res = await h.call(undefined, { method: 'POST', url: '/api/v1/analyze-text', headers: { 'content-type': 'application/json' }, payload: '{"language":"zul","text":"yebo"}' });
    assert.equal(res.statusCode, 401);
  });
});

describe('GET /api/v1/analyze: the reading fields', () => {
  it('gives each analysis a probability, part of speech, word class, morphemes and guess, keeping the old fields', async () => {
    const res = await h.call(key, '/api/v1/analyze?form=ngiyabonga&language=zul');
    assert.equal(res.statusCode, 200);
    const data = res.json().data as Array<TokenView['analyses'][number] & { score: number; in_lexicon: boolean; words: unknown[] }>;
    assert.ok(data.length > 1);
    const mass = data.reduce((sum, a) => sum + a.probability, 0);
    assert.ok(Math.abs(mass - 1) < 1e-9, `probabilities of one language sum to 1 (${mass})`);
    for (let i = 1; i < data.length; i++) assert.ok(data[i - 1]!.score >= data[i]!.score, 'still most plausible first');
    const best = data[0]!;
    assert.deepEqual([best.lemma, best.pos, best.word_class, best.guess, best.in_lexicon], ['bonga', 'V', 'verb', false, true]);
    assert.ok(best.words.length > 0);
    // The learnt reading comes first, tagged as the annotated text tags it.
    assert.ok(
      best.morphemes.some((m) => m.tag === 'VRoot' && m.canonical === 'bong'),
      JSON.stringify(best.morphemes),
    );
  });
});

describe('OpenAPI', () => {
  it('lists POST /api/v1/analyze-text with its request and response schemas, and the reading fields of /analyze', async () => {
    const doc = (await h.call(undefined, '/openapi.json')).json();
    const route = doc.paths['/api/v1/analyze-text']?.post;
    assert.ok(route, 'the route is described');
    assert.deepEqual(Object.keys(route.requestBody.content).sort(), ['application/json', 'text/plain']);
    const json = JSON.stringify(route.requestBody);
    for (const field of ['language', 'text', 'all']) assert.ok(json.includes(`"${field}"`), `request body names ${field}`);
    const token = route.responses['200'].content['application/json'].schema.properties.data.items;
    for (const field of ['text', 'kind', 'start', 'end', 'analyses']) assert.ok(token.properties[field], `token has ${field}`);
    for (const field of ['lemma', 'pos', 'word_class', 'morphemes', 'probability', 'guess']) assert.ok(token.properties.analyses.items.properties[field], `reading has ${field}`);
    for (const status of ['400', '404', '413', '415']) assert.ok(route.responses[status], `documents ${status}`);
    const analysis = doc.paths['/api/v1/analyze'].get.responses['200'].content['application/json'].schema.properties.data.items;
    for (const field of ['probability', 'pos', 'word_class', 'morphemes', 'guess', 'score']) assert.ok(analysis.properties[field], `analysis has ${field}`);
  });
});
