// Pins every MCP tool through an in-process client: the registered set, its annotations and schemas, one answer a user would check and one failure that says how to fix the call.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { toolGroups } from '../src/mcp/tool.js';
import { tools } from '../src/mcp/registry.js';
import { stripTones } from '../src/tone/marks.js';
import { HFST_MISSING, hfstForTests, kipoModelsFolder } from './hfst-fixtures.js';
import { harness, tempDir, type Harness } from './helpers.js';
import { linkedClient, textOf, type LinkedClient } from './mcp-support.js';

/** The 21 tools of the interface contract's six groups (plus the three it leaves unnamed: syllabify, get_noun_classes, spell_number), in its order. */
const declared = [
  'conjugate_verb',
  'batch_conjugate',
  'get_paradigm',
  'analyze_form',
  'decompose_morphemes',
  'syllabify',
  'get_tonal_analysis',
  'get_language_info',
  'list_languages',
  'get_syllable_inventory',
  'get_noun_classes',
  'get_tonal_pairs',
  'predict_tones',
  'get_minimal_pairs',
  'hfst_analyze',
  'hfst_generate',
  'hfst_list_models',
  'search_roots',
  'get_cartridge_info',
  'validate_form',
  'spell_number',
];

/** HFST tools need a transducer compiled in this run (the HFST tools are required in CI). */
const hfst = hfstForTests();
const hfstSkip = hfst ? false : HFST_MISSING;

type Structured = Record<string, any>;

