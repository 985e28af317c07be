// Pins GET /api/v1/languages over the whole Glottolog Narrow Bantu table (filters, paging, cartridge flags) and that every declared cartridge loads, with a working syllable inventory wherever it has a phonology.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { packageRoot } from '../src/config.js';
import { matchesGuthrie } from '../src/coverage/catalogue.js';
import { harness, problemOf, type Harness } from './helpers.js';

const glottologRows =
  readFileSync(path.join(packageRoot, 'reference', 'glottolog-narrow-bantu.tsv'), 'utf8')
    .trim()
    .split('\n').length - 1;

interface Entry {
  iso: string | null;
  glottocode: string | null;
  name: string;
  countries: string[];
  guthrie: string | null;
  guthrie_group: string | null;
  has_cartridge: boolean;
  coverage: { level: string; capabilities: Record<string, string> } | null;
  capabilities: string[];
}

describe('GET /api/v1/languages', () => {
  let h: Harness;
  let key: string;
  const all = async (query = ''): Promise<{ data: Entry[]; meta: Record<string, number> }> => (await h.call(key, `/api/v1/languages?per_page=200${query}`)).json();
  const everything = async (query = ''): Promise<Entry[]> => {
    const out: Entry[] = [];
    for (let page = 1; ; page++) {
      const body = (await h.call(key, `/api/v1/languages?per_page=200&page=${page}${query}`)).json();
      out.push(...body.data);
      if (page >= body.meta.pages) return out;
    }
  };
  before(async () => {
    h = await harness();
    key = (await h.issue('enterprise')).key;
  });
  after(() => h.close());

  it('lists every Narrow Bantu language Glottolog knows, plus cartridges Glottolog has no code for', async () => {
    const first = await all();
    const installed = h.services.morphology.languages().map((l) => l.iso);
    const outsideGlottolog = installed.filter((iso) => !h.services.languageCodes.languoid(iso));
    assert.equal(glottologRows, 564);
    assert.equal(first.meta.total, glottologRows + outsideGlottolog.length);
    const entries = await everything();
    assert.equal(entries.length, first.meta.total);
    assert.equal(new Set(entries.map((e) => e.glottocode ?? e.iso)).size, entries.length, 'no language twice');
    assert.equal(entries.filter((e) => e.iso === null).length, 31, 'languoids without an ISO code are listed by glottocode');
    assert.deepEqual(
      entries
        .filter((e) => e.has_cartridge)
        .map((e) => e.iso)
        .sort(),
      [...installed].sort(),
    );
  });

  it('pages with page and per_page, and the meta carries count and page', async () => {
    const body = (await h.call(key, '/api/v1/languages?page=3&per_page=7')).json();
    assert.equal(body.status, 'ok');
    assert.equal(body.data.length, 7);
    assert.equal(body.meta.count, 7);
    assert.equal(body.meta.page, 3);
    assert.equal(body.meta.pages, Math.ceil(body.meta.total / 7));
    const whole = await everything();
    assert.deepEqual(
      body.data.map((e: Entry) => e.glottocode),
      whole.slice(14, 21).map((e) => e.glottocode),
    );
  });

  it('filters by has_cartridge, with the coverage of each cartridge', async () => {
    const withCartridge = await all('&has_cartridge=true');
    assert.equal(withCartridge.meta.total, h.services.morphology.languages().length);
    assert.ok(withCartridge.data.every((e) => e.has_cartridge && e.coverage !== null));
    const without = await everything('&has_cartridge=false');
    assert.ok(without.every((e) => !e.has_cartridge && e.coverage === null && e.capabilities.length === 0));
    assert.equal(without.length + withCartridge.meta.total, (await all()).meta.total);
  });

  it('filters by capability and least level', async () => {
    const verbs = await all('&capability=verb_conjugation');
    const expected = h.services.morphology
      .languages()
      .filter((l) => l.capabilities.includes('conjugation'))
      .map((l) => l.iso);
    assert.deepEqual(
      verbs.data.map((e) => e.iso),
      expected,
    );
    const syllables = await all('&capability=syllables&min_level=complete');
    assert.ok(syllables.data.length >= 2);
    assert.ok(syllables.data.every((e) => e.coverage?.capabilities.syllables === 'complete'));
    for (const e of syllables.data) assert.equal((await h.call(key, `/api/v1/syllables/${e.iso}`)).statusCode, 200, e.iso!);
  });

  it('searches names with q, and filters by country and Guthrie code', async () => {
    const q = await all('&q=ndebele');
    assert.ok(q.data.some((e) => e.iso === 'nde'));
    assert.ok(q.data.every((e) => /ndebele/i.test(JSON.stringify(e))));
    const tz = await everything('&country=tz');
    assert.ok(tz.length > 50);
    assert.ok(tz.every((e) => e.countries.includes('TZ')));
    assert.ok(tz.some((e) => e.iso === 'suk'));
    const nguni = await all('&guthrie=S.40');
    for (const iso of ['zul', 'xho', 'ssw', 'nde'])
      assert.ok(
        nguni.data.some((e) => e.iso === iso),
        iso,
      );
    assert.ok(nguni.data.every((e) => matchesGuthrie(e.guthrie, 'S.40') || matchesGuthrie(e.guthrie_group, 'S.40')));
    const combined = await all('&guthrie=S&has_cartridge=true&country=ZA');
    assert.ok(combined.data.length >= 5);
    assert.ok(combined.data.every((e) => e.has_cartridge && e.countries.includes('ZA') && /^S/.test(e.guthrie ?? '')));
  });

  it('refuses unknown filters and values, listing the allowed ones', async () => {
    const bad = await h.call(key, '/api/v1/languages?capability=flying');
    assert.equal(bad.statusCode, 400);
    assert.equal(problemOf(bad).code, 'invalid_parameter');
    assert.match(bad.body, /verb_conjugation/);
    for (const query of ['has_cartridge=maybe', 'min_level=great', 'country=TZA', 'colour=blue']) {
      assert.equal((await h.call(key, `/api/v1/languages?${query}`)).statusCode, 400, query);
    }
  });
});

