// Golden forms analyse back: for every installed cartridge, each golden form is found by the analyzer
// with its lemma and cell (src/cartridge/golden.ts, the one golden runner), so perfect stems, fused
// concords and periphrastic forms are read as well as written; cells the analyzer's paradigm lacks are
// reported, and forms a cartridge marks `analysis_open` must still fail. Also pins the formation options
// plural_prefix and not_modelled and the literal reading of rule patterns the analyzer relies on.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { packageRoot } from '../src/config.js';
import { enumerateCells, literalAlternatives } from '../src/morphology/analyzer.js';
import { loadCartridge } from '../src/cartridge/cartridge.js';
import { describeOutcome, runGolden, tallyGolden, unreadByReason } from '../src/cartridge/golden.js';
import { Generator, GenerationError } from '../src/morphology/generator.js';
import { openMorphology } from '../src/services.js';

const morphology = openMorphology({ languagesDir: path.join(packageRoot, 'languages') });

describe('golden forms analyse back to their lemma and cell', () => {
  const withGolden = morphology.languages().filter((l) => l.golden_tests.total > 0);
  it('runs for every installed cartridge with golden tests', () => {
    assert.ok(withGolden.length >= 10, withGolden.map((l) => l.iso).join(', '));
  });
  for (const language of withGolden) {
    it(`${language.iso}: every analysable golden form analyses back`, (t) => {
      const found = morphology.engine(language.iso);
      assert.ok(found.ok);
      // Through the service first, so the analyser's frames come from the cache on disk as they do for users.
      assert.ok(morphology.analyze(found.value.cartridge.golden!.tests[0]!.form, language.iso).ok);
      const outcomes = runGolden(found.value.cartridge, found.value, ['analysis']);
      const tally = tallyGolden(outcomes, 'analysis');
      for (const reason of unreadByReason(outcomes)) t.diagnostic(`not read by the analyzer: ${reason}`);
      assert.deepEqual(outcomes.filter((o) => o.status === 'fail').map(describeOutcome), []);
      assert.ok(tally.passing > 0, `${language.iso}: no golden form analyses back`);
    });
  }
});

describe('formation options', () => {
  const dirs: string[] = [];
  after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
  /** A one-tense cartridge in a temporary folder. */
  const cartridgeWith = (verbs: string) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'lugha-cartridge-'));
    dirs.push(dir);
    for (const [file, text] of Object.entries(files(verbs))) writeFileSync(path.join(dir, file), text);
    return loadCartridge(dir);
  };
  const files = (verbs: string) => ({
    'cartridge.yaml': 'metadata: { iso639_3: tst, name: Test, glottocode: test1234, sources: [{ id: s, citation: "a test grammar" }] }',
    'agreement.yaml': `source: s
rows:
  - { id: 2sg, person: 2, number: sg, concords: { subject: u } }
  - { id: 2pl, person: 2, number: pl, concords: { subject: mu } }`,
    'verbs.yaml': `source: s
template: [pre_initial, subject, tam, root, fv, post_final]
tenses:
${verbs}`,
  });

  it('plural_prefix puts a prefix before plural forms only', () => {
    const cartridge = cartridgeWith(`  - { id: imperative, label: imp, gloss: imperative, mood: imperative, source: s,
      positive: { no_subject: true, plural_prefix: nimu, fv_plural: e }, negative: { fv: e } }`);
    const generator = new Generator(cartridge);
    const form = (subject: string) => generator.generate('kora', { word_class: 'verb', tense: 'imperative', polarity: 'positive', subject }).surface;
    assert.equal(form('2sg'), 'kora');
    assert.equal(form('2pl'), 'nimukore');
  });

  it('not_modelled refuses the form and names it, and the analyzer does not read it', () => {
    const cartridge = cartridgeWith(`  - { id: future, label: fut, gloss: future, source: s, positive: { tam: za }, negative: { not_modelled: true } }`);
    const generator = new Generator(cartridge);
    assert.equal(generator.generate('kora', { word_class: 'verb', tense: 'future', polarity: 'positive', subject: '2sg' }).surface, 'uzakora');
    assert.throws(
      () => generator.generate('kora', { word_class: 'verb', tense: 'future', polarity: 'negative', subject: '2sg' }),
      (error: unknown) => error instanceof GenerationError && error.parameter === 'polarity' && /not modelled/.test(error.message),
    );
    const futures = enumerateCells(generator).filter((c) => c.tense === 'future');
    assert.deepEqual([...new Set(futures.map((c) => c.polarity))], ['positive']);
  });

  it('reads simple rule patterns as the literal strings they match', () => {
    assert.deepEqual(
      literalAlternatives('n[dg]')?.map((l) => l.text),
      ['nd', 'ng'],
    );
    assert.deepEqual(
      literalAlternatives('([ie])r')?.map((l) => [l.text, l.groups]),
      [
        ['ir', ['i']],
        ['er', ['e']],
      ],
    );
    assert.equal(literalAlternatives('^jy')?.[0]?.anchored, true);
    assert.deepEqual(
      literalAlternatives('(?<=[aeiou][^aeiou]*)[ae]l')?.map((l) => l.text),
      ['al', 'el'],
    );
    assert.equal(literalAlternatives('[^aeiou]'), undefined);
    // + is read as one or two of it; ranges are spelled out; a leading lookahead is a condition.
    assert.deepEqual(
      literalAlternatives('^f+')?.map((l) => l.text),
      ['f', 'ff'],
    );
    assert.deepEqual(
      literalAlternatives('([b-d]+)')?.map((l) => [l.text, l.groups]),
      [
        ['b', ['b']],
        ['c', ['c']],
        ['d', ['d']],
        ['bb', ['bb']],
        ['cc', ['cc']],
        ['dd', ['dd']],
      ],
    );
    assert.deepEqual(
      literalAlternatives('^(?!jj$)(t)')?.map((l) => l.text),
      ['t'],
    );
    assert.equal(literalAlternatives('a*'), undefined);
    assert.equal(literalAlternatives('[a-]'), undefined);
  });
});
