// Pins Lugha's table transducers (`lugha hfst build --kind table`): every cartridge with a verb grammar exports its paradigm tables to lexc, compiles with the HFST tools, and the analyser and generator agree with the template engine on every form of the golden lemmas' paradigms. (The grammar build is pinned by test/hfst-grammar.test.ts.)
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { goldenCases, runGolden } from '../src/cartridge/golden.js';
import { loadConfig } from '../src/config.js';
import { buildCartridgeModelsAsync, lughaModelNames } from '../src/hfst/build.js';
import { analysisOf, cellOfAnalysis, exportVerbLexc } from '../src/hfst/cartridge-export.js';
import { formatLookupBlock } from '../src/hfst/lookup-format.js';
import { Transducer } from '../src/hfst/transducer.js';
import type { Cell } from '../src/morphology/generator.js';
import type { MorphologyService } from '../src/morphology/service.js';
import { openMorphology } from '../src/services.js';
import { HFST_MISSING, hfstForTests } from './hfst-fixtures.js';
import { harness, tempDir } from './helpers.js';

const hfst = hfstForTests();
const morphology: MorphologyService = openMorphology(loadConfig({ env: {} }));
const languages = morphology.languages().filter((l) => {
  const engine = morphology.engine(l.iso);
  return engine.ok && engine.value.cartridge.verbs !== undefined;
});

/** The verb lemmas of a cartridge's golden tests. */
function goldenLemmas(iso: string): string[] {
  const engine = morphology.engine(iso);
  if (!engine.ok) throw new Error(engine.message);
  return [...new Set((engine.value.cartridge.golden?.tests ?? []).filter((t) => (t.cell.word_class ?? 'verb') === 'verb').map((t) => t.lemma))];
}

