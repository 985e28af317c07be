// The verb cartridges built from cited grammars (Xhosa, Kinyarwanda, Tswana, Southern Sotho, Luganda) answer
// GET /api/v1/conjugate like the others: the surface form, its slots and an English gloss, ISO 639-1
// codes accepted, and a form the cartridge does not model refused with the parameter named.
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

const conjugate = async (query: string) => {
  const res = await h.call(key, `/api/v1/conjugate?${query}`);
  assert.equal(res.statusCode, 200, res.body);
  return res.json().data[0] as { surface_form: string; english: string; words: Array<{ slots: Record<string, { form: string }> }> };
};

describe('conjugation in the grammar cartridges', () => {
  it('Xhosa: a periphrastic future, with its two words and gloss', async () => {
    const result = await conjugate('language=xh&root=hamba&subject=1sg&tense=future');
    assert.equal(result.surface_form, 'ndiza kuhamba');
    assert.equal(result.words.length, 2);
    assert.match(result.english, /^I will go/);
  });

  it("Kinyarwanda: the perfective stem and an object concord with Dahl's law", async () => {
    assert.equal((await conjugate('language=kin&root=kora&subject=3sg&tense=past')).surface_form, 'yakoze');
    const loved = await conjugate('language=rw&root=kunda&subject=1sg&object=2sg&tense=present');
    assert.equal(loved.surface_form, 'ndagukunda');
    assert.match(loved.english, /^I love you/);
  });

  it('Tswana and Southern Sotho: disjunctive writing, the 1st person object nasal and the perfect stem', async () => {
    assert.equal((await conjugate('language=tn&root=bona&subject=3sg&object=1sg&tense=present')).surface_form, 'o a mpona');
    assert.equal((await conjugate('language=st&root=robala&subject=3sg&tense=perfect')).surface_form, 'o robetse');
  });

  it("Tswana nna is 'sit, stay', not 'become' (the dictionary's headword), in the present and the perfect", async () => {
    assert.match((await conjugate('language=tn&root=nna&subject=1sg&tense=present')).english, /^I sit\b/);
    const sat = await conjugate('language=tsn&root=nna&subject=1sg&tense=perfect');
    assert.equal(sat.surface_form, 'ke nnile');
    assert.match(sat.english, /^I have sat\b/);
  });

  it('Xhosa -ma (ima) stand: the latent i is heard after -ya- and not after ku', async () => {
    assert.equal((await conjugate('language=xh&root=ma&subject=1sg&tense=present')).surface_form, 'ndiyema');
    assert.equal((await conjugate('language=xho&root=ma&tense=infinitive')).surface_form, 'ukuma');
    assert.equal((await conjugate('language=xho&root=ima&tense=infinitive')).surface_form, 'ukuma');
  });

  it('refuses a form the cartridge does not model, naming the parameter', async () => {
    const res = await h.call(key, '/api/v1/conjugate?language=sot&root=tsamaya&subject=1sg&tense=future&polarity=negative');
    assert.equal(res.statusCode, 400, res.body);
    const body = problemOf(res);
    assert.equal(body.code, 'invalid_parameter');
    const errors = body.errors as Array<{ parameter: string; message: string }>;
    assert.ok(
      errors.some((e) => e.parameter === 'polarity' && /not modelled/.test(e.message)),
      JSON.stringify(errors),
    );
  });

  it('Luganda: the negative subjunctive of the persons the source gives, and the others refused with the subjects that have it', async () => {
    assert.equal((await conjugate('language=lg&root=kola&subject=1sg&tense=subjunctive&polarity=negative')).surface_form, 'siikole');
    assert.equal((await conjugate('language=lug&root=kola&subject=3sg&tense=subjunctive&polarity=negative')).surface_form, 'taakole');
    const res = await h.call(key, '/api/v1/conjugate?language=lug&root=kola&subject=1pl&tense=subjunctive&polarity=negative');
    assert.equal(res.statusCode, 400, res.body);
    const errors = problemOf(res).errors as Array<{ parameter: string; allowed?: string[] }>;
    const subject = errors.find((e) => e.parameter === 'subject');
    assert.deepEqual(subject?.allowed, ['1sg', '2sg', 'c1'], JSON.stringify(errors));
  });
});
