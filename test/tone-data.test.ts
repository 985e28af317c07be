// Pins the tone data: every cartridge's golden tone cases pass through the generic runner (open ones still fail, with their reason), every declared rule is shown by a passing case, every tone fact names a source the file or cartridge cites, tonal and minimal pairs are reproducible from the data, the tone capability of the status API is measured by the golden cases, and the tone services answer as their schemas say.
import assert from 'node:assert/strict';
import { readdirSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { packageRoot } from '../src/config.js';
import { readTsv } from '../src/language-codes.js';
import { openLanguageCodes, openMorphology } from '../src/services.js';
import { minimalPairSchema, predictTonesOutputSchema, tonalPairSchema } from '../src/tone/api.js';
import { capabilityEvaluators, COMPLETE_TONE_GOLDEN_MIN, scoreGolden } from '../src/coverage/capabilities.js';
import { scoreToneGolden } from '../src/tone/golden.js';
import { stripTones } from '../src/tone/marks.js';
import { graphemes, readReferenceTone, toneString } from '../src/tone/pairs.js';
import { ToneService } from '../src/tone/service.js';

const languagesDir = path.join(packageRoot, 'languages');
const referenceDir = path.join(packageRoot, 'reference', 'tone');
const codes = openLanguageCodes();
const morphology = openMorphology({ languagesDir }, codes);
const tone = new ToneService({ morphology, codes, referenceDir });
const toneFiles = readdirSync(languagesDir).filter((iso) => existsSync(path.join(languagesDir, iso, 'tone.yaml')));

describe('golden tone cases (generic runner over every tone.yaml)', () => {
  const results = tone.golden();

  it('finds tone data and golden cases', () => {
    assert.ok(toneFiles.length >= 1);
    assert.ok(results.length >= 1);
  });

  for (const r of results) {
    if (r.open) {
      it(`${r.language}: ${r.root} ${JSON.stringify(r.cell ?? {})} -> ${r.expect} is open and still not reproduced (close it when it is)`, () => {
        assert.equal(r.pass, false, `${r.language} ${r.root}: the engine now gives ${r.actual}; remove \`open\` from this case`);
        assert.notEqual(r.actual, r.respelled ?? r.expect);
      });
      continue;
    }
    it(`${r.language}: ${r.root} ${JSON.stringify(r.cell ?? {})} -> ${r.expect}`, () => {
      assert.equal(r.actual, r.respelled ?? r.expect, r.note ?? '');
      assert.equal(r.pass, true);
    });
  }

  it('tonal pairs among the golden cases (same segments, different tones) are told apart by the engine', () => {
    const closed = results.filter((r) => !r.open && r.pass);
    const pairs = closed.flatMap((a, i) =>
      closed
        .slice(i + 1)
        .filter((b) => b.language === a.language && stripTones(b.expect) === stripTones(a.expect) && b.expect !== a.expect)
        .map((b) => [a, b] as const),
    );
    assert.ok(pairs.length >= 1, 'no tonal pair among the golden cases');
    for (const [a, b] of pairs) {
      assert.notEqual(a.actual, b.actual);
      assert.deepEqual([a.actual, b.actual], [a.respelled ?? a.expect, b.respelled ?? b.expect]);
      assert.notDeepEqual(a.cell, b.cell);
    }
  });

  it('a respelt case changes segments only: the same tones as the form the source prints', () => {
    const respelt = results.filter((r) => r.respelled);
    assert.ok(respelt.length >= 1);
    for (const r of respelt) {
      assert.equal(toneString(r.respelled!), toneString(r.expect), `${r.language} ${r.expect} / ${r.respelled}`);
      assert.notEqual(stripTones(r.respelled!), stripTones(r.expect));
    }
  });

  it('conjugating with and without tones gives the same segments; the transcription strips to the surface form', () => {
    for (const r of results.filter((x) => x.actual !== null)) {
      const cell = r.cell ?? {};
      const input = { language: r.language, root: r.root!, ...(typeof cell.tense === 'string' ? { tense: cell.tense } : {}), ...(typeof cell.subject === 'string' ? { subject: cell.subject } : {}) };
      const plain = morphology.conjugate(input);
      const toned = morphology.conjugate({ ...input, include_tones: true });
      assert.ok(plain.ok && toned.ok);
      assert.equal(plain.value.surface_form, toned.value.surface_form);
      assert.equal(plain.value.tonal_analysis.status, 'not_requested');
      assert.equal(toned.value.tonal_analysis.status, 'analysed');
      assert.equal(stripTones(r.actual!), plain.value.surface_form);
      assert.equal(stripTones(toned.value.tonal_analysis.transcription!), plain.value.surface_form);
    }
  });

  it('every declared tone rule of a cartridge is exercised by a passing golden case', () => {
    for (const iso of toneFiles) {
      const found = morphology.engine(iso);
      assert.ok(found.ok);
      const rules = found.value.cartridge.tone?.rules ?? [];
      const applied = new Set<string>();
      for (const r of results.filter((x) => x.language === iso && x.pass)) {
        const cell = r.cell ?? {};
        const out = morphology.conjugate({
          language: iso,
          root: r.root!,
          include_tones: true,
          ...(typeof cell.tense === 'string' ? { tense: cell.tense } : {}),
          ...(typeof cell.subject === 'string' ? { subject: cell.subject } : {}),
        });
        assert.ok(out.ok);
        for (const w of out.value.tonal_analysis.words ?? []) for (const a of w.rules_applied) applied.add(a.id);
      }
      for (const rule of rules) assert.ok(applied.has(rule.id), `${iso}: rule ${rule.id} is not shown by any passing golden case`);
    }
  });
});

describe('tone coverage (status API) is measured by the golden tone cases', () => {
  const evaluator = capabilityEvaluators.find((e) => e.id === 'tone')!;
  const results = tone.golden();

  it('reports each cartridge with tone data at the level its golden cases earn, and none without tone.yaml', () => {
    for (const summary of morphology.languages()) {
      const found = morphology.engine(summary.iso);
      assert.ok(found.ok);
      const engine = found.value;
      const mine = results.filter((r) => r.language === summary.iso);
      const score = scoreToneGolden(mine);
      const status = evaluator.evaluate({ engine, languoid: undefined, measured: undefined, golden: scoreGolden(engine), ...(engine.cartridge.tone ? { tone: score } : {}) });
      if (!engine.cartridge.tone) {
        assert.equal(status.level, 'none', summary.iso);
        continue;
      }
      const expected = score.total === 0 ? 'declared' : score.passing === score.total && score.total >= COMPLETE_TONE_GOLDEN_MIN ? 'complete' : 'partial';
      assert.equal(status.level, expected, `${summary.iso}: ${status.evidence}`);
      if (score.total > 0) {
        assert.deepEqual(status.golden, { total: score.total, passing: score.passing });
        assert.match(status.evidence, new RegExp(`golden tone cases ${score.passing}/${score.total}`));
      }
      if (score.open > 0) assert.equal(status.level, 'partial');
    }
  });

  it('complete needs every case passing and at least the bar; open cases count as failing', () => {
    const found = morphology.engine(toneFiles[0]!);
    assert.ok(found.ok);
    const base = { engine: found.value, languoid: undefined, measured: undefined, golden: scoreGolden(found.value) };
    const bar = COMPLETE_TONE_GOLDEN_MIN;
    assert.equal(evaluator.evaluate({ ...base, tone: { total: bar, passing: bar, open: 0 } }).level, 'complete');
    assert.equal(evaluator.evaluate({ ...base, tone: { total: bar, passing: bar - 1, open: 1 } }).level, 'partial');
    assert.equal(evaluator.evaluate({ ...base, tone: { total: bar - 1, passing: bar - 1, open: 0 } }).level, 'partial');
    assert.equal(evaluator.evaluate({ ...base, tone: { total: 0, passing: 0, open: 0 } }).level, 'declared');
  });
});

describe('tone data carries its sources', () => {
  for (const iso of toneFiles) {
    it(`${iso}/tone.yaml: every source names a work the file or the cartridge cites`, () => {
      const data = parse(readFileSync(path.join(languagesDir, iso, 'tone.yaml'), 'utf8')) as Record<string, unknown>;
      const cartridge = parse(readFileSync(path.join(languagesDir, iso, 'cartridge.yaml'), 'utf8')) as { metadata: { sources?: Array<{ id: string }> } };
      const ids = new Set([...((data.sources as Array<{ id: string }> | undefined) ?? []).map((s) => s.id), ...(cartridge.metadata.sources ?? []).map((s) => s.id)]);
      const cited: string[] = [];
      const walk = (value: unknown, key?: string) => {
        if (key === 'source' && typeof value === 'string') cited.push(value);
        else if (Array.isArray(value)) value.forEach((v) => walk(v));
        else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) if (k !== 'sources') walk(v, k);
      };
      walk(data);
      assert.ok(cited.length > 0);
      for (const source of cited) {
        const named = source
          .replace(/\([^)]*\)/g, '')
          .split(';')
          .map((part) => part.trim().split(/\s/)[0]!);
        for (const id of named) assert.ok(ids.has(id), `${iso}: source "${source}" names "${id}", which neither tone.yaml nor cartridge.yaml cites`);
      }
    });
  }
});

