// The cartridge module (src/cartridge/): lexicon.tsv is validated column by column with the file, line
// and column named; golden cases take their defaults; the one golden runner reports each case in both
// directions with its source, says which cells the analyzer cannot read, and fails an `analysis_open`
// mark once the form reads back, and checks a case's English gloss where it gives one.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { loadCartridge } from '../src/cartridge/cartridge.js';
import { describeOutcome, goldenCases, runGolden, tallyGolden } from '../src/cartridge/golden.js';
import { Analyzer } from '../src/morphology/analyzer.js';
import { Generator } from '../src/morphology/generator.js';
import { LanguageEngine } from '../src/morphology/service.js';

const dirs: string[] = [];
after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const BASE = {
  'cartridge.yaml': 'metadata: { iso639_3: tst, name: Test, sources: [{ id: s, citation: "a test grammar" }] }',
  'agreement.yaml': `source: s
rows:
  - { id: 1sg, person: 1, number: sg, concords: { subject: ni } }
  - { id: 2sg, person: 2, number: sg, concords: { subject: u } }`,
  'verbs.yaml': `source: s
template: [subject, tam, root, extensions, fv]
tenses:
  - { id: present, label: pres, gloss: present, source: s, positive: { tam: na }, negative: { absent: true } }
extensions:
  - { id: passive, label: pass, forms: [{ form: w }], source: s }`,
  'lexicon.tsv': 'lemma\tword_class\tgloss\tflags\tsource\nkora\tverb\twork\t\ts\n',
};

/** A cartridge folder with the base files, some replaced. */
function folder(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'lugha-cartridge-'));
  dirs.push(dir);
  for (const [file, text] of Object.entries({ ...BASE, ...files })) writeFileSync(path.join(dir, file), text);
  return dir;
}

const lexiconError = (tsv: string) => {
  const dir = folder({ 'lexicon.tsv': tsv });
  try {
    loadCartridge(dir);
  } catch (error) {
    return (error as Error).message;
  }
  return 'loaded';
};

describe('lexicon.tsv is validated', () => {
  it('reads a good lexicon, an empty word class being a verb and flags a list', () => {
    const lexicon = loadCartridge(folder({ 'lexicon.tsv': 'lemma\tword_class\tgloss\tflags\tsource\nla\t\teat\tshort, keeps_fv\ts, p. 3\n' })).lexicon;
    assert.deepEqual(lexicon, [{ lemma: 'la', word_class: 'verb', gloss: 'eat', flags: ['short', 'keeps_fv'], source: 's, p. 3' }]);
  });
  it('a missing source is an error naming the file, line and column', () => {
    const message = lexiconError('lemma\tword_class\tgloss\tflags\tsource\nkora\tverb\twork\t\ts\nla\tverb\teat\tshort\t\n');
    assert.match(message, /lexicon\.tsv:3: column source: empty; it is required/);
  });
  it('a source that cartridge.yaml does not declare is an error listing the declared ones', () => {
    assert.match(lexiconError('lemma\tgloss\tsource\nkora\twork\tdoke1927\n'), /lexicon\.tsv:2: column source: "doke1927" is not a source of cartridge\.yaml \(s\)/);
  });
  it('an unknown or missing column, a bad noun class or flag, and a row with too many cells are errors', () => {
    assert.match(lexiconError('lemma\tgloss\tsorce\nkora\twork\ts\n'), /lexicon\.tsv:1: column sorce: unknown column; the columns are lemma, word_class, gloss/);
    assert.match(lexiconError('lemma\tsource\nkora\ts\n'), /lexicon\.tsv:1: column gloss: missing/);
    assert.match(lexiconError('lemma\tgloss\tnoun_class\tsource\nkiti\tchair\tseven\ts\n'), /lexicon\.tsv:2: column noun_class: a noun class id/);
    assert.match(lexiconError('lemma\tgloss\tflags\tsource\nla\teat\tshort;vowel\ts\n'), /lexicon\.tsv:2: column flags: comma-separated flag names/);
    assert.match(lexiconError('lemma\tgloss\tsource\nla\teat\ts\textra\n'), /lexicon\.tsv:2: column 4: 4 cells for 3 columns/);
    assert.match(lexiconError('lemma\tgloss\tsource\n\teat\ts\n'), /lexicon\.tsv:2: column lemma: empty; it is required/);
  });
  it("a verb's object flags: no_object and two_objects exclude each other, and belong to verbs", () => {
    assert.deepEqual(loadCartridge(folder({ 'lexicon.tsv': 'lemma\tgloss\tflags\tsource\nenda\tgo\tshort,no_object\ts\n' })).lexicon[0]?.flags, ['short', 'no_object']);
    assert.match(lexiconError('lemma\tgloss\tflags\tsource\npa\tgive\tno_object, two_objects\ts\n'), /lexicon\.tsv:2: column flags: no_object and two_objects exclude each other/);
    assert.match(lexiconError('lemma\tword_class\tgloss\tflags\tsource\nkiti\tnoun\tchair\ttwo_objects\ts\n'), /lexicon\.tsv:2: column flags: two_objects is a flag of verbs, not of a noun/);
  });
});

