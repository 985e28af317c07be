// Pins the text pipeline's service layer: a learned analyser is chosen over the engine and sees one sentence at a time (punctuation included), long texts yield to the event loop, learned readings lead GET /analyze's list, and analysis frames survive a restart through the cache on disk (and not a changed cartridge).
import assert from 'node:assert/strict';
import { cpSync, readdirSync, rmSync, appendFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { packageRoot } from '../src/config.js';
import { openLanguageCodes, openMorphology } from '../src/services.js';
import { combine, TextService, type RankedAnalysis } from '../src/text/service.js';
import { cutReadings, probabilitiesOf } from '../src/text/engine-analyzer.js';
import type { TextAnalyzer, TokenAnalysis } from '../src/text/types.js';
import { pendingSerializerSteps } from '../src/http/app.js';
import { harness, problemOf, tempDir } from './helpers.js';

const codes = openLanguageCodes();
const languagesDir = path.join(packageRoot, 'languages');
const morphology = openMorphology({ languagesDir }, codes, { only: ['zul', 'lin'] });

const reading = (lemma: string, probability: number, extra: Partial<TokenAnalysis> = {}): TokenAnalysis => ({
  lemma,
  pos: 'V',
  word_class: 'verb',
  morphemes: [{ surface: lemma, canonical: lemma, tag: 'VRoot' }],
  probability,
  guess: false,
  source: 'lexicon',
  gloss: null,
  stem_source: null,
  ...extra,
});

/** A stand-in for a learned analyser: records what it is given, reads every word as itself. */
function fakeLearned(iso: string) {
  const calls: string[][] = [];
  const analyzer: TextAnalyzer = {
    language: iso,
    analyzeTokens(tokens) {
      calls.push([...tokens]);
      return tokens.map((t) => [reading(t.toLowerCase(), 0.9), reading(`${t.toLowerCase()}x`, 0.1)]);
    },
  };
  return { analyzer, calls, factory: ({ iso: language }: { iso: string }) => (language === iso ? analyzer : null) };
}

describe('TextService: choosing and calling the analyser', () => {
  it('uses the learned analyser where a factory has one, the engine elsewhere', async () => {
    const { factory } = fakeLearned('zul');
    const service = new TextService({ morphology: () => morphology, factories: [factory] });
    const zul = await service.analyzeText('zu', 'Yebo.');
    const lin = await service.analyzeText('lin', 'Yebo.');
    assert.ok(zul.ok && lin.ok);
    assert.equal(zul.value.analyzer, 'learned');
    assert.equal(zul.value.tokens[0]!.analyses[0]!.lemma, 'yebo');
    assert.equal(lin.value.analyzer, 'engine');
  });

  it('gives the analyser one sentence at a time with its punctuation and numbers, as the annotated text it learnt from has them; those get their own readings', async () => {
    const { factory, calls } = fakeLearned('zul');
    const service = new TextService({ morphology: () => morphology, factories: [factory] });
    const result = await service.analyzeText('zul', 'Ngiyabonga kakhulu, mngane! Ngo 2,5 мир yebo.');
    assert.ok(result.ok);
    // A word in another script goes in empty: it breaks the context and is not analysed.
    assert.deepEqual(calls, [
      ['Ngiyabonga', 'kakhulu', ',', 'mngane', '!'],
      ['Ngo', '2,5', '', 'yebo', '.'],
    ]);
    const number = result.value.tokens.find((t) => t.text === '2,5')!;
    assert.deepEqual([number.kind, number.analyses[0]!.pos, number.analyses[0]!.probability], ['number', 'NUM', 1]);
    const comma = result.value.tokens.find((t) => t.text === ',')!;
    assert.deepEqual(
      comma.analyses.map((r) => r.pos),
      ['PUNC'],
    );
    const foreign = result.value.tokens.find((t) => t.text === 'мир')!;
    assert.deepEqual(
      foreign.analyses.map((r) => r.pos),
      ['UNK'],
    );
  });

  it('yields to the event loop between slices of a long text', async () => {
    const { factory } = fakeLearned('zul');
    const service = new TextService({ morphology: () => morphology, factories: [factory], limits: { sliceTokens: 2, sliceMs: 0 } });
    let turns = 0;
    let running = true;
    const tick = () => {
      turns++;
      if (running) setImmediate(tick);
    };
    setImmediate(tick);
    const result = await service.analyzeText('zul', 'a b c d e f g h i j');
    running = false;
    assert.ok(result.ok);
    // Ten words in slices of two: the loop ran other work between the slices.
    assert.ok(turns >= 4, `the event loop turned ${turns} times during the analysis`);
  });

  it('refuses a text that runs past its time budget with service_unavailable', async () => {
    const { factory } = fakeLearned('zul');
    const service = new TextService({ morphology: () => morphology, factories: [factory], limits: { budgetMs: -1 } });
    const result = await service.analyzeText('zul', 'Yebo.');
    assert.equal(result.ok ? 'ok' : result.code, 'service_unavailable');
  });

  it('checks the caps: characters (overridable) and token length', () => {
    const service = new TextService({ morphology: () => morphology, limits: { maxCharacters: 10 } });
    const long = service.validate('yebo yebo yebo');
    assert.ok(!long.ok);
    assert.deepEqual([long.code, long.limit, long.size], ['text_too_long', 10, 14]);
    assert.ok(service.validate('yebo yebo yebo', { maxCharacters: Infinity }).ok);
    const token = new TextService({ morphology: () => morphology }).validate(`a ${'b'.repeat(101)}`);
    assert.ok(!token.ok);
    assert.deepEqual([token.code, token.offset], ['token_too_long', 2]);
  });
});

describe('ranking', () => {
  it('turns scores into probabilities that sum to 1, one point of score a factor e', () => {
    const p = probabilitiesOf([10, 9, 0]);
    assert.ok(Math.abs(p.reduce((a, b) => a + b, 0) - 1) < 1e-12);
    assert.ok(Math.abs(p[0]! / p[1]! - Math.E) < 1e-9);
  });

  it('keeps the likeliest readings holding 95% (at most 5) unless all', () => {
    const readings = [0.6, 0.3, 0.06, 0.04].map((p, i) => reading(`r${i}`, p));
    assert.deepEqual(
      cutReadings(readings).map((r) => r.lemma),
      ['r0', 'r1', 'r2'],
    );
    assert.equal(cutReadings(readings, { all: true }).length, 4);
    assert.equal(cutReadings(Array.from({ length: 9 }, (_, i) => reading(`e${i}`, 1 / 9))).length, 5);
  });

  it('puts learned readings first for a form and scales the engine analyses no reading matched into what is left', () => {
    const engine = (lemma: string, probability: number): RankedAnalysis => ({
      language: 'zul',
      lemma,
      root: lemma.slice(0, -1),
      in_lexicon: true,
      gloss: null,
      english: null,
      features: { word_class: 'verb', polarity: 'positive' },
      words: [{ surface: 'x', slots: { root: { form: lemma } }, polarity: 'positive' }],
      score: 10,
      probability,
      pos: 'V',
      word_class: 'verb',
      morphemes: [],
      guess: false,
    });
    const combined = combine('ngiyabonga', 'zul', [reading('bonga', 0.7), reading('vama', 0.2, { word_class: 'verb' })], [engine('onga', 0.5), engine('bonga', 0.5)]);
    assert.deepEqual(
      combined.map((a) => [a.lemma, Number(a.probability.toFixed(3))]),
      [
        ['bonga', 0.7],
        ['vama', 0.2],
        ['onga', 0.05],
      ],
    );
    // The matched engine analysis lends the learned reading its root and slots.
    assert.equal(combined[0]!.root, 'bong');
  });
});

describe('frame cache on disk', () => {
  const cache = tempDir('lugha-frames-');
  const cartridges = tempDir('lugha-cartridges-');
  after(() => {
    rmSync(cache, { recursive: true, force: true });
    rmSync(cartridges, { recursive: true, force: true });
  });

  it('saves the frames a first analysis built, and a fresh service reads them instead of building', () => {
    cpSync(path.join(languagesDir, 'lin'), path.join(cartridges, 'lin'), { recursive: true });
    const first = openMorphology({ languagesDir: cartridges }, codes, { frameCache: cache });
    const before = first.analyze('nalingi', 'lin');
    assert.ok(before.ok && before.value.some((a) => a.lemma === 'ling'), 'the form has an analysis to compare');
    assert.equal(readdirSync(cache).filter((f) => f.startsWith('lin.')).length, 1);
    const second = openMorphology({ languagesDir: cartridges }, codes, { frameCache: cache });
    assert.deepEqual(second.readiness(), { ready: 0, total: 1 });
    const loaded = second.engine('lin');
    assert.ok(loaded.ok);
    assert.equal(loaded.value.analyzer.ready, false);
    const after = second.analyze('nalingi', 'lin');
    assert.deepEqual(after, before);
    assert.deepEqual(second.readiness(), { ready: 1, total: 1 });
  });

  it('does not reuse frames of a changed cartridge, and replaces the stale file', async () => {
    appendFileSync(path.join(cartridges, 'lin', 'lexicon.tsv'), 'zzlingol\tverb\ttest verb\t\tlugha-lin-lexicon\n');
    const changed = openMorphology({ languagesDir: cartridges }, codes, { frameCache: cache });
    const files = readdirSync(cache).filter((f) => f.startsWith('lin.'));
    assert.equal(await changed.prepareInBackground('lin'), 'built');
    const now = readdirSync(cache).filter((f) => f.startsWith('lin.'));
    assert.equal(now.length, 1);
    assert.notDeepEqual(now, files);
  });
});

describe('readiness while the analysers warm up', () => {
  it('answers /readyz 503 while warmAnalyzers runs, then 200 with every language ready', async () => {
    const cartridges = tempDir('lugha-ready-');
    cpSync(path.join(languagesDir, 'lin'), path.join(cartridges, 'lin'), { recursive: true });
    const h = await harness({ flags: { languagesDir: cartridges } });
    try {
      const warming = h.services.warmAnalyzers();
      const during = await h.call(undefined, '/readyz');
      assert.equal(during.statusCode, 503);
      assert.match(problemOf(during).detail as string, /analysers are loading \([01] of 1 languages ready\)/);
      await warming;
      assert.equal((await h.call(undefined, '/readyz')).statusCode, 200);
      assert.deepEqual(h.services.analysisReadiness(), { warming: false, ready: 1, total: 1 });
    } finally {
      await h.close();
      rmSync(cartridges, { recursive: true, force: true });
    }
  });

  it('stays 503 until the extra steps (the serialisers lugha serve compiles) are done, and leaves none to compile', async () => {
    const cartridges = tempDir('lugha-ready-');
    cpSync(path.join(languagesDir, 'lin'), path.join(cartridges, 'lin'), { recursive: true });
    const h = await harness({ flags: { languagesDir: cartridges } });
    try {
      const before = pendingSerializerSteps(h.app).length;
      assert.ok(before > 10, `${before} success serialisers to compile`);
      let during: ReturnType<typeof h.services.analysisReadiness> | undefined;
      const warming = h.services.warmAnalyzers({
        steps: () => [
          ...pendingSerializerSteps(h.app),
          () => {
            during = h.services.analysisReadiness();
          },
        ],
      });
      await warming;
      // The steps ran after every language was ready, while /readyz still answered 503 (warming).
      assert.deepEqual(during, { warming: true, ready: 1, total: 1 });
      assert.equal((await h.call(undefined, '/readyz')).statusCode, 200);
      assert.deepEqual(pendingSerializerSteps(h.app), []);
      // A route answers as before with its serialiser compiled by the warm-up.
      const { key } = await h.issue('enterprise');
      const answer = await h.call(key, '/api/v1/syllables/lin');
      assert.equal(answer.statusCode, 200);
      assert.equal(answer.json().data[0].language, 'lin');
    } finally {
      await h.close();
      rmSync(cartridges, { recursive: true, force: true });
    }
  });
});