describe('tonal pairs, reproducible from the data', () => {
  const pairs = tone.tonalPairs();
  assert.ok(pairs.ok);
  const bvd = readTsv(path.join(referenceDir, 'bantubvd.tsv'));

  it('every pair is one language, one segment string and at least two tone patterns, each item in its dataset', () => {
    assert.ok(pairs.value.length >= 50, `only ${pairs.value.length} pairs`);
    for (const pair of pairs.value) {
      tonalPairSchema.parse(pair);
      assert.ok(new Set(pair.items.map((i) => i.tones)).size >= 2, JSON.stringify(pair));
      for (const item of pair.items) {
        assert.equal(stripTones(item.form).toLowerCase(), pair.segments.toLowerCase());
        if (item.source.dataset === 'bantubvd') {
          assert.ok(
            bvd.some((r) => r.iso639_3 === pair.language && r.form?.normalize('NFC') === item.form && (r.concepticon_gloss || r.concept_id || '').toLowerCase() === item.gloss),
            `${pair.language} ${item.form} ${item.gloss} not in bantubvd.tsv`,
          );
        }
      }
    }
  });

  it('matches an independent count over the BVD file: stems equal without tone marks, different with them', () => {
    const groups = new Map<string, Set<string>>();
    for (const r of bvd) {
      if (r.has_tone_diacritic !== '1' || !r.form) continue;
      const form = r.form.normalize('NFC');
      const bare = form
        .normalize('NFD')
        .replace(/[\u0300\u0301\u0302\u030C\u0304\u030B\u030F]/g, '')
        .normalize('NFC')
        .toLowerCase();
      const k = `${r.iso639_3}|${bare}`;
      groups.set(k, (groups.get(k) ?? new Set()).add(form));
    }
    const expected = [...groups.entries()]
      .filter(([, forms]) => forms.size >= 2)
      .map(([k]) => k)
      .sort();
    const actual = pairs.value
      .filter((p) => p.items.some((i) => i.source.dataset === 'bantubvd'))
      .map((p) => `${p.language}|${p.segments.toLowerCase()}`)
      .sort();
    assert.deepEqual(actual, expected);
  });

  it('includes a pair the cartridges cite (a tone-marked word list in tone.yaml)', () => {
    const cited = pairs.value.filter((p) => p.items.every((i) => i.source.dataset === 'cartridge'));
    assert.ok(cited.length >= 1);
    for (const p of cited) assert.ok(toneFiles.includes(p.language));
  });

  it('filters by language (accepting an alias) and refuses a language without tone data', () => {
    const first = pairs.value[0]!;
    const one = tone.tonalPairs({ language: first.language.toUpperCase() });
    assert.ok(one.ok);
    assert.ok(one.value.length > 0 && one.value.every((p) => p.language === first.language));
    const withData = new Set(tone.languages().map((l) => l.language));
    const without = morphology
      .languages()
      .map((l) => l.iso)
      .find((iso) => !withData.has(iso));
    if (without) {
      const refused = tone.tonalPairs({ language: without });
      assert.equal(refused.ok, false);
      assert.equal(!refused.ok && refused.code, 'invalid_parameter');
    }
    const unknown = tone.tonalPairs({ language: 'qqq' });
    assert.equal(!unknown.ok && unknown.code, 'language_not_found');
  });
});