describe('declared cartridges', () => {
  let h: Harness;
  before(async () => {
    h = await harness();
  });
  after(() => h.close());

  it('load with Glottolog metadata, and their syllable inventories work where they have a phonology', () => {
    const languages = h.services.morphology.languages();
    const declared = languages.filter((l) => !l.capabilities.includes('conjugation'));
    assert.ok(declared.length >= 20, `${declared.length} declared cartridges`);
    // A cartridge may claim no glottocode only when the Glottolog table has no languoid for its code.
    const unclaimed = declared.filter((l) => l.glottocode === null);
    for (const l of unclaimed) assert.equal(h.services.languageCodes.languoid(l.iso), undefined, `${l.iso} is in Glottolog: give its glottocode`);
    assert.ok(unclaimed.length <= 1, `${unclaimed.map((l) => l.iso).join(', ')} claim no glottocode`);
    for (const l of declared.filter((x) => x.glottocode !== null)) {
      const languoid = h.services.languageCodes.languoid(l.iso);
      assert.ok(languoid, `${l.iso} is in Glottolog`);
      assert.equal(l.glottocode, languoid.glottocode, l.iso);
      assert.ok(l.guthrie && l.sources.some((s) => s.id === 'glottolog'), l.iso);
    }
    const withPhonology = languages.filter((l) => l.capabilities.includes('syllables'));
    for (const l of withPhonology) {
      const inventory = h.services.morphology.syllables(l.iso);
      assert.ok(inventory.ok, l.iso);
      assert.ok(inventory.value.counts.possible_syllables > 0, l.iso);
      assert.ok(inventory.value.nuclei.length >= 5, l.iso);
      for (const type of inventory.value.syllable_types) {
        if (type.example) assert.ok(type.example.syllable, `${l.iso}: ${type.template} example ${type.example.word} shows no such syllable`);
      }
    }
  });
});
