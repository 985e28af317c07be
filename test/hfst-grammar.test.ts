// Pins Lugha's grammar transducers (`lugha hfst build`): each cartridge's verb template exported as lexc and its boundary rules as xfst, compiled by the HFST tools, agree with the template engine on the golden paradigms, and the open root class analyses a verb the lexicon does not list.
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../src/config.js';
import { checkAgreement, goldenVerbLemmas, type AgreementReport } from '../src/hfst/agreement.js';
import { buildCartridgeModelsAsync, lughaModelNames, type BuiltLanguage } from '../src/hfst/build.js';
import { exportVerbLexc } from '../src/hfst/cartridge-export.js';
import { Transducer } from '../src/hfst/transducer.js';
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

function engineOf(iso: string) {
  const engine = morphology.engine(iso);
  if (!engine.ok) throw new Error(engine.message);
  return engine.value;
}

/**
 * A lexicon verb the build leaves out, so that only the open root class can analyse it: the
 * first one outside the golden tests that the engine inflects as it would an unknown verb
 * (no lexicon flags, regular final vowel, consonant-initial and consonant-final root with a vowel),
 * and that is not another lexicon verb's stem with an extension (fundisa of funda: the lexicon
 * reads every form of it as funda's causative, so nothing would be left to the guesser).
 */
function heldOutLemma(iso: string): string | undefined {
  const { cartridge, generator } = engineOf(iso);
  const golden = new Set(goldenVerbLemmas(cartridge));
  const vowel = /[aeiouáéíóúàèìòùâêîôûāēīōū]/u;
  const verbs = cartridge.lexicon.filter((e) => e.word_class === 'verb').map((e) => e.lemma);
  const derived = (lemma: string) => verbs.some((other) => other.length > 2 && lemma.length > other.length && lemma.startsWith(other.slice(0, -1)));
  return cartridge.lexicon.find((e) => {
    if (e.word_class !== 'verb' || golden.has(e.lemma) || e.flags.length > 0 || /[\s-]/u.test(e.lemma) || derived(e.lemma)) return false;
    const lexeme = generator.lexeme(e.lemma);
    const root = [...lexeme.root];
    return lexeme.ownFinalVowel === null && !lexeme.enclitic && !lexeme.short && root.length > 1 && !vowel.test(root[0]!) && !vowel.test(root.at(-1)!) && root.some((c) => vowel.test(c));
  })?.lemma;
}

function defaultLemmas(iso: string, leave: string | undefined): string[] {
  const { cartridge } = engineOf(iso);
  const lexicon = cartridge.lexicon.filter((e) => e.word_class === 'verb').map((e) => e.lemma);
  return [...new Set([...lexicon, ...goldenVerbLemmas(cartridge)])].filter((l) => l !== leave);
}

/**
 * A lemma the template lexicon cannot hold: a lexicon verb of the first cartridge with enclitics,
 * cited with its first enclitic. It is added to that cartridge's build (rather than built alone:
 * a build compiles the whole prefix lexicon with the rules, CPU minutes for the largest grammars).
 */
function encliticCase(): { iso: string; base: string; lemma: string } | undefined {
  const iso = languages.map((l) => l.iso).find((code) => engineOf(code).cartridge.verbs?.enclitics);
  if (!iso) return undefined;
  const { cartridge } = engineOf(iso);
  const verbs = cartridge.verbs!;
  const base = cartridge.lexicon.find((e) => e.word_class === 'verb' && e.lemma.endsWith(verbs.default_fv) && !/\s/u.test(e.lemma))!.lemma;
  return { iso, base, lemma: `${base}${verbs.enclitics!.forms[0]}` };
}

