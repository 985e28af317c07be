// The lexicon look-ups on the command line (search-roots, noun-classes, decompose), run as `lugha` from the built package:
// each prints what the MCP tool of the same name returns (the same function of src/lexicon-service.ts), and names a bad option with exit code 2.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, it } from 'node:test';
import { loadConfig, packageRoot } from '../src/config.js';
import { decompose, nounClasses, searchLexicon } from '../src/lexicon-service.js';
import { openMorphology } from '../src/services.js';

const bin = path.join(packageRoot, 'bin', 'lugha.js');
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('LUGHA_')));

function lugha(args: string[]) {
  const result = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: cleanEnv, timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const morphology = openMorphology(loadConfig({}), undefined, { only: ['swh', 'zul'], frameCache: false });

describe('lugha search-roots', () => {
  it('prints the entries whose lemma starts with the query, the same as search_roots returns', () => {
    const out = lugha(['search-roots', 'pend', '--language', 'swh', '--json']);
    assert.equal(out.code, 0, out.stderr);
    const expected = searchLexicon(morphology, { language: 'swh', query: 'pend' });
    assert.ok(expected.ok);
    assert.deepEqual(JSON.parse(out.stdout), expected.value);
    assert.ok(expected.value.entries.some((e) => e.lemma === 'penda' && e.match === 'lemma'));
  });

  it('lists lemma, class and gloss in text, and says how many more a limit left out', () => {
    const out = lugha(['search-roots', 'pend', '--language', 'swh', '--limit', '1']);
    assert.equal(out.code, 0, out.stderr);
    const full = searchLexicon(morphology, { language: 'swh', query: 'pend' });
    assert.ok(full.ok);
    const first = full.value.entries[0]!;
    assert.match(out.stdout, new RegExp(`^${first.lemma}\\s+${first.word_class}\\s`, 'm'));
    assert.match(out.stdout, new RegExp(`\\(1 of ${full.value.total}; --limit for more\\)`));
  });

  it('refuses a limit outside 1..100 and an unknown language with exit code 2, naming the option', () => {
    const limit = lugha(['search-roots', 'pend', '--language', 'swh', '--limit', '500']);
    assert.equal(limit.code, 2);
    assert.match(limit.stderr, /^lugha: --limit: /);
    const language = lugha(['search-roots', 'pend', '--language', 'xxx']);
    assert.equal(language.code, 2);
    assert.match(language.stderr, /^lugha: --language: .*\bswh\b/);
  });
});

describe('lugha noun-classes', () => {
  it('prints the noun classes of the agreement table, the same as get_noun_classes returns', () => {
    const out = lugha(['noun-classes', '--language', 'swh', '--json']);
    assert.equal(out.code, 0, out.stderr);
    const expected = nounClasses(morphology, 'swh');
    assert.ok(expected.ok);
    assert.deepEqual(JSON.parse(out.stdout), expected.value);
    const text = lugha(['noun-classes', '--language', 'swh']);
    assert.equal(text.code, 0, text.stderr);
    for (const c of expected.value.classes) assert.match(text.stdout, new RegExp(`^${c.id}\\s+${c.number}\\s`, 'm'));
    assert.match(text.stdout, new RegExp(`\\(source: ${expected.value.source}\\)`));
  });
});

describe('lugha decompose', () => {
  it('prints one segmentation per analysis, most plausible first, the same as decompose_morphemes returns', () => {
    const out = lugha(['decompose', 'ninakupenda', '--language', 'swh', '--json']);
    assert.equal(out.code, 0, out.stderr);
    const expected = decompose(morphology, 'ninakupenda', 'swh');
    assert.ok(expected.ok);
    assert.ok(expected.value.decompositions.length > 0);
    assert.deepEqual(JSON.parse(out.stdout), expected.value);
    const text = lugha(['decompose', 'ninakupenda', '--language', 'swh']);
    assert.equal(text.code, 0, text.stderr);
    const firstLine = text.stdout.split('\n')[1]!;
    assert.ok(firstLine.startsWith(expected.value.decompositions[0]!.segmentation), text.stdout);
  });

  it('says so when a word has no analysis, and refuses an unknown language with exit code 2', () => {
    const none = lugha(['decompose', 'qqqq', '--language', 'swh']);
    assert.equal(none.code, 0, none.stderr);
    assert.match(none.stdout, /^no analysis of "qqqq" in swh$/m);
    const language = lugha(['decompose', 'ninakupenda', '--language', 'xxx']);
    assert.equal(language.code, 2);
  });
});
