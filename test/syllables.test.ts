// Pins the phonology engine: syllabification and the derived syllable inventory of the swh and zul cartridge files, the phonology file's error messages, and that src/morphology/ names no language.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { loadPhonology, parsePhonology, type Phonology } from '../src/morphology/phonology.js';
import { syllabify, syllabifyDetailed, syllableCount, syllableInventory } from '../src/morphology/syllables.js';

const root = path.join(import.meta.dirname, '..');
const cartridgeFile = (iso: string): string => path.join(root, 'languages', iso, 'phonology.yaml');
const swh = loadPhonology(cartridgeFile('swh'));
const zul = loadPhonology(cartridgeFile('zul'));

/** Asserts each word's syllables, written as dotted strings ('ni.na.ku.pe.nda'). */
function expectSyllables(phonology: Phonology, cases: Record<string, string>): void {
  for (const [word, dotted] of Object.entries(cases)) {
    assert.deepEqual(syllabify(word, phonology), dotted.split('.'), word);
  }
}

describe('syllabify: swh', () => {
  it('splits the reference words', () => {
    expectSyllables(swh, {
      ninakupenda: 'ni.na.ku.pe.nda',
      mwalimu: 'mwa.li.mu',
      mtu: 'm.tu',
      "ng'ombe": "ng'o.mbe",
      kuandika: 'ku.a.ndi.ka',
      nchi: 'n.chi',
      shule: 'shu.le',
      mbwa: 'mbwa',
    });
  });

  it('keeps labialised and palatalised onsets together', () => {
    expectSyllables(swh, { kwenda: 'kwe.nda', bwana: 'bwa.na', Kiswahili: 'Ki.swa.hi.li', vyakula: 'vya.ku.la' });
  });

  it('keeps prenasalised onsets together: mb nd ng nj nz mv', () => {
    expectSyllables(swh, { ndizi: 'ndi.zi', njia: 'nji.a', nzuri: 'nzu.ri', ngoma: 'ngo.ma', nyumba: 'nyu.mba', mvua: 'mvu.a' });
  });

  it('makes a nasal syllabic before a consonant it cannot prenasalise', () => {
    expectSyllables(swh, { mpira: 'm.pi.ra', mtoto: 'm.to.to', nne: 'n.ne', mmoja: 'm.mo.ja', mzee: 'm.ze.e', mgeni: 'm.ge.ni' });
  });

  it('reads digraphs greedily and splits vowel sequences', () => {
    expectSyllables(swh, { dhahabu: 'dha.ha.bu', thelathini: 'the.la.thi.ni', ghali: 'gha.li', chakula: 'cha.ku.la', saa: 'sa.a' });
  });
});

describe('syllabify: zul', () => {
  it('splits the reference words, keeping capitals', () => {
    expectSyllables(zul, {
      ngiyabonga: 'ngi.ya.bo.nga',
      umntwana: 'u.m.ntwa.na',
      hlala: 'hla.la',
      isiZulu: 'i.si.Zu.lu',
      inkomo: 'i.nko.mo',
    });
  });

  it('reads clicks and the click series c q x, ch qh xh, gc gq gx, nc nq, ngc', () => {
    expectSyllables(zul, {
      ukucula: 'u.ku.cu.la',
      iqanda: 'i.qa.nda',
      ixoxo: 'i.xo.xo',
      ukuchitha: 'u.ku.chi.tha',
      ukuqhuba: 'u.ku.qhu.ba',
      isiXhosa: 'i.si.Xho.sa',
      ukugcina: 'u.ku.gci.na',
      inqola: 'i.nqo.la',
      incwadi: 'i.ncwa.di',
      kungcono: 'ku.ngco.no',
    });
  });

  it('reads lateral fricatives, aspirates and the other multigraphs', () => {
    expectSyllables(zul, {
      ukudla: 'u.ku.dla',
      indlela: 'i.ndle.la',
      inhlanzi: 'i.nhla.nzi',
      ukuphila: 'u.ku.phi.la',
      thatha: 'tha.tha',
      khuluma: 'khu.lu.ma',
      ukutshela: 'u.ku.tshe.la',
      ukubhala: 'u.ku.bha.la',
      ihhashi: 'i.hha.shi',
      inyoni: 'i.nyo.ni',
    });
  });

  it('tells the syllabic m of um- from the prenasal of in-/im-', () => {
    expectSyllables(zul, { umfana: 'u.m.fa.na', umbhali: 'u.m.bha.li', imbongi: 'i.mbo.ngi', inja: 'i.nja', amandla: 'a.ma.ndla', KwaZulu: 'Kwa.Zu.lu' });
  });
});