describe("Lugha's grammar transducers (lexc + xfst rules) built from the cartridges", { skip: hfst ? false : HFST_MISSING }, () => {
  let models: string;
  const built = new Map<string, BuiltLanguage>();
  const heldOut = new Map<string, string | undefined>();
  const enclitic = encliticCase();
  before(async () => {
    models = tempDir('lugha-hfst-grammar-');
    const lemmasOf = new Map<string, string[]>();
    for (const l of languages) {
      heldOut.set(l.iso, heldOutLemma(l.iso));
      const lemmas = defaultLemmas(l.iso, heldOut.get(l.iso));
      if (enclitic?.iso === l.iso) lemmas.push(enclitic.lemma);
      lemmasOf.set(l.iso, lemmas);
    }
    // Each language with its own lemmas, the languages side by side on every core.
    const all = await buildCartridgeModelsAsync({ morphology, outDir: models, languages: languages.map((l) => l.iso), lemmasOf });
    for (const b of all) built.set(b.iso, b);
  });
  after(() => rmSync(models, { recursive: true, force: true }));

  it('builds a grammar model for every cartridge with a verb grammar, with its rules translated', () => {
    assert.ok(languages.length >= 5, `${languages.length} cartridges with verbs`);
    for (const l of languages) {
      const b = built.get(l.iso);
      assert.ok(b, `${l.iso}: no model`);
      assert.equal(b.kind, 'grammar');
      assert.equal(b.forms, 0, 'the lexicon lists morphs, not forms');
      const rules = engineOf(l.iso).cartridge.rules.length;
      assert.ok(b.rules.translated + b.rules.unsupported.length <= rules);
    }
  });

  const reports = new Map<string, AgreementReport>();
  for (const language of languages) {
    it(`${language.iso}: agrees with the engine on the golden paradigms`, (t) => {
      const { cartridge, generator } = engineOf(language.iso);
      const names = lughaModelNames(language.iso);
      const analyser = Transducer.load(readFileSync(path.join(models, `${names.analyser}.hfstol`)));
      const generatorModel = Transducer.load(readFileSync(path.join(models, `${names.generator}.hfstol`)));
      // Generation is checked on every form (the generator's prefix paths are walked once for all of them).
      const report = checkAgreement({ cartridge, generator, analyser, generatorModel });
      reports.set(language.iso, report);
      const b = built.get(language.iso)!;
      const pct = ((100 * report.agreed) / report.forms).toFixed(1);
      t.diagnostic(
        `${language.iso}: ${report.agreed}/${report.forms} forms agree (${pct}%); analysed ${report.analysed}, generated ${report.generated}/${report.generationChecked}, ` +
          `round-trip failures ${report.roundTripFailures}; rules ${b.rules.translated} translated, ${b.rules.unsupported.length} not expressible` +
          (b.rules.unsupported.length ? ` (${b.rules.unsupported.map((r) => r.id).join(', ')})` : '') +
          `; exceptions ${b.exceptions.length}`,
      );
      for (const d of report.disagreements.slice(0, 5)) t.diagnostic(`  ${d.problem}: ${d.analysis} engine=${d.engine} transducer=${d.transducer.slice(0, 4).join('|')}`);
      assert.ok(report.forms > 20, `${report.forms} forms`);
      assert.equal(report.generationChecked, report.forms);
      if (b.rules.unsupported.length === 0) {
        // Every rule translated: the transducer must be the engine, form for form.
        assert.deepEqual(report.disagreements, []);
        assert.equal(report.agreed, report.forms);
      } else {
        // Rules the translator cannot express cost forms, but no more than they touch.
        assert.ok(report.agreed / report.forms >= 0.85, `${pct}% agreement`);
      }
      // The analyser holds the lexicon only: no guesses beside a lexicon verb's analyses.
      const sample = exportVerbLexc(cartridge, generator, { lemmas: goldenVerbLemmas(cartridge) })!.forms.slice(0, 50);
      for (const form of sample) {
        const outputs = analyser.lookup(form.surface).results.map((r) => r.output);
        assert.ok(outputs.length > 0 && outputs.every((o) => !o.endsWith('+Guess')), `${form.surface}: ${outputs.join(', ')}`);
      }
    });
  }

  it('guesses verbs whose root is not in the lexicon, tagged +Guess, as the engine inflects them', () => {
    let languagesChecked = 0;
    for (const language of languages) {
      const lemma = heldOut.get(language.iso);
      const b = built.get(language.iso);
      if (!lemma || !b?.guesser) continue;
      const { cartridge, generator } = engineOf(language.iso);
      const names = lughaModelNames(language.iso);
      assert.equal(b.guesserFile, `${names.guesser}.hfstol`);
      const analyser = Transducer.load(readFileSync(path.join(models, `${names.analyser}.hfstol`)));
      const guesser = Transducer.load(readFileSync(path.join(models, `${names.guesser}.hfstol`)));
      const forms = exportVerbLexc(cartridge, generator, { lemmas: [lemma] })!.forms;
      assert.ok(forms.length > 0, `${language.iso}: no forms of ${lemma}`);
      let unread = 0;
      for (const form of forms) {
        const outputs = analyser.lookup(form.surface).results.map((r) => r.output);
        assert.ok(!outputs.includes(form.analysis), `${form.surface}: the held-out ${lemma} is not in the built lexicon`);
        if (outputs.length === 0) unread++;
        const guesses = guesser.lookup(form.surface).results.map((r) => r.output);
        assert.ok(guesses.includes(`${form.analysis}+Guess`), `${language.iso} ${form.surface}: ${guesses.slice(0, 6).join(', ')} lacks ${form.analysis}+Guess`);
        assert.ok(
          guesses.every((g) => g.endsWith('+Guess')),
          `${form.surface}: the guesser has no lexicon`,
        );
      }
      // Forms the lexicon can read as another verb (Zulu bona: the object bu- + ona) get no guess
      // through the fallback, as in GiellaLT; the others are left to it.
      assert.ok(unread > 0, `${language.iso}: the analyser read all ${forms.length} forms of ${lemma}`);
      languagesChecked++;
    }
    assert.ok(languagesChecked >= 5, `${languagesChecked} languages with a held-out verb`);
  });

  it('routes a lemma the template lexicon cannot hold (cited with an enclitic) through the exceptions lexicon', () => {
    assert.ok(enclitic, 'a cartridge with enclitics');
    const { iso, base, lemma } = enclitic;
    const { cartridge, generator } = engineOf(iso);
    // A mechanism check: a lexicon verb with the cartridge's first enclitic, inflected by the engine,
    // in the same build as its base verb, which stays in the template lexicon.
    assert.ok(generator.lexeme(lemma).enclitic);
    const b = built.get(iso)!;
    const routed = b.exceptions.filter((e) => e.lemma === lemma || e.lemma === base);
    assert.deepEqual(
      routed.map((e) => e.lemma),
      [lemma],
    );
    const forms = exportVerbLexc(cartridge, generator, { lemmas: [lemma] })!.forms;
    assert.ok(forms.length > 0);
    assert.equal(routed[0]!.forms, forms.length);
    const analyser = Transducer.load(readFileSync(path.join(models, `${lughaModelNames(iso).analyser}.hfstol`)));
    for (const form of forms)
      assert.ok(
        analyser.lookup(form.surface).results.some((r) => r.output === form.analysis),
        `${form.surface}: ${form.analysis}`,
      );
  });

  it("serves the guesser as the analyser's fallback over REST: an unlisted verb is analysed by /api/v1/hfst/analyze", async () => {
    const iso = languages.map((l) => l.iso).find((code) => heldOut.get(code) && built.get(code)?.guesser)!;
    const lemma = heldOut.get(iso)!;
    const { cartridge, generator } = engineOf(iso);
    const names = lughaModelNames(iso);
    const analyser = Transducer.load(readFileSync(path.join(models, `${names.analyser}.hfstol`)));
    // A form of the held-out verb that the lexicon cannot read as another verb.
    const form = exportVerbLexc(cartridge, generator, { lemmas: [lemma] })!.forms.find((f) => f.analysis.includes('+S/') && analyser.lookup(f.surface).results.length === 0)!;
    assert.ok(form, `${iso}: every form of ${lemma} reads as another verb`);
    const h = await harness({ flags: { modelsDir: models } });
    try {
      const { key } = await h.issue('academic');
      const listed = await h.call(key, { method: 'GET', url: `/api/v1/hfst/models?language=${iso}` });
      const byName = new Map((listed.json().data as Array<{ name: string; fallback: string | null; direction: string }>).map((m) => [m.name, m]));
      assert.equal(byName.get(names.analyser)?.fallback, names.guesser);
      assert.equal(byName.get(names.guesser)?.direction, 'analyse');
      const analysed = await h.call(key, { method: 'POST', url: '/api/v1/hfst/analyze', payload: { model: names.analyser, inputs: [form.surface] } });
      assert.equal(analysed.statusCode, 200, analysed.body);
      const item = analysed.json().data[0] as { results: Array<{ output: string }>; model: string; fallback?: string };
      assert.ok(item.results.map((r) => r.output).includes(`${form.analysis}+Guess`), JSON.stringify(item));
      assert.equal(item.model, names.analyser);
      assert.equal(item.fallback, names.guesser, 'says that the guesser answered');
      const strict = await h.call(key, { method: 'POST', url: '/api/v1/hfst/analyze', payload: { model: names.analyser, inputs: [form.surface], fallback: false } });
      assert.deepEqual(strict.json().data[0].results, [], 'without the fallback, the analyser alone does not know the verb');
      assert.equal(strict.json().data[0].fallback, undefined);
      // A lexicon verb is answered by the analyser alone, without guesses.
      const known = exportVerbLexc(cartridge, generator, { lemmas: [goldenVerbLemmas(cartridge)[0]!] })!.forms[0]!;
      const direct = await h.call(key, { method: 'POST', url: '/api/v1/hfst/analyze', payload: { model: names.analyser, inputs: [known.surface] } });
      const knownItem = direct.json().data[0] as { results: Array<{ output: string }>; fallback?: string };
      assert.ok(
        knownItem.results.some((r) => r.output === known.analysis),
        JSON.stringify(knownItem),
      );
      assert.equal(knownItem.fallback, undefined);
    } finally {
      await h.close();
    }
  });
});
