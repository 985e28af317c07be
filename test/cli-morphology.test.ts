// Pins the language commands as scripts call them, run as `lugha` from the built package: conjugate, analyze (a word, or standard input), and eval inflection/analysis with their exact last lines and exit codes.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { packageRoot } from '../src/config.js';
import { tempDir } from './helpers.js';

const bin = path.join(packageRoot, 'bin', 'lugha.js');
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('LUGHA_')));

function lugha(args: string[], input?: string) {
  const result = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: cleanEnv, input, timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const lastLine = (text: string) => text.trimEnd().split('\n').pop();

describe('lugha conjugate', () => {
  it('prints the surface form, the gloss and the slots', () => {
    const out = lugha(['conjugate', '--language', 'swh', '--root', 'penda', '--subject', '3pl', '--tense', 'future', '--polarity', 'negative', '--object', 'c7']);
    assert.equal(out.code, 0, out.stderr);
    const lines = out.stdout.split('\n');
    assert.equal(lines[0], 'hawatakipenda');
    assert.equal(lines[1], 'they will not love it (class 7)');
    assert.match(out.stdout, /^object\s+ki\s+c7$/m);
    assert.match(out.stdout, /^pre_initial\s+ha\s+negative$/m);
  });

  it('refuses a language name with the installed codes listed once (exit 2)', () => {
    const out = lugha(['conjugate', '--language', 'swahili', '--root', 'penda', '--subject', '1sg', '--tense', 'past']);
    assert.equal(out.code, 2);
    assert.match(out.stderr, /^lugha: --language: "swahili" is not a language code; installed: [a-z, ]*\bswh\b/);
    assert.equal(out.stderr.match(/\bswh\b/g)?.length, 1, out.stderr);
  });

  it('prints the service result as JSON with --json, and takes extensions and a feature bundle', () => {
    const applied = lugha(['conjugate', '--language', 'sw', '--root', 'kupenda', '--subject', '1sg', '--tense', 'present', '--extensions', 'applicative', '--json']);
    assert.equal(applied.code, 0, applied.stderr);
    const result = JSON.parse(applied.stdout);
    assert.equal(result.surface_form, 'ninapendea');
    assert.deepEqual(result.slots.extensions, { form: 'e', id: 'applicative' });
    const bundled = JSON.parse(lugha(['conjugate', '--language', 'swh', '--root', 'penda', '--features', 'V;IND;FUT;NEG;3;PL', '--json']).stdout);
    assert.equal(bundled.surface_form, 'hawatapenda');
  });

  it('exits 2 naming the bad option and its allowed values', () => {
    const language = lugha(['conjugate', '--language', 'xyz', '--root', 'penda']);
    assert.equal(language.code, 2);
    assert.match(language.stderr, /--language: no cartridge for "xyz"/);
    const tense = lugha(['conjugate', '--language', 'swh', '--root', 'penda', '--subject', '1sg', '--tense', 'soon']);
    assert.equal(tense.code, 2);
    assert.match(tense.stderr, /--tense: unknown tense "soon" \(allowed: present, past, future/);
    assert.equal(tense.stdout, '');
  });
});

describe('lugha analyze', () => {
  it('analyses each line of standard input, one block per word, blank lines skipped', () => {
    const out = lugha(['analyze', '--language', 'swh'], 'hawatakipenda\n\nxqxq\n');
    assert.equal(out.code, 0, out.stderr);
    const blocks = out.stdout.trimEnd().split('\n\n');
    assert.equal(blocks.length, 2);
    assert.equal(blocks[0]!.split('\n')[0], 'hawatakipenda');
    assert.match(blocks[0]!, /penda\s+verb\.future\.negative c2>c7\s+ha-wa-ta-ki-pend-a\s+they will not love it \(class 7\)/);
    assert.equal(blocks[1], 'xqxq\n  no analysis');
  });

  it('analyses a word given as argument, as JSON with --json', () => {
    const out = lugha(['analyze', 'ninapenda', '--language', 'swh', '--json']);
    assert.equal(out.code, 0, out.stderr);
    const { form, analyses } = JSON.parse(out.stdout);
    assert.equal(form, 'ninapenda');
    assert.equal(analyses[0].lemma, 'penda');
    assert.equal(analyses[0].features.tense, 'present');
  });
});

describe('lugha eval', () => {
  const dir = tempDir('lugha-gold-');
  after(() => rmSync(dir, { recursive: true, force: true }));
  // Six right rows; the last gold form is deliberately wrong (the past of andika is uliandika).
  const gold = path.join(dir, 'swh-sample.tsv');
  writeFileSync(
    gold,
    [
      '# lemma\tform\tfeatures',
      'penda\tninapenda\tV;IND;PRS;1;SG',
      'penda\twatapenda\tV;IND;FUT;3;PL',
      'penda\thawatapenda\tV;IND;FUT;NEG;3;PL',
      'soma\tnilisoma\tV;IND;PST;1;SG',
      'soma\ttunasoma\tV;IND;PRS;1;PL',
      'la\tanakula\tV;IND;PRS;3;SG',
      'andika\tuliandikaa\tV;IND;PST;2;SG',
      '',
    ].join('\n'),
  );

  it('eval inflection prints per-file accuracy, the worst bundles, and the accuracy line last', () => {
    const out = lugha(['eval', 'inflection', '--language', 'swh', gold]);
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stdout, /^swh-sample\.tsv\s+7\s+6\s+85\.71%$/m);
    assert.match(out.stdout, /V;IND;PST;2;SG\s+1 of 1 wrong\n\s+andika: gold uliandikaa, generated uliandika/);
    assert.equal(lastLine(out.stdout), 'accuracy: 85.71% (6/7)');
  });

  it('eval inflection --json prints the report alone', () => {
    const out = lugha(['eval', 'inflection', '--language', 'swh', '--json', gold]);
    assert.equal(out.code, 0, out.stderr);
    const report = JSON.parse(out.stdout);
    assert.deepEqual([report.cells, report.right, report.accuracy], [7, 6, 85.71]);
    assert.equal(report.worst[0].examples[0].generated, 'uliandika');
  });

  it('eval analysis prints the recall line last', () => {
    const out = lugha(['eval', 'analysis', '--language', 'swh', gold]);
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stdout, /uliandikaa\s+andika V;IND;PST;2;SG/);
    assert.equal(lastLine(out.stdout), 'recall: 85.71% (6/7)');
  });

  it('exits 2 with a message for a bad language or a missing file', () => {
    const language = lugha(['eval', 'inflection', '--language', 'xyz', gold]);
    assert.equal(language.code, 2);
    assert.match(language.stderr, /no cartridge for "xyz"/);
    const missing = lugha(['eval', 'analysis', '--language', 'swh', path.join(dir, 'nope.tsv')]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /nope\.tsv: no such file/);
    assert.equal(missing.stdout, '');
  });
});
