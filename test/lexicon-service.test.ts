// Pins the lexicon service that search_roots, get_noun_classes and decompose_morphemes map to, called
// directly as REST or the CLI would: its answers are built from each cartridge's own files (no form here
// is written by hand), and its failures name the parameter and the values it accepts.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { packageRoot } from '../src/config.js';
import { decompose, decompositionSchema, lexiconSearchResultSchema, nounClasses, nounClassesSchema, searchLexicon } from '../src/lexicon-service.js';
import { openMorphology } from '../src/services.js';

const morphology = openMorphology({ languagesDir: path.join(packageRoot, 'languages') });
const installed = morphology.languages().map((l) => l.iso);

describe('lexicon search', () => {
  it('finds every verb of a lexicon by its own lemma, lemma matches first and sorted, within the limit', () => {
    for (const iso of installed) {
      const engine = morphology.engine(iso);
      assert.ok(engine.ok);
      const verb = engine.value.cartridge.lexicon.find((e) => e.word_class === 'verb' && !e.lemma.includes(' '));
      if (!verb) continue;
      const prefix = verb.lemma.slice(0, 3);
      const found = searchLexicon(morphology, { language: iso, query: `-${prefix}-`, limit: 5 });
      assert.ok(found.ok, iso);
      const result = lexiconSearchResultSchema.parse(found.value);
      assert.equal(result.language, iso);
      assert.ok(result.entries.length <= 5 && result.total >= result.entries.length, iso);
      const lemmaMatches = result.entries.filter((e) => e.match === 'lemma');
      assert.ok(lemmaMatches.length > 0, `${iso}: ${prefix}`);
      assert.deepEqual(result.entries.slice(0, lemmaMatches.length), lemmaMatches, `${iso}: lemma matches come first`);
      for (const e of lemmaMatches) assert.ok(e.lemma.toLowerCase().startsWith(prefix.toLowerCase()), `${iso}: ${e.lemma}`);
      assert.deepEqual(
        lemmaMatches.map((e) => e.lemma),
        lemmaMatches.map((e) => e.lemma).sort((a, b) => a.localeCompare(b)),
        `${iso}: sorted`,
      );
      const all = searchLexicon(morphology, { language: iso, query: verb.lemma, word_class: 'verb', limit: 100 });
      assert.ok(all.ok && all.value.entries.some((e) => e.lemma === verb.lemma && e.word_class === 'verb' && e.source === verb.source), iso);
    }
  });

  it('finds a lexicon entry by a whole word of its gloss, never by part of a word', () => {
    const engine = morphology.engine('swh');
    assert.ok(engine.ok);
    const entry = engine.value.cartridge.lexicon.find((e) => /^[a-z]{5,}$/.test(e.gloss.split(/\s+/)[0] ?? ''))!;
    const word = entry.gloss.split(/\s+/)[0]!;
    const found = searchLexicon(morphology, { language: 'swh', query: word, limit: 100 });
    assert.ok(found.ok);
    assert.ok(found.value.entries.some((e) => e.lemma === entry.lemma));
    const part = word.slice(1);
    const partial = searchLexicon(morphology, { language: 'swh', query: part, limit: 100 });
    assert.ok(partial.ok);
    const wholeWord = new RegExp(`(^|[^\\p{L}])${part}([^\\p{L}]|$)`, 'u');
    for (const e of partial.value.entries.filter((x) => x.match === 'gloss')) assert.match(e.gloss.toLowerCase(), wholeWord, e.lemma);
  });

  it('refuses an unknown language on `language`, listing the installed ones', () => {
    const found = searchLexicon(morphology, { language: 'xyz', query: 'a' });
    assert.ok(!found.ok);
    assert.equal(found.parameter, 'language');
    assert.deepEqual(found.allowed, installed);
  });

  it('refuses an unknown language without reading any cartridge (a refusal must not cost a load of every language)', () => {
    const fresh = openMorphology({ languagesDir: path.join(packageRoot, 'languages') }, undefined, { frameCache: false, cartridgeCache: false });
    for (const language of ['xyz', 'file:///etc/passwd']) {
      const found = searchLexicon(fresh, { language, query: 'a' });
      assert.ok(!found.ok, language);
      assert.deepEqual(found.allowed, installed, language);
    }
    assert.deepEqual(
      installed.filter((iso) => fresh.loaded(iso)),
      [],
    );
  });
});

describe('noun classes', () => {
  it("lists the agreement table's classes of every language that has one, each with a source", () => {
    const withClasses = installed.filter((iso) => nounClasses(morphology, iso).ok);
    assert.ok(withClasses.length > 0);
    for (const iso of withClasses) {
      const found = nounClasses(morphology, iso);
      assert.ok(found.ok);
      const result = nounClassesSchema.parse(found.value);
      assert.ok(result.classes.length > 0, iso);
      for (const c of result.classes) assert.ok(c.source.length > 0 && /^c\d/.test(c.id), `${iso}: ${c.id}`);
    }
    for (const iso of installed.filter((i) => !withClasses.includes(i))) {
      const refused = nounClasses(morphology, iso);
      assert.ok(!refused.ok);
      assert.equal(refused.parameter, 'language');
      assert.deepEqual(refused.allowed, withClasses);
    }
  });
});

describe('decomposition', () => {
  it("splits a generated form into the generator's own morphs, and gives none for a word with no analysis", () => {
    const engine = morphology.engine('swh');
    assert.ok(engine.ok);
    const verb = engine.value.cartridge.lexicon.find((e) => e.word_class === 'verb' && !e.lemma.includes(' '))!;
    const generated = morphology.conjugate({ language: 'swh', root: verb.lemma, subject: '1sg', tense: engine.value.generator.tenseIds[0]! });
    assert.ok(generated.ok);
    const form = generated.value.surface_form;
    const found = decompose(morphology, form, 'swh');
    assert.ok(found.ok);
    const result = decompositionSchema.parse(found.value);
    assert.ok(result.decompositions.length > 0, form);
    for (const d of result.decompositions) {
      assert.equal(
        d.segmentation,
        d.words
          .map((w) =>
            w.morphemes
              .map((m) => m.form)
              .filter(Boolean)
              .join('-'),
          )
          .join(' '),
      );
      assert.equal(d.segmentation.replace(/-/g, ''), form);
    }
    const none = decompose(morphology, 'qqqqzzzz', 'swh');
    assert.ok(none.ok);
    assert.deepEqual(none.value.decompositions, []);
  });
});
