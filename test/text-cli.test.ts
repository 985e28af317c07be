// Pins `lugha analyze --text` as scripts call it from the built package: a file or standard input, the text, JSON-lines and SADII formats, and its usage errors; the one-word-a-line standard input mode is unchanged.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { packageRoot } from '../src/config.js';
import { parseSadii } from '../src/text/sadii.js';
import { tempDir } from './helpers.js';

const bin = path.join(packageRoot, 'bin', 'lugha.js');
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('LUGHA_')));

function lugha(args: string[], input?: string) {
  const result = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: cleanEnv, input, timeout: 120_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('lugha analyze --text', () => {
  const dir = tempDir('lugha-text-');
  after(() => rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'zul.txt');
  writeFileSync(file, 'Ngiyabonga kakhulu, mngane!\n\nUmasipala uzosebenzisa imali.\n');

  it('prints the SADII format: <LINE# n> a paragraph, then token, segmentation, lemma, POS', () => {
    const out = lugha(['analyze', '--language', 'zu', '--text', file, '--format', 'sadii']);
    assert.equal(out.code, 0, out.stderr);
    const paragraphs = parseSadii(out.stdout);
    assert.deepEqual(
      paragraphs.map((p) => [p.id, p.tokens.map((t) => t.token)]),
      [
        ['1', ['Ngiyabonga', 'kakhulu', ',', 'mngane', '!']],
        ['2', ['Umasipala', 'uzosebenzisa', 'imali', '.']],
      ],
    );
    assert.match(out.stdout, /^,\t,\[Punc\]\t,\tPUNC$/m);
    const thanks = paragraphs[0]!.tokens[0]!;
    assert.deepEqual([thanks.lemma, thanks.pos], ['bonga', 'V']);
    assert.ok(thanks.morphemes.some((m) => m.canonical === 'bong'));
  });

  it('reads the text from standard input with --text -, as JSON lines (one a paragraph) with --format json', () => {
    const out = lugha(['analyze', '--language', 'zul', '--text', '-', '--format', 'json'], 'Ngiyabonga.\n\nYebo.');
    assert.equal(out.code, 0, out.stderr);
    const lines = out.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.deepEqual(
      lines.map((l) => [l.paragraph, l.tokens.map((t: { text: string }) => t.text)]),
      [
        [0, ['Ngiyabonga', '.']],
        [1, ['Yebo', '.']],
      ],
    );
    assert.equal(lines[0].tokens[0].analyses[0].lemma, 'bonga');
  });

  it('prints one line a token and one more a further reading in the text format; --lines makes every line a paragraph', () => {
    const out = lugha(['analyze', '--language', 'zul', '--text', '-', '--lines'], 'Ngiyabonga\nmngane\n');
    assert.equal(out.code, 0, out.stderr);
    const blocks = out.stdout.trimEnd().split('\n\n');
    assert.equal(blocks.length, 2);
    assert.match(blocks[0]!, /^Ngiyabonga\tbonga\tV\tNgi-ya-bong-a\t0\.\d{3}$/m, 'morphs as written, capital kept');
  });

  it('keeps the one-word-a-line mode of standard input without --text', () => {
    const out = lugha(['analyze', '--language', 'zul'], 'ngiyabonga\n');
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stdout, /^ngiyabonga\n\s+LEMMA/);
    assert.match(out.stdout, /^\s+bonga\s+V\s+ngi-ya-bong-a\s+0\.\d{3}$/m, 'the learnt reading: lemma, POS, morphs, probability');
  });

  it('reads a word of a language with a text model by that model (the code as given: zu), with where its stem is listed', () => {
    const out = lugha(['analyze', 'umuntu', '--language', 'zu', '--json'], '');
    assert.equal(out.code, 0, out.stderr);
    const { form, analyses } = JSON.parse(out.stdout) as { form: string; analyses: Array<{ lemma: string; pos: string; stem_source: string | null; gloss: string | null }> };
    assert.equal(form, 'umuntu');
    assert.deepEqual([analyses[0]!.lemma, analyses[0]!.pos, analyses[0]!.stem_source, analyses[0]!.gloss], ['ntu', 'N01', 'lugha-zul-lexicon', 'person']);
    const unknown = lugha(['analyze', 'umuntu', '--language', 'xyz'], '');
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /--language/);
  });

  it('exits 2 for sadii without --text or a bad format, 1 for an unreadable file or binary content', () => {
    const sadii = lugha(['analyze', 'ngiyabonga', '--language', 'zul', '--format', 'sadii']);
    assert.equal(sadii.code, 2);
    assert.match(sadii.stderr, /--format sadii is for running text/);
    const format = lugha(['analyze', '--language', 'zul', '--text', file, '--format', 'xml']);
    assert.equal(format.code, 2);
    assert.match(format.stderr, /allowed: text, json, sadii/);
    const missing = lugha(['analyze', '--language', 'zul', '--text', path.join(dir, 'none.txt')]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /cannot read .*none\.txt: ENOENT/);
    const binary = lugha(['analyze', '--language', 'zul', '--text', '-'], 'Ngiya\u0000bonga');
    assert.equal(binary.code, 1);
    assert.match(binary.stderr, /U\+0000 at offset 5/);
  });
});
