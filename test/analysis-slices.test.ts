// Pins that the request paths' long work gives the event loop turns and the same answers as run at once: a 100-letter word's analysis (one language or every one), a capitalised form, a text of such words, and a batch of generated forms.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { planBatch, runBatchInSlices } from '../src/batch-generation.js';
import { packageRoot } from '../src/config.js';
import { decompose, decomposeInSlices } from '../src/lexicon-service.js';
import { openMorphology } from '../src/services.js';
import { TextService } from '../src/text/service.js';

const morphology = openMorphology({ languagesDir: path.join(packageRoot, 'languages') });

/** Runs `work` while counting the turns the event loop took meanwhile (an immediate that re-arms itself). */
async function withTurns<T>(work: () => Promise<T>): Promise<{ value: T; turns: number }> {
  let turns = 0;
  let running = true;
  const tick = () => {
    if (!running) return;
    turns++;
    setImmediate(tick);
  };
  setImmediate(tick);
  // Counted from here: the first immediate may run before the work's first slice ends.
  const value = await work();
  running = false;
  return { value, turns };
}

describe('analysis in slices', () => {
  // A hundred letters of one syllable repeated: many frames match its start (ba- is a class 2 prefix in Luganda).
  const long = 'ba'.repeat(50);

  it('a 100-letter word: the event loop turns between steps and the analyses are those of the analysis at once', async () => {
    const atOnce = morphology.analyze(long, 'lug');
    assert.ok(atOnce.ok);
    assert.ok(atOnce.value.length > 0, 'the guesser reads the word (a guessed root)');
    assert.ok(
      atOnce.value.every((a) => !a.in_lexicon),
      'every reading is marked a guess',
    );
    const sliced = await withTurns(() => morphology.analyzeInSlices(long, 'lug', 0));
    assert.deepEqual(sliced.value, atOnce);
    assert.ok(sliced.turns > 10, `the loop turned ${sliced.turns} times during the analysis`);
  });

  it('a form in every installed language: the loop turns between languages, the same analyses in the same order', async () => {
    const atOnce = morphology.analyze('Ninakupenda');
    const sliced = await withTurns(() => morphology.analyzeInSlices('Ninakupenda', undefined, 0));
    assert.deepEqual(sliced.value, atOnce);
    assert.ok(atOnce.ok && atOnce.value.some((a) => a.language === 'swh' && a.lemma === 'penda'));
    assert.ok(sliced.turns >= morphology.installed().length, `${sliced.turns} turns for ${morphology.installed().length} languages`);
  });

  it('a refused form is refused the same way', async () => {
    assert.deepEqual(await morphology.analyzeInSlices('a'.repeat(101), 'swh'), morphology.analyze('a'.repeat(101), 'swh'));
    assert.deepEqual(await morphology.analyzeInSlices('penda', 'zzz'), morphology.analyze('penda', 'zzz'));
  });

  it('decompose_morphemes: the same decompositions', async () => {
    assert.deepEqual(await decomposeInSlices(morphology, 'hawatakipenda', 'swh'), decompose(morphology, 'hawatakipenda', 'swh'));
  });

  it('GET /analyze and analyze_form: the same ranked analyses as analyzeForm', async () => {
    const text = new TextService({ morphology: () => morphology });
    assert.deepEqual(await text.analyzeFormInSlices('hawatakipenda', 'swh'), text.analyzeForm('hawatakipenda', 'swh'));
  });

  it('a text of long words: analysed in slices, each word read as the engine reads it alone', async () => {
    const text = new TextService({ morphology: () => morphology, limits: { sliceMs: 0 } });
    const words = [long, 'Ninakupenda', 'sana'];
    const analysed = await withTurns(() => text.analyzeText('swh', words.join(' ')));
    assert.ok(analysed.value.ok, analysed.value.ok ? '' : analysed.value.message);
    assert.equal(analysed.value.value.tokens.length, 3);
    assert.ok(analysed.turns >= 3, `the loop turned ${analysed.turns} times`);
    const alone = new TextService({ morphology: () => morphology });
    const once = alone.analyzeForm('sana', 'swh');
    assert.ok(once.ok);
    assert.ok(
      analysed.value.value.tokens[2]!.analyses.some((r) => once.value.some((a) => a.lemma === r.lemma)),
      'sana has a reading of its own analysis',
    );
  });
});

describe('batch generation in slices', () => {
  it('the loop turns between forms; each form is the one conjugate gives', async () => {
    const plan = planBatch(morphology, { language: 'swh', paradigm: { roots: ['penda', 'soma'], tenses: ['present', 'past'], polarity: ['positive', 'negative'] } });
    assert.ok(plan.ok, plan.ok ? '' : plan.message);
    const sliced = await withTurns(() => runBatchInSlices(morphology, plan.value, 0));
    assert.equal(sliced.value.length, plan.value.size);
    assert.ok(sliced.turns >= plan.value.size - 1, `${sliced.turns} turns for ${plan.value.size} forms`);
    const inputs = [...plan.value.inputs()];
    sliced.value.forEach((r, i) => {
      const direct = morphology.conjugate(inputs[i]!);
      assert.ok(r.ok && direct.ok);
      assert.deepEqual(r.result, direct.value);
    });
  });
});