describe('golden cases and the golden runner', () => {
  const golden = `source: s
tests:
  - { lemma: kora, cell: { tense: present, subject: 1sg }, form: ninakora, source: "s, p. 1" }
  - { lemma: kora, cell: { tense: present, subject: 2sg }, form: unakorra }
  - { lemma: kora, cell: { tense: present, subject: 2sg, extensions: [passive] }, form: unakorwa }
  - { lemma: kora, cell: { tense: present, subject: 1sg }, form: ninakora, analysis_open: "said to fail" }
  - { lemma: kora, cell: { tense: present, subject: 1sg, polarity: negative }, form: sikori }`;
  const cartridge = loadCartridge(folder({ 'golden.yaml': golden }));
  const generator = new Generator(cartridge);
  const outcomes = runGolden(cartridge, { generator, analyzer: new Analyzer(generator) });

  it('gives every case its defaults: a verb, positive, with the file source where it names none', () => {
    const cases = goldenCases(cartridge.golden);
    assert.deepEqual(cases[1], { lemma: 'kora', cell: { word_class: 'verb', polarity: 'positive', tense: 'present', subject: '2sg' }, form: 'unakorra', source: 's', index: 1 });
    assert.equal(cases[0]!.source, 's, p. 1');
  });
  it('refuses a golden cell field the engine does not know', () => {
    assert.throws(() => loadCartridge(folder({ 'golden.yaml': 'source: s\ntests:\n  - { lemma: kora, cell: { tense: present, mood: x }, form: x }' })), /golden\.yaml: tests\.0\.cell: Unrecognized key: "mood"/);
  });
  it('runs each case in both directions and names a difference with its case, source, expected and actual form', () => {
    assert.deepEqual(tallyGolden(outcomes, 'generation'), { total: 5, passing: 3, failing: 2, unanalysable: 0, open: 0 });
    const wrong = outcomes.filter((o) => o.direction === 'generation' && o.status === 'fail').map(describeOutcome);
    assert.equal(wrong[0], 'generation: golden.yaml case 2, kora tense=present subject=2sg (source: s): expected unakorra, got unakora');
    assert.match(wrong[1]!, /^generation: golden\.yaml case 5, kora tense=present polarity=negative subject=1sg \(source: s\): expected sikori, got refused: /);
  });
  it('reads a derived verb back with its extensions, reports a cell the analyzer cannot read instead of skipping it, and fails an analysis_open mark that no longer holds', () => {
    const analysis = outcomes.filter((o) => o.direction === 'analysis');
    assert.deepEqual(
      analysis.map((o) => o.status),
      ['pass', 'fail', 'pass', 'fail', 'unanalysable'],
    );
    assert.match(describeOutcome(analysis[3]!), /reads back, although golden\.yaml marks it analysis_open \("said to fail"\): remove the mark/);
    assert.match(analysis[4]!.actual, /the analyzer's paradigm has no cell tense=present polarity=negative subject=1sg/);
  });
  it("checks a case's English gloss where it gives one, and names the gloss the engine gave", () => {
    const glossed = loadCartridge(
      folder({
        'golden.yaml': `source: s
tests:
  - { lemma: kora, cell: { tense: present, subject: 1sg }, form: ninakora, gloss: "I work" }
  - { lemma: kora, cell: { tense: present, subject: 2sg }, form: unakora, gloss: "you are working" }
  - { lemma: kora, cell: { tense: present, subject: 2sg, extensions: [passive] }, form: unakorwa, gloss: "you are worked" }`,
      }),
    );
    const generation = runGolden(glossed, new LanguageEngine(glossed), ['generation']);
    assert.deepEqual(
      generation.map((o) => o.status),
      ['pass', 'fail', 'pass'],
    );
    assert.equal(describeOutcome(generation[1]!), "generation: golden.yaml case 2, kora tense=present subject=2sg (source: s): expected unakora, got unakora glossed 'you work' (expected 'you are working')");
    // Without an English gloss in the engine (the generator alone) the form is what is checked.
    assert.deepEqual(
      runGolden(glossed, { generator: new Generator(glossed) }, ['generation']).map((o) => o.status),
      ['pass', 'pass', 'pass'],
    );
  });
});