describe('MCP tools, in-process', () => {
  let h: Harness;
  let mcp: LinkedClient;
  let dir: string;
  before(async () => {
    dir = tempDir('lugha-mcp-tools-');
    // The Kipo test grammar compiled into a models folder, plus a file that is not optimized-lookup (listed, unusable).
    h = await harness(hfst ? { flags: { modelsDir: kipoModelsFolder(dir) } } : {});
    mcp = await linkedClient(h, 'startup');
  });
  after(async () => {
    await mcp.close();
    await h.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function call(name: string, args: Record<string, unknown>) {
    const result = await mcp.client.callTool({ name, arguments: args });
    return { result, text: textOf(result), data: result.structuredContent as Structured };
  }

  async function ok(name: string, args: Record<string, unknown>): Promise<Structured> {
    const { result, text, data } = await call(name, args);
    assert.equal(result.isError, undefined, text);
    assert.ok(data, 'structured content');
    assert.deepEqual(JSON.parse(text.slice(text.indexOf('{'))), data, 'the text carries the same JSON');
    // The server does not check its outputs per call (src/mcp/server.ts): every one a test gets matches the advertised schema.
    const parsed = tools.find((t) => t.name === name)!.output.safeParse(data);
    assert.ok(parsed.success, `${name}: the output matches its schema: ${parsed.success ? '' : JSON.stringify(parsed.error.issues.slice(0, 3))}`);
    return data;
  }

  async function fails(name: string, args: Record<string, unknown>, pattern: RegExp): Promise<string> {
    const { result, text } = await call(name, args);
    assert.equal(result.isError, true, `expected an error result, got ${text.slice(0, 200)}`);
    assert.match(text, pattern);
    return text;
  }

  it('registers exactly the declared tools, each with a group, a title, schemas and read-only annotations', async () => {
    const { tools: listed } = await mcp.client.listTools();
    assert.deepEqual(
      listed.map((t) => t.name),
      declared,
    );
    for (const tool of listed) {
      assert.ok(tool.title && tool.description && tool.description.length > 80, `${tool.name} has a title and a description`);
      assert.equal(tool.inputSchema.type, 'object');
      assert.equal(tool.outputSchema?.type, 'object', `${tool.name} declares its output`);
      assert.deepEqual({ read: tool.annotations?.readOnlyHint, idem: tool.annotations?.idempotentHint, open: tool.annotations?.openWorldHint }, { read: true, idem: true, open: false });
      assert.ok((toolGroups as readonly string[]).includes(tool._meta?.['dev.lugha/group'] as string), `${tool.name} has a group`);
    }
    const generative = tools.filter((t) => t.generative === true).map((t) => t.name);
    assert.deepEqual(generative, ['conjugate_verb', 'batch_conjugate', 'get_paradigm', 'get_tonal_analysis', 'hfst_generate']);
    assert.deepEqual(
      tools.filter((t) => typeof t.generative === 'object').map((t) => t.name),
      ['predict_tones'],
    );
    assert.equal(listed.length, 21);
    const groups = Object.fromEntries(toolGroups.map((g) => [g, listed.filter((t) => t._meta?.['dev.lugha/group'] === g).map((t) => t.name)]));
    assert.deepEqual(groups.Tonal, ['get_tonal_pairs', 'predict_tones', 'get_minimal_pairs']);
    assert.deepEqual(groups.HFST, ['hfst_analyze', 'hfst_generate', 'hfst_list_models']);
    assert.ok(groups.Analysis!.includes('get_tonal_analysis') && groups.Utility!.includes('spell_number'));
  });

  it('describes every argument of every tool with an example, and never points a model at a REST route', async () => {
    const { tools: listed } = await mcp.client.listTools();
    const undocumented: string[] = [];
    for (const tool of listed) {
      assert.doesNotMatch(tool.description ?? '', /\b(GET|POST) \/|\/api\/v1/, `${tool.name}: a model cannot call REST routes`);
      for (const [name, schema] of Object.entries((tool.inputSchema.properties ?? {}) as Record<string, { description?: string }>)) {
        if (!/\S/.test(schema.description ?? '') || !/Example: \S/.test(schema.description ?? '')) undocumented.push(`${tool.name}.${name}`);
        assert.doesNotMatch(schema.description ?? '', /\b(GET|POST) \/|\/api\/v1/, `${tool.name}.${name}`);
      }
    }
    assert.deepEqual(undocumented, []);
  });

  it('conjugate_verb: the slots and English of a negative future with an object', async () => {
    const data = await ok('conjugate_verb', { language: 'swh', root: '-pend-', subject: '3pl', tense: 'future', polarity: 'negative', object: 'c7' });
    assert.equal(data.surface_form, 'hawatakipenda');
    assert.deepEqual(
      Object.entries(data.slots).map(([slot, m]: [string, any]) => `${slot}=${m.form}`),
      ['pre_initial=ha', 'subject=wa', 'tam=ta', 'object=ki', 'root=pend', 'fv=a'],
    );
    assert.match(data.english, /they will not love it/);
  });

  it('conjugate_verb: an unknown tense is refused with the allowed tense ids', async () => {
    const text = await fails('conjugate_verb', { language: 'swh', root: 'penda', subject: '1sg', tense: 'aorist' }, /^invalid_parameter: unknown tense "aorist"\nFix the `tense` argument\./);
    assert.match(text, /Allowed values: present, past, future, perfect/);
  });

  it('batch_conjugate: items and a paradigm in order, a bad item reported in its place', async () => {
    const data = await ok('batch_conjugate', {
      language: 'sw',
      items: [
        { root: 'soma', subject: '1sg', tense: 'past' },
        { root: 'soma', subject: 'c99' },
      ],
      paradigm: { roots: ['penda'], tenses: ['present'], subjects: ['1sg', '2sg'] },
    });
    assert.equal(data.size, 4);
    assert.equal(data.failed, 1);
    assert.deepEqual(
      data.results.map((r: any) => (r.ok ? r.result.surface_form : `!${r.error.parameter}`)),
      ['nilisoma', '!subject', 'ninapenda', 'unapenda'],
    );
  });

  it("batch_conjugate: a batch over the tier's size is refused, naming the limit", async () => {
    await fails('batch_conjugate', { language: 'swh', paradigm: { roots: ['penda', 'soma', 'andika'] } }, /^batch_too_large: this batch asks for \d+ forms; the startup tier allows at most 500 per request/);
  });

  it('get_paradigm: a table of subject × tense with glosses', async () => {
    const data = await ok('get_paradigm', { language: 'swh', root: 'soma', tenses: ['past', 'future'], subjects: ['1sg', '1pl'], polarity: ['positive', 'negative'] });
    assert.equal(data.size, 8);
    const cell = (tense: string, polarity: string, subject: string) => data.cells.find((c: any) => c.tense === tense && c.polarity === polarity && c.subject === subject);
    assert.equal(cell('past', 'positive', '1pl').surface_form, 'tulisoma');
    assert.equal(cell('future', 'negative', '1sg').surface_form, 'sitasoma');
    assert.equal(cell('past', 'positive', '1sg').english, 'I read');
  });

  it('get_paradigm: an unknown root shape is refused', async () => {
    await fails('get_paradigm', { language: 'swh', root: 'pen da1' }, /^invalid_parameter: "pen da1" is not a verb root.*\nFix the `root` argument\./);
  });

  it('analyze_form: the lemma and cell of an inflected form, in any language', async () => {
    const data = await ok('analyze_form', { form: 'hawatakipenda' });
    const best = data.analyses[0];
    assert.equal(best.language, 'swh');
    assert.equal(best.lemma, 'penda');
    assert.deepEqual(
      { tense: best.features.tense, polarity: best.features.polarity, subject: best.features.subject, object: best.features.object },
      { tense: 'future', polarity: 'negative', subject: 'c2', object: 'c7' },
    );
  });

  it('analyze_form: an unknown language lists the installed ones', async () => {
    await fails('analyze_form', { form: 'ninapenda', language: 'fra' }, /^language_not_found: no cartridge for "fra".*\nFix the `language` argument\.\nAllowed values: .*swh/);
  });

  it('decompose_morphemes: the morphemes of a form with what each realises', async () => {
    const data = await ok('decompose_morphemes', { form: 'ninakupenda', language: 'sw' });
    assert.equal(data.language, 'swh');
    const best = data.decompositions[0];
    assert.equal(best.segmentation, 'ni-na-ku-pend-a');
    assert.deepEqual(best.words[0].morphemes.slice(0, 3), [
      { slot: 'subject', form: 'ni', id: '1sg' },
      { slot: 'tam', form: 'na', id: 'present' },
      { slot: 'object', form: 'ku', id: '2sg' },
    ]);
  });

  it('decompose_morphemes: a malformed language code is refused', async () => {
    await fails('decompose_morphemes', { form: 'ninakupenda', language: 'swahili!' }, /^invalid_parameter: "swahili!" is not a language code/);
  });

  it('syllabify: open syllables and a syllabic nasal', async () => {
    const data = await ok('syllabify', { language: 'swh', word: 'ninapenda' });
    assert.deepEqual(data.syllables, ['ni', 'na', 'pe', 'nda']);
    assert.equal(data.count, 4);
    const nasal = await ok('syllabify', { language: 'swh', word: 'mtoto' });
    assert.deepEqual(nasal.syllables, ['m', 'to', 'to']);
  });

  it('syllabify: characters outside the orthography are refused by name, not dropped', async () => {
    // Before: 'str8 up!' came back as str.up.
    await fails('syllabify', { language: 'swh', word: 'str8 up!' }, /^invalid_parameter: "str8 up!" has characters outside the Swahili orthography \("8", " ", "!"\)/);
    await fails('syllabify', { language: 'swh', word: 'xylo' }, /outside the Swahili orthography \("x"\)/);
    for (const word of ['Ninapenda', "ng'ombe", 'ninapénda']) assert.ok((await ok('syllabify', { language: 'swh', word })).count > 1, word);
  });

  it('syllabify: a language without phonology names the ones that have it', async () => {
    const withPhonology = h.services.morphology
      .languages()
      .filter((l) => l.capabilities.includes('syllables'))
      .map((l) => l.iso);
    assert.ok(withPhonology.includes('swh') && !withPhonology.includes('nya'));
    await fails('syllabify', { language: 'nya', word: 'chikondi' }, new RegExp(`^invalid_parameter: Chichewa has no phonology yet.*\\nFix the \`language\` argument\\.\\nAllowed values: ${withPhonology.join(', ')}\\.`));
  });

  it('get_language_info: tenses and subjects a caller can use', async () => {
    const data = await ok('get_language_info', { language: 'zu' });
    assert.equal(data.iso, 'zul');
    assert.equal(data.name, 'Zulu');
    assert.ok(data.tenses.length > 3 && data.subjects.includes('c7'));
    assert.ok(data.sources.length > 0);
  });

  it('get_language_info: an unknown language is refused', async () => {
    await fails('get_language_info', { language: 'xyz' }, /^language_not_found: no cartridge for "xyz"/);
  });

  it('list_languages: every installed cartridge, filterable by capability', async () => {
    const all = await ok('list_languages', {});
    assert.deepEqual(
      all.languages.map((l: any) => l.iso),
      h.services.morphology.languages().map((l) => l.iso),
    );
    const syllables = await ok('list_languages', { capability: 'syllables' });
    const expected = h.services.morphology
      .languages()
      .filter((l) => l.capabilities.includes('syllables'))
      .map((l) => l.iso);
    assert.ok(expected.includes('swh') && expected.length < all.languages.length);
    assert.deepEqual(
      syllables.languages.map((l: any) => l.iso),
      expected,
    );
  });

  it('list_languages: an unknown capability is refused with the allowed ones', async () => {
    await fails('list_languages', { capability: 'tone' }, /capability.*"conjugation"\|"analysis"\|"paradigms"\|"agreement"\|"syllables"/);
  });

  it('get_syllable_inventory: the same inventory as the REST route', async () => {
    const data = await ok('get_syllable_inventory', { language: 'swh' });
    const { key } = await h.issue('startup');
    const rest = (await h.call(key, '/api/v1/syllables/swh')).json().data[0];
    assert.deepEqual(data, rest);
  });

  it('get_syllable_inventory: a language without phonology is refused', async () => {
    await fails('get_syllable_inventory', { language: 'nya' }, /^invalid_parameter: Chichewa has no phonology yet/);
  });

  it('get_noun_classes: prefixes and concords per class, and the sub-classes of a noun grammar', async () => {
    const swh = await ok('get_noun_classes', { language: 'swh' });
    const c7 = swh.classes.find((c: any) => c.id === 'c7');
    assert.deepEqual({ prefix: c7.noun_prefix, subject: c7.concords.subject, number: c7.number }, { prefix: 'ki', subject: 'ki', number: 'sg' });
    const k7 = swh.noun_grammar.find((c: any) => c.id === '7');
    assert.deepEqual({ plural: k7.plural, prefixes: k7.prefixes }, { plural: '8', prefixes: ['ch', 'ki'] });
    assert.ok(k7.examples.some((e: any) => e.lemma === 'kitu'));
    const zul = await ok('get_noun_classes', { language: 'zul' });
    const c1a = zul.noun_grammar.find((c: any) => c.id === '1a');
    assert.equal(c1a.plural, '2b');
    assert.deepEqual(c1a.prefixes, ['u']);
  });

  it('get_noun_classes: a cartridge without an agreement table is refused, naming those with one', async () => {
    await fails('get_noun_classes', { language: 'bem' }, /^invalid_parameter: the Bemba cartridge has no noun-class agreement table yet.*\nAllowed values: .*swh/s);
  });

  it('search_roots: by lemma prefix and by English gloss, lemma matches first', async () => {
    const byLemma = await ok('search_roots', { language: 'swh', query: '-pend-' });
    assert.equal(byLemma.entries[0].lemma, 'penda');
    assert.equal(byLemma.entries[0].match, 'lemma');
    const byGloss = await ok('search_roots', { language: 'swh', query: 'write' });
    assert.ok(byGloss.entries.some((e: any) => e.lemma === 'andika' && e.match === 'gloss'));
    const nouns = await ok('search_roots', { language: 'zul', query: 'person', word_class: 'noun' });
    assert.ok(nouns.entries.some((e: any) => e.lemma === 'umuntu' && e.noun_class === '1'));
  });

  it('search_roots: an empty query is refused', async () => {
    await fails('search_roots', { language: 'swh', query: '  ' }, /query/);
  });

  it('get_cartridge_info: parts, counts, golden coverage and cited sources', async () => {
    const data = await ok('get_cartridge_info', { language: 'zul' });
    assert.equal(data.parts.nouns, true);
    assert.equal(data.parts.phonology, true);
    assert.ok(data.counts.lexicon.noun > 100);
    assert.ok(data.golden_tests.total > 0 && data.golden_tests.passing <= data.golden_tests.total);
    assert.ok(data.sources.every((s: any) => s.citation.length > 10));
    const bem = await ok('get_cartridge_info', { language: 'bem' });
    assert.equal(bem.parts.agreement, false);
  });

  it('get_cartridge_info: an unknown language is refused', async () => {
    await fails('get_cartridge_info', { language: 'qqq' }, /^language_not_found/);
  });

  it('analyze_form and decompose_morphemes: a guessed root is flagged in the summary line', async () => {
    for (const [name, args] of [
      ['analyze_form', { form: 'ninabloga', language: 'swh' }],
      ['decompose_morphemes', { form: 'ninabloga', language: 'swh' }],
    ] as const) {
      const { result, text, data } = await call(name, args);
      assert.equal(result.isError, undefined, text);
      const best = (data.analyses ?? data.decompositions)[0];
      assert.equal(best.in_lexicon, false, `${name}: the best reading of ninabloga is a guess`);
      assert.match(text.split('\n')[0]!, /\[guess: root not in the lexicon\]$/, name);
    }
    const { text } = await call('analyze_form', { form: 'ninapenda', language: 'swh' });
    assert.doesNotMatch(text.split('\n')[0]!, /guess/, 'a lexicon root is not flagged');
  });

  it('validate_form: attested, unknown root and no analysis', async () => {
    const good = await ok('validate_form', { language: 'swh', form: 'ninapenda' });
    assert.deepEqual({ valid: good.valid, verdict: good.verdict, lemma: good.analyses[0].lemma }, { valid: true, verdict: 'attested_root', lemma: 'penda' });
    const bad = await ok('validate_form', { language: 'swh', form: 'xyzzyq' });
    assert.deepEqual({ valid: bad.valid, verdict: bad.verdict, analyses: bad.analyses }, { valid: false, verdict: 'no_analysis', analyses: [] });
    const unknown = await ok('validate_form', { language: 'swh', form: 'ninablogu' });
    assert.equal(unknown.verdict, 'unknown_root');
    assert.equal(unknown.valid, false);
  });

  it('validate_form: a missing form is refused as a bad argument', async () => {
    await fails('validate_form', { language: 'swh' }, /form/);
  });

  /** A golden tone case of a cartridge that the engine reproduces: a conjugated form whose tones a linguist wrote down. */
  function goldenTone() {
    const golden = h.services.tone.golden().find((g) => g.pass && g.root && g.cell);
    assert.ok(golden?.root && golden.cell, 'no passing golden tone case');
    const cell = golden.cell as Record<string, string>;
    return { language: golden.language, root: golden.root, tense: cell.tense, subject: cell.subject, expect: golden.respelled ?? golden.expect };
  }

  it('get_tonal_analysis: the tones of a conjugated form match the cartridge golden case, unit by unit', async () => {
    const { expect, ...args } = goldenTone();
    const data = await ok('get_tonal_analysis', Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined)));
    assert.equal(data.tonal_analysis.status, 'analysed');
    assert.equal(data.tonal_analysis.transcription_high, expect);
    assert.equal(stripTones(data.tonal_analysis.transcription), data.surface_form);
    const units = data.tonal_analysis.words[0].units as Array<{ text: string; surface: string }>;
    assert.equal(units.map((u) => u.text).join(''), data.surface_form);
    assert.ok(units.some((u) => u.surface === 'H'));
    const swahili = await ok('get_tonal_analysis', { language: 'swh', root: 'penda', tense: 'present', subject: '1sg' });
    assert.deepEqual({ form: swahili.surface_form, status: swahili.tonal_analysis.status }, { form: 'ninapenda', status: 'not_tonal' });
  });

  it('get_tonal_analysis: an unknown tense is refused with the allowed ones', async () => {
    const { language, root } = goldenTone();
    await fails('get_tonal_analysis', { language, root, tense: 'aorist' }, /^invalid_parameter: unknown tense "aorist"\nFix the `tense` argument\.\nAllowed values: /);
  });

  it('get_tonal_pairs: same segments, different tones, the same pairs as the REST route', async () => {
    const { key } = await h.issue('startup');
    const rest = (await h.call(key, '/api/v1/tonal-pairs?per_page=1')).json();
    const language = rest.data[0].language as string;
    const data = await ok('get_tonal_pairs', { language, limit: 1000 });
    const all = (await h.call(key, `/api/v1/tonal-pairs?language=${language}&per_page=200`)).json();
    assert.equal(data.language, language);
    assert.equal(data.total, all.meta.total);
    assert.deepEqual(data.pairs.slice(0, all.data.length), all.data);
    for (const pair of data.pairs) {
      assert.equal(pair.language, language);
      assert.ok(
        pair.items.every((i: any) => stripTones(i.form).toLowerCase() === stripTones(pair.items[0].form).toLowerCase()),
        pair.segments,
      );
      assert.ok(new Set(pair.items.map((i: any) => i.form)).size > 1, 'the forms differ in tone');
    }
    const few = await ok('get_tonal_pairs', { limit: 3 });
    assert.equal(few.language, null);
    assert.equal(few.pairs.length, 3);
    assert.equal(few.total, rest.meta.total);
  });

  it('get_tonal_pairs: an unknown language lists the languages with tone-marked data', async () => {
    await fails('get_tonal_pairs', { language: 'qqq' }, /^language_not_found: unknown language "qqq"\nFix the `language` argument\.\nAllowed values: [a-z]{3}, /);
  });

  it('get_minimal_pairs: tone pairs differ in exactly one tone, segment pairs in one segment', async () => {
    const tone = await ok('get_minimal_pairs', { kind: 'tone', limit: 20 });
    assert.ok(tone.count > 0 && tone.count <= 20);
    for (const p of tone.pairs) {
      assert.equal(p.kind, 'tone');
      assert.equal(p.a.segments, p.b.segments);
      assert.notEqual(p.a.tones, p.b.tones);
      assert.match(p.difference, /^vowel \d+: \w+\/\w+$/);
    }
    const segment = await ok('get_minimal_pairs', { kind: 'segment', language: tone.pairs[0].language, limit: 5 });
    for (const p of segment.pairs) {
      assert.equal(p.a.tones, p.b.tones);
      assert.notEqual(p.a.segments, p.b.segments);
    }
  });

  it('get_minimal_pairs: an unknown language is refused, naming the argument', async () => {
    await fails('get_minimal_pairs', { language: 'qqq', kind: 'tone' }, /^language_not_found: unknown language "qqq"\nFix the `language` argument\./);
  });

  it('predict_tones: the recorded tones of a word, and the tones of a conjugated form', async () => {
    const pairs = await ok('get_tonal_pairs', { limit: 1 });
    const pair = pairs.pairs[0];
    const lexical = await ok('predict_tones', { language: pair.language, word: pair.segments });
    assert.equal(lexical.kind, 'lexical');
    const forms = lexical.items.map((i: any) => i.form);
    for (const item of pair.items) assert.ok(forms.includes(item.form), `${item.form} is among the recorded forms`);
    const { expect, ...args } = goldenTone();
    const conjugated = await ok('predict_tones', Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined)));
    assert.equal(conjugated.kind, 'conjugated');
    assert.equal(conjugated.tonal_analysis.transcription_high, expect);
  });

  it('predict_tones: neither a word nor a root is refused as a bad argument', async () => {
    await fails('predict_tones', { language: 'swh' }, /give a word or a root/);
  });

  it('hfst_list_models: the models of the folder, filterable by direction', { skip: hfstSkip }, async () => {
    const all = await ok('hfst_list_models', {});
    assert.deepEqual(all.models.map((m: any) => m.name).sort(), ['kipo-analyser', 'kipo-generator', 'kipo-plain-analyser']);
    const analyser = all.models.find((m: any) => m.name === 'kipo-analyser');
    assert.deepEqual({ direction: analyser.direction, weighted: analyser.weighted, origin: analyser.origin, usable: analyser.usable }, { direction: 'analyse', weighted: true, origin: 'third_party', usable: true });
    assert.ok(analyser.tags.includes('<neg>'));
    const generators = await ok('hfst_list_models', { direction: 'generate' });
    assert.deepEqual(
      generators.models.map((m: any) => m.name),
      ['kipo-generator'],
    );
    assert.ok(!JSON.stringify(all).includes(dir), 'no storage path');
  });

  it('hfst_list_models: an unknown direction is refused as a bad argument', async () => {
    await fails('hfst_list_models', { direction: 'sideways' }, /direction/);
  });

  it('hfst_analyze: analyses best first, an unknown word with no results', { skip: hfstSkip }, async () => {
    const data = await ok('hfst_analyze', { model: 'kipo-analyser', inputs: ['tɛ́ma', 'sítɛ́ma', 'qq'] });
    assert.equal(data.model, 'kipo-analyser');
    assert.equal(data.direction, 'analyse');
    assert.deepEqual(data.items[0].results, [
      { output: 'tɛ́m<v><pres>', weight: 0 },
      { output: 'tɛ́ma<n><sg>', weight: 3 },
    ]);
    assert.deepEqual(
      data.items[1].results.map((r: any) => r.output),
      ['tɛ́m<v><pres><neg>'],
    );
    assert.deepEqual({ results: data.items[2].results, known: data.items[2].known_symbols }, { results: [], known: false });
  });

  it('hfst_analyze: an unknown model is refused with the analysers to choose from, and no path', { skip: hfstSkip }, async () => {
    const text = await fails('hfst_analyze', { model: 'nope', inputs: ['bula'] }, /^model_not_found: no model "nope".*\nFix the `model` argument\.\nAllowed values: kipo-analyser, kipo-plain-analyser\.$/);
    assert.ok(!text.includes(dir));
    const batch = await linkedClient(h, 'academic');
    const big = await batch.client.callTool({ name: 'hfst_analyze', arguments: { model: 'kipo-analyser', inputs: Array.from({ length: 51 }, () => 'bula') } });
    await batch.close();
    assert.equal(big.isError, true);
    assert.match(textOf(big), /^batch_too_large: this batch asks for 51 inputs; the academic tier allows at most 50 per request: split the call/);
  });

  it('hfst_generate: surface forms of analyses, by language', { skip: hfstSkip }, async () => {
    const data = await ok('hfst_generate', { language: 'und', inputs: ['tɛ́m<v><past>', 'bula<n><pl>'], n_best: 1 });
    assert.equal(data.model, 'kipo-generator');
    assert.deepEqual(data.items[0].results, [{ output: 'tɛ́milɛ́', weight: 1.25 }]);
    assert.deepEqual(
      data.items[1].results.map((r: any) => r.output),
      ['mibula'],
    );
  });

  it('hfst_generate: an analyser given as the model is refused, naming the generators', { skip: hfstSkip }, async () => {
    await fails('hfst_generate', { model: 'kipo-analyser', inputs: ['bula<n><sg>'] }, /^invalid_parameter: model "kipo-analyser" is an analyser.*\nFix the `model` argument\.\nAllowed values: kipo-generator\.$/);
  });

  it('spell_number: a number in words, with noun-class agreement', async () => {
    const plain = await ok('spell_number', { language: 'sw', number: '1234' });
    assert.deepEqual({ language: plain.language, text: plain.text, class: plain.class }, { language: 'swh', text: 'elfu moja mia mbili thelathini na nne', class: null });
    const c2 = await ok('spell_number', { language: 'swh', number: '22', class: 'c2' });
    assert.deepEqual({ text: c2.text, agreement: c2.agreement }, { text: 'ishirini na wawili', agreement: true });
  });

  it('spell_number: a class the cardinal does not agree with is refused with the classes it does', async () => {
    const classes = (await ok('spell_number', { language: 'swh', number: '2' })).classes as string[];
    await fails(
      'spell_number',
      { language: 'swh', number: '2', class: 'c99' },
      new RegExp(`^invalid_parameter: the cardinal of swh has no concord for class c99\\nFix the \`class\` argument\\.\\nAllowed values: ${classes.join(', ')}\\.$`),
    );
  });

  it('an Academic key may analyse and look up but not generate with a transducer', { skip: hfstSkip }, async () => {
    const academic = await linkedClient(h, 'academic');
    const listed = await academic.client.listTools();
    assert.match(listed.tools.find((t) => t.name === 'hfst_generate')!.description ?? '', /^\[Not available to this key/);
    assert.doesNotMatch(listed.tools.find((t) => t.name === 'hfst_analyze')!.description ?? '', /Not available/);
    const refused = await academic.client.callTool({ name: 'hfst_generate', arguments: { model: 'kipo-generator', inputs: ['bula<n><pl>'] } });
    assert.equal(refused.isError, true);
    assert.match(textOf(refused), /^not_in_tier: hfst_generate generates new forms, which needs a Startup or Enterprise key/);
    for (const [name, args] of [
      ['hfst_analyze', { model: 'kipo-analyser', inputs: ['bula'] }],
      ['get_tonal_pairs', { limit: 1 }],
      ['spell_number', { language: 'swh', number: '7' }],
    ] as const) {
      const allowed = await academic.client.callTool({ name, arguments: args });
      assert.equal(allowed.isError, undefined, `${name}: ${textOf(allowed)}`);
    }
    assert.equal(await h.services.store.quota.used(academic.keyId, h.clock.now().toISOString().slice(0, 10)), 3, 'the refused call is not counted');
    await academic.close();
  });

  it('an Academic key gets no generated form from any tool, whatever the arguments ask for', async () => {
    // The form conjugate_verb makes for a Startup key: no tool may hand it to an Academic key.
    const made = await ok('conjugate_verb', { language: 'swh', root: 'penda', subject: '1sg' });
    const tense = made.features.tense as string;
    const form = made.surface_form as string;
    const candidates: Record<string, unknown> = {
      language: 'swh',
      root: 'penda',
      subject: '1sg',
      tense,
      polarity: 'positive',
      items: [{ root: 'penda', subject: '1sg', tense }],
      paradigm: { roots: ['penda'], tenses: [tense], subjects: ['1sg'] },
      tenses: [tense],
      subjects: ['1sg'],
    };
    // The positive control: with a Startup key these arguments do yield the form, through predict_tones too.
    assert.ok(JSON.stringify((await ok('predict_tones', { language: 'swh', root: 'penda', subject: '1sg', tense })).surface_form).includes(form));
    const academic = await linkedClient(h, 'academic');
    try {
      const { tools: listed } = await academic.client.listTools();
      assert.equal(listed.length, 21);
      const served: string[] = [];
      for (const tool of listed) {
        const accepted = Object.keys((tool.inputSchema as { properties?: Record<string, unknown> }).properties ?? {});
        const args = Object.fromEntries(accepted.filter((k) => k in candidates).map((k) => [k, candidates[k]]));
        const result = await academic.client.callTool({ name: tool.name, arguments: args });
        if (result.isError) continue;
        served.push(tool.name);
        assert.ok(!JSON.stringify(result.structuredContent).includes(form), `${tool.name} gave an Academic key the generated form ${form}: ${textOf(result).slice(0, 200)}`);
      }
      assert.ok(served.includes('get_noun_classes') && served.includes('get_language_info'), `look-ups still answer: ${served.join(', ')}`);
      const refused = await academic.client.callTool({ name: 'predict_tones', arguments: { language: 'swh', root: 'penda', tense } });
      assert.match(textOf(refused), /^not_in_tier: predict_tones with a root and tense, subject, object or polarity \(a conjugated form\) generates new forms/);
      const lexical = await academic.client.callTool({ name: 'predict_tones', arguments: { language: 'swh', word: 'penda' } });
      assert.equal(lexical.isError, undefined, textOf(lexical));
    } finally {
      await academic.close();
    }
  });

  it('word arguments with control characters are refused, and a summary stays one line (found by the MCP fuzzer)', async () => {
    // Before: analyze_form("Ȭu\n…") gave Zulu "analyses" whose lemma held the newline, and the summary line echoed it as extra lines.
    for (const [name, args] of [
      ['analyze_form', { form: 'Ȭu\nX' }],
      ['decompose_morphemes', { form: 'ni\u0000na', language: 'swh' }],
      ['validate_form', { form: 'penda\ud800', language: 'swh' }],
      ['syllabify', { language: 'swh', word: 'ni\tna' }],
    ] as const) {
      await fails(name, args, /word has no control characters/);
    }
    const { result, text } = await call('search_roots', { language: 'swh', query: 'pend\nFix the `language` argument.' });
    assert.equal(result.isError, undefined, text);
    assert.equal(text.split('\n').length, 2, 'one summary line, then the JSON');
  });

  it('refuses the next call of a session whose key was revoked, uncounted', async () => {
    const session = await linkedClient(h, 'startup');
    const first = await session.client.callTool({ name: 'list_languages', arguments: {} });
    assert.equal(first.isError, undefined);
    const revoked = await h.services.keys.revoke(session.keyId);
    assert.ok(revoked.ok);
    const next = await session.client.callTool({ name: 'list_languages', arguments: {} });
    assert.equal(next.isError, true);
    assert.match(textOf(next), /^key_revoked: /);
    assert.equal(await h.services.store.quota.used(session.keyId, h.clock.now().toISOString().slice(0, 10)), 1);
    await session.close();
  });
});