describe('syllabify: input edges', () => {
  it('returns no syllables for an empty string', () => {
    assert.deepEqual(syllabify('', swh), []);
    assert.equal(syllableCount('', zul), 0);
  });

  it('handles capitals, typographic apostrophes, hyphens and spaces', () => {
    assert.deepEqual(syllabify('MWALIMU', swh), ['MWA', 'LI', 'MU']);
    assert.deepEqual(syllabify("NG'OMBE", swh), ["NG'O", 'MBE']);
    assert.deepEqual(syllabify('ng\u2019ombe', swh), ['ng\u2019o', 'mbe']);
    assert.deepEqual(syllabify('kwa-heri', swh), ['kwa', 'he', 'ri']);
    assert.deepEqual(syllabify('habari yako', swh), ['ha', 'ba', 'ri', 'ya', 'ko']);
  });

  it('treats letters outside the inventory as segments and never throws', () => {
    assert.deepEqual(syllabify('qalamu', swh), ['qa', 'la', 'mu']);
    assert.deepEqual(syllabify('ninakupénda', swh), ['ni', 'na', 'ku', 'pé', 'nda']);
    assert.equal(syllabify('daktari', swh).join(''), 'daktari');
    assert.doesNotThrow(() => syllabify('ŋ‽x9', zul));
  });

  it('labels each syllable with its template', () => {
    assert.deepEqual(syllabifyDetailed('mbwa', swh), [{ text: 'mbwa', template: 'NCwV' }]);
    assert.deepEqual(
      syllabifyDetailed('umntwana', zul).map((s) => s.template),
      ['V', 'N\u0329', 'NCwV', 'CV'],
    );
    assert.equal(syllableCount('ninakupenda', swh), 5);
  });
});

