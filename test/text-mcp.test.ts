// Pins analyze_form's running-text mode as a model meets it: `text` or `form` (exactly one), tokens paged with from_token, failures a model can act on; the tool count stays 21.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { harness, type Harness } from './helpers.js';
import { linkedClient, textOf, type LinkedClient } from './mcp-support.js';

type Structured = Record<string, any>;

describe('analyze_form with text', () => {
  let h: Harness;
  let mcp: LinkedClient;
  before(async () => {
    h = await harness();
    mcp = await linkedClient(h, 'startup');
  });
  after(async () => {
    await mcp.close();
    await h.close();
  });

  const call = async (args: Record<string, unknown>) => {
    const result = await mcp.client.callTool({ name: 'analyze_form', arguments: args });
    return { isError: result.isError === true, text: textOf(result), data: result.structuredContent as Structured };
  };

  it('analyses every token of a text, with offsets and readings', async () => {
    const { isError, data, text } = await call({ text: 'Ngiyabonga kakhulu, mngane.', language: 'zu' });
    assert.equal(isError, false, text);
    assert.equal(data.language, 'zul');
    assert.deepEqual(
      data.tokens.map((t: Structured) => t.text),
      ['Ngiyabonga', 'kakhulu', ',', 'mngane', '.'],
    );
    assert.equal(data.tokens[0].analyses[0].lemma, 'bonga');
    assert.equal(data.next_from_token, null);
    assert.match(text, /^zul: tokens 1-5 of 5/);
  });

  it('bounds the output and pages on with from_token', async () => {
    const sentence = 'Ngiyabonga kakhulu. ';
    const first = await call({ text: sentence.repeat(30), language: 'zul' });
    assert.equal(first.data.total_tokens, 90);
    assert.equal(first.data.tokens.length, 40);
    assert.equal(first.data.next_from_token, 40);
    assert.match(first.text, /call again with from_token=40/);
    const last = await call({ text: sentence.repeat(30), language: 'zul', from_token: 80, max_tokens: 50 });
    assert.equal(last.data.tokens.length, 10);
    assert.equal(last.data.tokens[0].start, sentence.length * 26 + 'Ngiyabonga kakhulu'.length);
    assert.equal(last.data.next_from_token, null);
  });

  it('still analyses one form, now with probability and morphemes, capped unless all', async () => {
    const { data } = await call({ form: 'ngiyabonga', language: 'zul' });
    assert.equal(data.analyses[0].lemma, 'bonga');
    assert.equal(typeof data.analyses[0].probability, 'number');
    assert.ok(data.analyses[0].morphemes.length >= 3);
    const any = await call({ form: 'imibandela', language: 'zul' });
    const every = await call({ form: 'imibandela', language: 'zul', all: true });
    assert.ok(any.data.analyses.length <= 10);
    assert.equal(every.data.analyses.length, every.data.total);
  });

  it('refuses neither or both of form and text, text without a language, and text that is not text, saying how to fix it', async () => {
    for (const args of [{ language: 'zul' }, { form: 'yebo', text: 'yebo', language: 'zul' }]) {
      const { isError, text } = await call(args);
      assert.equal(isError, true);
      assert.match(text, /exactly one of `form` \(one word\) or `text`/);
    }
    const noLanguage = await call({ text: 'Ngiyabonga.' });
    assert.equal(noLanguage.isError, true);
    assert.match(noLanguage.text, /language/);
    const long = await call({ text: 'a '.repeat(10_001), language: 'zul' });
    assert.equal(long.isError, true);
    assert.match(long.text, /^text_too_long: the text has 20002 characters; at most 20000/);
    const binary = await call({ text: 'Ngiya\u0000bonga', language: 'zul' });
    assert.equal(binary.isError, true);
    assert.match(binary.text, /^invalid_text: .*U\+0000 at offset 5/);
  });

  it('keeps the tool count at 21', async () => {
    const { tools } = await mcp.client.listTools();
    assert.equal(tools.length, 21);
  });
});
