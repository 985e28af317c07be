// Pins the learnt text models' background load (what `lugha serve` warms with): for every shipped model it gives exactly the model `loadModel` reads, while the event loop keeps turning; and a TextService asked for one language by a warm-up and a request at once loads it once.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { packageRoot } from '../src/config.js';
import { loadModel, loadModelInBackground } from '../src/text/learned-model.js';
import { openLanguageCodes, openMorphology } from '../src/services.js';
import { TextService, type TextAnalyzerFactory } from '../src/text/service.js';
import type { TextAnalyzer } from '../src/text/types.js';
import { tempDir } from './helpers.js';

const languagesDir = path.join(packageRoot, 'languages');
const shipped = ['zul', 'xho', 'ssw', 'nbl'];

describe('loadModelInBackground', () => {
  for (const iso of shipped) {
    it(`reads the ${iso} model exactly as loadModel does, letting timers run meanwhile`, async () => {
      const dir = path.join(languagesDir, iso, 'text');
      let turns = 0;
      let last = performance.now();
      let worst = 0;
      let ticking = true;
      const tick = (): void => {
        const now = performance.now();
        worst = Math.max(worst, now - last);
        last = now;
        turns++;
        if (ticking) setImmediate(tick);
      };
      setImmediate(tick);
      const background = await loadModelInBackground(dir, 5);
      ticking = false;
      const direct = loadModel(dir);
      assert.ok(direct && background);
      assert.deepStrictEqual(background, direct);
      // The load took several turns of the event loop (the synchronous one takes 100-250 ms at once).
      assert.ok(turns >= 5, `${iso}: the event loop turned ${turns} times during the load (worst gap ${worst.toFixed(0)} ms)`);
    });
  }

  it('gives null for a folder without a model, as loadModel does', async () => {
    const dir = tempDir();
    assert.equal(await loadModelInBackground(dir), null);
    assert.equal(loadModel(dir), null);
  });
});

describe('TextService.load', () => {
  const morphology = openMorphology({ languagesDir }, openLanguageCodes(), { only: ['zul'] });
  /** A factory whose background load takes a few turns of the event loop and counts how often it runs. */
  function slowFactory() {
    const counts = { sync: 0, background: 0 };
    const analyzer: TextAnalyzer = { language: 'zul', analyzeTokens: (tokens) => tokens.map(() => []) };
    const factory: TextAnalyzerFactory = Object.assign(
      () => {
        counts.sync++;
        return analyzer;
      },
      {
        inBackground: async () => {
          counts.background++;
          for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
          return analyzer;
        },
      },
    );
    return { analyzer, counts, factory };
  }

  it('loads a language once when a warm-up and a request ask for it together, and the request waits for it', async () => {
    const { analyzer, counts, factory } = slowFactory();
    const service = new TextService({ morphology: () => morphology, factories: [factory] });
    const [, text] = await Promise.all([service.load('zul'), service.analyzeText('zul', 'Yebo.'), service.prepare('zul')]);
    assert.ok(text.ok);
    assert.equal(text.value.analyzer, 'learned');
    assert.deepEqual(counts, { sync: 0, background: 1 });
    const chosen = service.analyzer('zul');
    assert.ok(chosen.ok);
    assert.equal(chosen.value.analyzer, analyzer);
    assert.deepEqual(counts, { sync: 0, background: 1 });
  });

  it('keeps the synchronous choice when a caller cannot wait for a load in flight', async () => {
    const { counts, factory } = slowFactory();
    const service = new TextService({ morphology: () => morphology, factories: [factory] });
    const loading = service.load('zul');
    const first = service.analyzer('zul');
    await loading;
    const again = service.analyzer('zul');
    assert.ok(first.ok && again.ok);
    assert.equal(first.value.analyzer, again.value.analyzer);
    assert.deepEqual(counts, { sync: 1, background: 1 });
  });
});