describe("Lugha's transducers built from the cartridges", { skip: hfst ? false : HFST_MISSING }, () => {
  let models: string;
  before(async () => {
    models = tempDir('lugha-hfst-cartridges-');
    // Each language with its golden lemmas, the languages side by side on every core.
    const lemmasOf = new Map(languages.map((l) => [l.iso, goldenLemmas(l.iso)]));
    await buildCartridgeModelsAsync({ morphology, outDir: models, languages: languages.map((l) => l.iso), lemmasOf, kind: 'table' });
  });
  after(() => rmSync(models, { recursive: true, force: true }));

  it('covers every installed cartridge with a verb grammar', () => {
    assert.ok(languages.length >= 5, `${languages.length} cartridges with verbs`);
  });

  for (const language of languages) {
    it(`${language.iso}: analyser and generator agree with the engine on every form of the golden paradigms`, () => {
      const engine = morphology.engine(language.iso);
      assert.ok(engine.ok);
      const { generator: engineGenerator } = engine.value;
      const exported = exportVerbLexc(engine.value.cartridge, engineGenerator, { lemmas: goldenLemmas(language.iso) })!;
      const names = lughaModelNames(language.iso);
      const analyser = Transducer.load(readFileSync(path.join(models, `${names.analyser}.hfstol`)));
      const generator = Transducer.load(readFileSync(path.join(models, `${names.generator}.hfstol`)));
      assert.ok(exported.forms.length > 20, `${exported.forms.length} forms`);
      for (const { analysis, surface } of exported.forms) {
        const generated = generator.lookup(analysis).results.map((r) => r.output);
        assert.ok(generated.includes(surface), `generate ${analysis}: ${generated.join(', ')} lacks ${surface}`);
        const analyses = analyser.lookup(surface).results.map((r) => r.output);
        assert.ok(analyses.includes(analysis), `analyse ${surface}: ${analyses.join(', ')} lacks ${analysis}`);
        // Every analysis the transducer gives is one the engine generates back to the same word.
        for (const other of analyses) {
          const parsed = cellOfAnalysis(other);
          assert.ok(parsed, `unreadable analysis ${other}`);
          assert.equal(engine.value.written(engineGenerator.generate(parsed.lemma, parsed.cell).surface), surface, `${other}`);
        }
      }
      // The golden cells themselves: where the engine gives the textbook form, so does the transducer.
      let agreed = 0;
      for (const test of goldenCases(engine.value.cartridge.golden)) {
        if (test.cell.word_class !== 'verb') continue;
        let cell: Cell;
        let form: string;
        try {
          cell = engineGenerator.canonical(test.cell);
          form = engine.value.written(engineGenerator.generate(test.lemma, cell).surface);
        } catch {
          continue; // the engine cannot make this cell either (counted as failing by the golden runner)
        }
        assert.ok(
          generator.lookup(analysisOf(test.lemma, cell)).results.some((r) => r.output === form),
          `${test.lemma} ${JSON.stringify(test.cell)}`,
        );
        if (form === test.form) agreed++;
      }
      assert.equal(agreed, goldenVerbPassing(language.iso), 'the transducer passes the golden tests the engine passes');
    });
  }

  it('spell as the standard orthography does where it leaves the optional marks out, and read words with or without them', () => {
    let checked = 0;
    for (const language of languages) {
      const engine = morphology.engine(language.iso);
      assert.ok(engine.ok);
      const { cartridge, generator: engineGenerator } = engine.value;
      const marks = Object.keys(cartridge.metadata.orthography.optional_marks);
      if (cartridge.metadata.orthography.written !== false || marks.length === 0) continue;
      const names = lughaModelNames(language.iso);
      const analyser = Transducer.load(readFileSync(path.join(models, `${names.analyser}.hfstol`)));
      const generator = Transducer.load(readFileSync(path.join(models, `${names.generator}.hfstol`)));
      for (const { analysis, surface } of exportVerbLexc(cartridge, engineGenerator, { lemmas: goldenLemmas(language.iso) })!.forms) {
        const cell = cellOfAnalysis(analysis)!;
        const noted = engineGenerator.generate(cell.lemma, cell.cell).surface;
        if (!marks.some((m) => noted.includes(m))) continue;
        checked++;
        assert.deepEqual(
          generator.lookup(analysis).results.map((r) => r.output),
          [surface],
          `${analysis}: generated without the marks, as ${surface}`,
        );
        assert.ok(!marks.some((m) => surface.includes(m)), surface);
        for (const word of [surface, noted])
          assert.ok(
            analyser.lookup(word).results.some((r) => r.output === analysis),
            `analyse ${word}: lacks ${analysis}`,
          );
      }
    }
    assert.ok(checked > 20, `${checked} forms noted with optional marks`);
  });

  it('reads as hfst-optimized-lookup reads the same transducers', () => {
    for (const language of languages.slice(0, 3)) {
      const engine = morphology.engine(language.iso);
      assert.ok(engine.ok);
      const exported = exportVerbLexc(engine.value.cartridge, engine.value.generator, { lemmas: goldenLemmas(language.iso) })!;
      const file = path.join(models, `${lughaModelNames(language.iso).analyser}.hfstol`);
      const words = [...new Set(exported.forms.map((f) => f.surface))];
      const run = spawnSync('hfst-optimized-lookup', ['--pipe-mode=input', file], { input: words.map((w) => `${w}\n`).join(''), maxBuffer: 1 << 28 });
      const t = Transducer.load(readFileSync(file));
      assert.equal(words.map((w) => formatLookupBlock(w, t.lookup(w), { weighted: false, showWeights: false })).join(''), run.stdout.toString(), language.iso);
    }
  });

  it('are listed as Lugha models and downloadable byte for byte over REST', async () => {
    const h = await harness({ flags: { modelsDir: models } });
    try {
      const { key } = await h.issue('academic');
      const list = (await h.call(key, '/api/v1/hfst/models?per_page=200')).json().data as Array<{ name: string; origin: string; language: string; direction: string }>;
      assert.equal(list.length, languages.length * 2);
      assert.ok(list.every((m) => m.origin === 'lugha'));
      const iso = languages[0]!.iso;
      const name = lughaModelNames(iso).generator;
      const download = await h.call(key, `/api/v1/hfst/models/${name}/download`);
      assert.equal(download.statusCode, 200);
      assert.equal(download.headers['content-type'], 'application/octet-stream');
      assert.deepEqual(download.rawPayload, readFileSync(path.join(models, `${name}.hfstol`)));
      const engine = morphology.engine(iso);
      assert.ok(engine.ok);
      const [form] = exportVerbLexc(engine.value.cartridge, engine.value.generator, { lemmas: goldenLemmas(iso) })!.forms;
      const generated = await h.call(key, { method: 'POST', url: '/api/v1/hfst/generate', payload: { language: iso, inputs: [form!.analysis] } });
      assert.equal(generated.statusCode, 200, generated.body);
      assert.ok(generated.json().data[0].results.some((r: { output: string }) => r.output === form!.surface));
    } finally {
      await h.close();
    }
  });
});

/** Golden verb tests the engine passes for a language (a gloss marked gloss_open still has its form right). */
function goldenVerbPassing(iso: string): number {
  const engine = morphology.engine(iso);
  if (!engine.ok) throw new Error(engine.message);
  return runGolden(engine.value.cartridge, engine.value, ['generation']).filter((o) => o.case.cell.word_class === 'verb' && (o.status === 'pass' || o.status === 'open')).length;
}
