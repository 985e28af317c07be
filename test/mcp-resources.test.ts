// Pins the MCP server's resources, prompts, completions and logging through an in-process client: what a user reads and picks, what each tier may, what is counted, and that consent withdrawal reaches a subscriber.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ingest } from '../src/audio/ingest.js';
import { numeralClips, writeCorpus } from './audio-fixtures.js';
import { harness, tempDir, type Harness } from './helpers.js';
import { linkedClient, textOf, type LinkedClient } from './mcp-support.js';

type Contents = Array<{ uri: string; mimeType?: string; text?: string }>;

describe('MCP resources, prompts, completions, logging', () => {
  let h: Harness;
  let startup: LinkedClient;
  let academic: LinkedClient;
  const day = () => h.clock.now().toISOString().slice(0, 10);

  before(async () => {
    h = await harness();
    const dir = tempDir('lugha-corpus-');
    writeCorpus(dir, numeralClips('swh', 200), ['swh-s1', 'swh-s2']);
    const report = await ingest(dir, h.services);
    assert.equal(report.ingested, 20, JSON.stringify(report.refused));
    startup = await linkedClient(h, 'startup');
    academic = await linkedClient(h, 'academic');
  });
  after(async () => {
    await startup.close();
    await academic.close();
    await h.close();
  });

  it('lists a grammar summary per installed language, the audio cards and manifests, and the docs', async () => {
    const { resources } = await academic.client.listResources();
    const uris = resources.map((r) => r.uri);
    for (const l of h.services.morphology.languages()) assert.ok(uris.includes(`lugha://languages/${l.iso}/grammar`), l.iso);
    assert.ok(uris.includes('lugha://audio/swh/consent-manifest'));
    assert.ok(uris.includes('lugha://audio/swh/dataset-card'));
    assert.ok(!uris.includes('lugha://audio/zul/consent-manifest'), 'only languages with audio');
    assert.ok(uris.includes('lugha://docs/mcp') && uris.includes('lugha://docs/errors'));
    assert.ok(!uris.some((u) => /operations|configuration|deploy/.test(u)), 'operator documents are not served');
    for (const r of resources) assert.ok(r.name && r.mimeType, r.uri);
    const { resourceTemplates } = await academic.client.listResourceTemplates();
    assert.deepEqual(resourceTemplates.map((t) => t.uriTemplate).sort(), [
      'lugha://audio/{language}/consent-manifest',
      'lugha://audio/{language}/dataset-card',
      'lugha://docs/{name}',
      'lugha://languages/{language}/grammar',
    ]);
    for (const t of resourceTemplates) assert.match(t.description ?? '', /Example: lugha:\/\//);
  });

  it('reads a grammar summary with the tense ids, subjects and noun classes the tools accept, and counts the read', async () => {
    const before = await h.services.store.quota.used(academic.keyId, day());
    const read = await academic.client.readResource({ uri: 'lugha://languages/sw/grammar' });
    const [content] = read.contents as Contents;
    assert.equal(content!.mimeType, 'text/markdown');
    const text = content!.text!;
    const info = await academic.client.callTool({ name: 'get_language_info', arguments: { language: 'swh' } });
    const summary = info.structuredContent as { name: string; tenses: Array<{ id: string }>; subjects: string[]; sources: Array<{ id: string }> };
    assert.match(text, new RegExp(`^# ${summary.name} \\(swh\\)`));
    for (const t of summary.tenses) assert.ok(text.includes(`\`${t.id}\``), t.id);
    assert.ok(text.includes('`c7`') && text.includes('## Noun classes'));
    for (const s of summary.sources) assert.ok(text.includes(`\`${s.id}\``), s.id);
    assert.equal(await h.services.store.quota.used(academic.keyId, day()), before + 2, 'one read and one tool call');
  });

  it('reads the consent manifest and dataset card without speaker ids, and refuses unknown resources', async () => {
    const manifest = (await academic.client.readResource({ uri: 'lugha://audio/swh/consent-manifest' })).contents as Contents;
    const parsed = JSON.parse(manifest[0]!.text!);
    assert.equal(parsed.language, 'swh');
    assert.equal(parsed.clips_served, 20);
    const card = (await academic.client.readResource({ uri: 'lugha://audio/swh/dataset-card' })).contents as Contents;
    assert.match(card[0]!.text!, /^---\n[\s\S]*pretty_name: .*\n[\s\S]*---\n\n# Lugha numerals/);
    for (const text of [manifest[0]!.text!, card[0]!.text!]) {
      assert.doesNotMatch(text, /swh-s[12]|data-dir|\.wav|\/tmp\/|blobs?\//);
    }
    const before = await h.services.store.quota.used(academic.keyId, day());
    await assert.rejects(academic.client.readResource({ uri: 'lugha://languages/xx/grammar' }), /no installed language "xx"/);
    await assert.rejects(academic.client.readResource({ uri: 'lugha://docs/operations' }), /no document "operations"/);
    await assert.rejects(academic.client.readResource({ uri: 'lugha://audio/qq/dataset-card' }), /"qq" is not a known Bantu language code/);
    await assert.rejects(academic.client.readResource({ uri: 'lugha://nothing/here' }), /not found/i);
    assert.equal(await h.services.store.quota.used(academic.keyId, day()), before, 'a URI that names nothing is not counted');
  });

  it('serves the docs', async () => {
    const doc = (await academic.client.readResource({ uri: 'lugha://docs/errors' })).contents as Contents;
    assert.match(doc[0]!.text!, /^# /);
  });

  it('completes language, tense, subject and root from the cartridges', async () => {
    const prompt = { type: 'ref/prompt' as const, name: 'conjugation_table' };
    const language = await academic.client.complete({ ref: prompt, argument: { name: 'language', value: 'sw' } });
    assert.ok(language.completion.values.includes('swh'), language.completion.values.join());
    const root = await academic.client.complete({ ref: prompt, argument: { name: 'root', value: 'pend' }, context: { arguments: { language: 'swh' } } });
    assert.equal(root.completion.values[0], 'penda');
    assert.ok(root.completion.values.every((v) => v.startsWith('pend')));
    const tense = await academic.client.complete({ ref: prompt, argument: { name: 'tense', value: 'pa' }, context: { arguments: { language: 'swh' } } });
    assert.ok(tense.completion.values.includes('past'), tense.completion.values.join());
    const none = await academic.client.complete({ ref: prompt, argument: { name: 'root', value: 'pend' } });
    assert.deepEqual(none.completion.values, [], 'no language chosen: nothing to complete');
    const template = { type: 'ref/resource' as const, uri: 'lugha://languages/{language}/grammar' };
    const zu = await academic.client.complete({ ref: template, argument: { name: 'language', value: 'zu' } });
    assert.ok(zu.completion.values.includes('zul'));
    const docs = await academic.client.complete({ ref: { type: 'ref/resource', uri: 'lugha://docs/{name}' }, argument: { name: 'name', value: 'm' } });
    assert.deepEqual(docs.completion.values, ['mcp']);
    const subject = await academic.client.complete({ ref: prompt, argument: { name: 'subject', value: '1' }, context: { arguments: { language: 'swh' } } });
    assert.deepEqual(subject.completion.values.sort(), ['1pl', '1sg']);
  });

  it('lists three prompts; an Academic key sees conjugation_table marked and is refused it, and gets explain_word', async () => {
    const { prompts } = await academic.client.listPrompts();
    assert.deepEqual(prompts.map((p) => p.name).sort(), ['conjugation_table', 'explain_word', 'numeral_drill']);
    const table = prompts.find((p) => p.name === 'conjugation_table')!;
    assert.match(table.description ?? '', /^\[Not available to this key: get_paradigm generates new forms/);
    assert.deepEqual(
      table.arguments?.map((a) => [a.name, a.required ?? false]),
      [
        ['language', true],
        ['root', true],
        ['tense', false],
        ['subject', false],
      ],
    );
    await assert.rejects(academic.client.getPrompt({ name: 'conjugation_table', arguments: { language: 'swh', root: 'penda' } }), /not_in_tier/);
    const explain = await academic.client.getPrompt({ name: 'explain_word', arguments: { language: 'sw', form: 'hatutawapenda' } });
    const text = (explain.messages[0]!.content as { text: string }).text;
    assert.match(text, /analyze_form with \{"language":"swh","form":"hatutawapenda"\}/);
    assert.match(text, /decompose_morphemes/);
  });

  it('gives a Startup key the conjugation table prompt, refusing an unknown tense with the allowed ones', async () => {
    const { prompts } = await startup.client.listPrompts();
    assert.doesNotMatch(prompts.find((p) => p.name === 'conjugation_table')!.description ?? '', /Not available/);
    const got = await startup.client.getPrompt({ name: 'conjugation_table', arguments: { language: 'swh', root: 'penda', tense: 'future' } });
    assert.match((got.messages[0]!.content as { text: string }).text, /get_paradigm with \{"language":"swh","root":"penda","tenses":\["future"\]/);
    await assert.rejects(startup.client.getPrompt({ name: 'conjugation_table', arguments: { language: 'swh', root: 'penda', tense: 'someday' } }), /unknown tense "someday".*future/);
    await assert.rejects(startup.client.getPrompt({ name: 'numeral_drill', arguments: { language: 'qqq' } }), /language_not_found/);
    const drill = await startup.client.getPrompt({ name: 'numeral_drill', arguments: { language: 'zul', count: '3' } });
    assert.match((drill.messages[0]!.content as { text: string }).text, /drill of 3 numbers in .*spell_number with \{"language":"zul"/s);
  });

  it('accepts logging/setLevel and sends a tool call its quota reading at debug level only when asked', async () => {
    const messages: Array<{ level: string; data: unknown }> = [];
    startup.client.setNotificationHandler('notifications/message', (n) => void messages.push(n.params as { level: string; data: unknown }));
    assert.deepEqual(await startup.client.setLoggingLevel('info'), {});
    await startup.client.callTool({ name: 'list_languages', arguments: {} });
    assert.equal(messages.length, 0, 'debug lines are below info');
    await startup.client.setLoggingLevel('debug');
    await startup.client.callTool({ name: 'list_languages', arguments: {} });
    assert.equal(messages.length, 1);
    assert.equal(messages[0]!.level, 'debug');
    assert.deepEqual(Object.keys(messages[0]!.data as object).sort(), ['requests_left_today', 'resets_in_s', 'tool']);
  });

  it('notifies a subscriber when consent withdrawal changes a manifest and card, and only for subscribed URIs', async () => {
    const watcher = await linkedClient(h, 'academic', { watchResources: { intervalMs: 20 } });
    try {
      const updated: string[] = [];
      watcher.client.setNotificationHandler('notifications/resources/updated', (n) => void updated.push(n.params.uri));
      await watcher.client.subscribeResource({ uri: 'lugha://audio/swh/consent-manifest' });
      await assert.rejects(watcher.client.subscribeResource({ uri: 'lugha://docs/mcp' }), /only consent manifests and dataset cards change/);
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.deepEqual(updated, [], 'nothing changed yet');
      assert.equal(await h.services.store.audio.withdraw('swh-s1', h.clock.now().toISOString()), 1);
      for (let i = 0; i < 100 && updated.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
      assert.deepEqual(updated, ['lugha://audio/swh/consent-manifest'], 'the card changed too, but was not subscribed');
      const manifest = JSON.parse(((await watcher.client.readResource({ uri: updated[0]! })).contents as Contents)[0]!.text!);
      assert.ok(manifest.consent_records.some((r: { status: string }) => r.status === 'withdrawn'));
      await watcher.client.unsubscribeResource({ uri: 'lugha://audio/swh/consent-manifest' });
    } finally {
      await watcher.close();
    }
  });

  it('refuses reads once the quota is spent, as a tool call would be', async () => {
    const spent = await linkedClient(h, 'academic');
    try {
      for (let i = 0; i < 500; i++) await h.services.store.quota.consume(spent.keyId, day(), 500);
      await assert.rejects(spent.client.readResource({ uri: 'lugha://docs/mcp' }), /quota_exceeded: this key's 500 requests for today are spent/);
      const call = await spent.client.callTool({ name: 'list_languages', arguments: {} });
      assert.match(textOf(call), /^quota_exceeded/);
    } finally {
      await spent.close();
    }
  });
});