describe('minimal pairs', () => {
  it("split words into the same grapheme clusters as Intl.Segmenter (every reference item's segments, and odd text)", () => {
    const segmenter = new Intl.Segmenter('und', { granularity: 'grapheme' });
    const expected = (text: string) => [...segmenter.segment(text)].map((s) => s.segment);
    const items = readReferenceTone(referenceDir);
    assert.ok(items.length > 1000);
    for (const i of items) for (const text of [i.segments.toLowerCase(), i.form.normalize('NFD')]) assert.deepEqual(graphemes(text), expected(text), text);
    // Marks with no letter before them, a soft hyphen (a control: no mark attaches to it), stacked marks, CR LF, a joined emoji, Hangul jamo.
    for (const text of ['\u0301a', 'n\u0303\u0301a', 'a\u00AD\u0301b', 'ŋ́gò-bá', 'a\r\nb', 'a👩\u200D👩b', '\u1100\u1161\u11A8', 'e\u0328\u0301 ɛ̃́'])
      assert.deepEqual(graphemes(text), expected(text), JSON.stringify(text));
  });

  it('differ in exactly one tone (same segments) or one segment (same tones)', () => {
    const result = tone.minimalPairs({ limit: 500 });
    assert.ok(result.ok);
    assert.ok(result.value.length > 0);
    for (const p of result.value) {
      minimalPairSchema.parse(p);
      if (p.kind === 'tone') {
        assert.equal(p.a.segments.toLowerCase(), p.b.segments.toLowerCase());
        const diffs = [...p.a.tones].filter((t, i) => t !== p.b.tones[i]).length;
        assert.equal(diffs, 1, JSON.stringify(p));
      } else {
        assert.equal(p.a.tones, p.b.tones);
        assert.notEqual(p.a.segments, p.b.segments);
      }
    }
  });

  it('filters by kind, language, contained text, gloss and limit', () => {
    const tones = tone.minimalPairs({ kind: 'tone', limit: 500 });
    assert.ok(tones.ok && tones.value.length > 0 && tones.value.every((p) => p.kind === 'tone'));
    const language = tones.value[0]!.language;
    const inOne = tone.minimalPairs({ language, kind: 'segment', limit: 5 });
    assert.ok(inOne.ok && inOne.value.length <= 5 && inOne.value.every((p) => p.language === language && p.kind === 'segment'));
    const text = tones.value[0]!.a.segments;
    const containing = tone.minimalPairs({ language, contains: text, limit: 500 });
    assert.ok(containing.ok && containing.value.length > 0);
    assert.ok(containing.value.every((p) => p.a.segments.includes(text) || p.b.segments.includes(text)));
    const gloss = tones.value[0]!.a.gloss;
    const glossed = tone.minimalPairs({ gloss, limit: 500 });
    assert.ok(glossed.ok && glossed.value.every((p) => p.a.gloss.includes(gloss) || p.b.gloss.includes(gloss)));
    const bad = tone.minimalPairs({ kind: 'rhyme' as 'tone' });
    assert.equal(!bad.ok && bad.code, 'invalid_parameter');
  });
});