describe('syllableInventory', () => {
  const swhInventory = syllableInventory(swh);
  const zulInventory = syllableInventory(zul);
  const graphemes = (inv: typeof swhInventory, kind: string): string[] => inv.onsets.filter((o) => o.kind === kind).map((o) => o.grapheme);

  it('swh has five vowels and no codas', () => {
    assert.deepEqual(swhInventory.nuclei.map((n) => n.grapheme).sort(), ['a', 'e', 'i', 'o', 'u']);
    assert.equal(swhInventory.codas.allowed, false);
    assert.ok(swhInventory.syllable_types.every((t) => !t.template.endsWith('VC')));
  });

  it('derives prenasalised onsets from the nasal rule instead of listing them', () => {
    const listed = new Set(swh.inventory.consonants.flatMap((c) => c.graphemes));
    const prenasalised = graphemes(swhInventory, 'prenasalised');
    assert.deepEqual([...new Set(prenasalised)].sort(), ['mb', 'mv', 'nd', 'ng', 'nj', 'nz']);
    assert.ok(
      prenasalised.every((g) => !listed.has(g)),
      'no prenasalised onset is an inventory grapheme',
    );
    assert.ok(swhInventory.onsets.some((o) => o.grapheme === 'mb' && o.ipa === 'ᵐb'));
    assert.ok(graphemes(swhInventory, 'prenasalised+labialised').includes('mbw'));
    assert.ok(graphemes(swhInventory, 'labialised').includes('mw'));
  });

  it('zul has click onsets, plain and derived', () => {
    const plain = zulInventory.onsets.filter((o) => o.kind === 'plain');
    for (const [g, ipa] of [
      ['c', 'kǀ'],
      ['q', 'kǃ'],
      ['x', 'kǁ'],
      ['gc', 'ɡǀ'],
      ['xh', 'kǁʰ'],
    ]) {
      assert.ok(
        plain.some((o) => o.grapheme === g && o.ipa === ipa),
        `${g} /${ipa}/`,
      );
    }
    const prenasalised = zulInventory.onsets.filter((o) => o.kind === 'prenasalised');
    assert.ok(prenasalised.some((o) => o.grapheme === 'nc' && o.ipa === 'ᵑǀ'));
    assert.ok(prenasalised.some((o) => o.grapheme === 'ngc' && o.ipa === 'ᵑɡǀ'));
    assert.ok(graphemes(zulInventory, 'prenasalised+labialised').includes('ncw'));
    assert.ok(!graphemes(zulInventory, 'prenasalised').includes('nch'), 'aspirated clicks are not prenasalised');
  });

  it('counts equal the lengths of the lists and the sum over types', () => {
    for (const inv of [swhInventory, zulInventory]) {
      assert.equal(inv.counts.onsets, inv.onsets.length);
      assert.equal(inv.counts.nuclei, inv.nuclei.length);
      assert.equal(inv.counts.syllabic_nasals, inv.syllabic_nasals.length);
      assert.equal(inv.counts.syllable_types, inv.syllable_types.length);
      assert.equal(
        inv.counts.possible_syllables,
        inv.syllable_types.reduce((sum, t) => sum + t.count, 0),
      );
      assert.equal(
        Object.values(inv.counts.onsets_by_kind).reduce((a, b) => a + b, 0),
        inv.onsets.length,
      );
      for (const t of inv.syllable_types) {
        const onsets = t.onset_kind ? inv.onsets.filter((o) => o.kind === t.onset_kind).length : 1;
        const expected = t.template === 'N\u0329' ? inv.syllabic_nasals.length : onsets * inv.nuclei.length;
        assert.equal(t.count, expected, t.template);
      }
    }
    assert.deepEqual(swhInventory.counts.onsets_by_kind, { plain: 29, labialised: 21, palatalised: 5, prenasalised: 6, 'prenasalised+labialised': 5 });
    assert.equal(swhInventory.counts.possible_syllables, 337);
    assert.equal(zulInventory.counts.possible_syllables, 642);
  });

  it('finds a syllable of each type in its example word', () => {
    for (const inv of [swhInventory, zulInventory]) {
      for (const t of inv.syllable_types) assert.notEqual(t.example?.syllable ?? null, null, `${t.template} in ${t.example?.word}`);
    }
    assert.equal(swhInventory.syllable_types.find((t) => t.template === 'N\u0329')?.example?.syllable, 'm');
  });

  it('names its sources', () => {
    assert.deepEqual(swhInventory.sources.phoible, { inventory_id: 145, inventory_source: 'SPA', references: ['polome1967'] });
    assert.equal(zulInventory.sources.phoible.inventory_id, 147);
    const phoible = zulInventory.sources.references.find((r) => r.id === 'phoible');
    assert.equal(phoible?.license, 'CC-BY-4.0');
    assert.ok(zulInventory.sources.references.find((r) => r.id === 'poulos-msimang1998')?.cited_by.includes('orthography'));
  });
});