describe('tone prediction and analysis services', () => {
  it('predicts the recorded tone of a word from the data, tone marks in the query ignored', () => {
    const pair = tone.tonalPairs().ok ? (tone.tonalPairs() as { value: Array<{ language: string; items: Array<{ form: string; gloss: string }> }> }).value[0]! : undefined;
    assert.ok(pair);
    const result = tone.predictTones({ language: pair.language, word: pair.items[0]!.form });
    assert.ok(result.ok);
    predictTonesOutputSchema.parse(result.value);
    assert.equal(result.value.kind, 'lexical');
    assert.deepEqual(new Set(result.value.items.map((i) => i.form)), new Set(pair.items.map((i) => i.form)));
  });

  it('predicts the tones of a root in a conjugated form, and gives the root tone on its own', () => {
    const golden = tone.golden().find((g) => g.pass);
    assert.ok(golden?.root && golden.cell);
    const conjugated = tone.predictTones({ language: golden.language, root: golden.root, tense: golden.cell.tense as string, subject: golden.cell.subject as string });
    assert.ok(conjugated.ok);
    predictTonesOutputSchema.parse(conjugated.value);
    assert.equal(conjugated.value.kind, 'conjugated');
    assert.equal(conjugated.value.tonal_analysis?.transcription_high, golden.respelled ?? golden.expect);
    const lexical = tone.predictTones({ language: golden.language, word: golden.root });
    assert.ok(lexical.ok);
    assert.equal(lexical.value.roots.length, 1);
    assert.ok(golden.root.startsWith(lexical.value.roots[0]!.root));
    assert.match(lexical.value.roots[0]!.tone, /^[HL0]+$/);
  });

  it('analyses a form, or says why not', () => {
    const golden = tone.golden().find((g) => g.pass)!;
    const analysed = tone.tonalAnalysis({ language: golden.language, root: golden.root!, tense: golden.cell!.tense as string, subject: golden.cell!.subject as string });
    assert.ok(analysed.ok);
    assert.equal(analysed.value.tonal_analysis.status, 'analysed');
    const missing = tone.predictTones({ language: golden.language });
    assert.equal(!missing.ok && missing.code, 'invalid_parameter');
    const unknownRoot = tone.tonalAnalysis({ language: golden.language, root: 'zzzqa', tense: golden.cell!.tense as string, subject: golden.cell!.subject as string });
    assert.ok(unknownRoot.ok);
    assert.equal(unknownRoot.value.tonal_analysis.status, 'not_available');
    assert.equal(unknownRoot.value.tonal_analysis.words, undefined);
  });
});