describe('phonology files', () => {
  // PHOIBLE 2.0 inventories 145 and 147, copied into the repository with their attribution (fixtures/phoible/README.md).
  const tsv = path.join(import.meta.dirname, 'fixtures', 'phoible', 'inventories-145-147.tsv');

  it('copy their PHOIBLE inventory exactly', () => {
    const rows = readFileSync(tsv, 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split('\t'));
    for (const phonology of [swh, zul]) {
      const id = String(phonology.inventory.phoible.inventory_id);
      const fromTsv = new Set(rows.filter((r) => r[0] === id && (r[6] === 'consonant' || r[6] === 'vowel')).map((r) => `${r[6]} ${r[5]}`));
      assert.ok(fromTsv.size >= 20, `the fixture holds inventory ${id}`);
      const { vowels, consonants } = phonology.inventory;
      const fromFile = new Set([...vowels, ...consonants].filter((x) => x.in_phoible).map((x) => `${x.class} ${x.ipa}`));
      assert.deepEqual([...fromFile].sort(), [...fromTsv].sort(), `inventory ${id}`);
    }
  });

  it('start with a comment block saying where the data comes from', () => {
    for (const iso of ['swh', 'zul']) assert.match(readFileSync(cartridgeFile(iso), 'utf8'), /^# .*\n#\n# Where the data comes from/);
  });

  it('a broken file fails with the file and the field named', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'lugha-phonology-'));
    try {
      const file = path.join(dir, 'phonology.yaml');
      const original = readFileSync(cartridgeFile('swh'), 'utf8');
      writeFileSync(file, original.replace('manner: stop, laryngeal: voiceless }', 'manner: plosive, laryngeal: voiceless }'));
      assert.throws(
        () => loadPhonology(file),
        (e: Error) => e.message.startsWith(file) && /inventory\.consonants\.0\.manner/.test(e.message),
      );
      writeFileSync(file, original.replace('  source: ashton1944\n  multigraphs', '  source: ashton-1945\n  multigraphs'));
      assert.throws(() => loadPhonology(file), /orthography\.source: unknown source "ashton-1945"/);
      writeFileSync(file, original.replace(' sh, ny,', ' ny,'));
      assert.throws(() => loadPhonology(file), /inventory\.consonants\.\d+\.graphemes\.0: "sh" has several letters/);
      writeFileSync(file, 'format: [1');
      assert.throws(() => loadPhonology(file), /not valid YAML/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('drive a language the engine has never seen, with codas', () => {
    const toy = parsePhonology(
      {
        format: 1,
        sources: { made: { citation: 'made up for a test' } },
        inventory: {
          phoible: { database: 'made', inventory_id: 1, inventory_source: 'none', references: ['made'], extract: '-', chosen_because: 'test' },
          vowels: [{ ipa: 'a', class: 'vowel', graphemes: ['a'] }],
          consonants: [
            { ipa: 't', class: 'consonant', graphemes: ['t'], place: 'alveolar', manner: 'stop', laryngeal: 'voiceless' },
            { ipa: 'k', class: 'consonant', graphemes: ['k'], place: 'velar', manner: 'stop', laryngeal: 'voiceless' },
            { ipa: 'm', class: 'consonant', graphemes: ['m'], place: 'bilabial', manner: 'nasal', laryngeal: 'voiced' },
          ],
        },
        orthography: { source: 'made' },
        prosody: { tone: { phonemic: false, written: false, source: 'made' }, vowel_length: { phonemic: false, written: false, source: 'made' } },
        syllable_structure: {
          source: 'made',
          types: [{ template: 'CV' }, { template: 'CVC' }],
          codas: { allowed: true, graphemes: ['m'], source: 'made' },
        },
      },
      'toy',
    );
    assert.deepEqual(syllabify('tamkam', toy), ['tam', 'kam']);
    assert.equal(syllableInventory(toy).counts.possible_syllables, 3 * 1 + 3 * 1 * 1);
  });
});

describe('engine is generic', () => {
  it('no file in src/morphology/ names a language', () => {
    const dir = path.join(root, 'src', 'morphology');
    for (const name of readdirSync(dir)) {
      const text = readFileSync(path.join(dir, name), 'utf8');
      for (const word of ['swh', 'zul', 'Swahili', 'Zulu']) assert.ok(!text.includes(word), `${name} contains "${word}"`);
    }
  });
});
