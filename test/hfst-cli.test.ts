// Pins `lugha hfst …` as a stand-in for hfst-optimized-lookup in a pipeline: same input on stdin, same bytes on stdout.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { packageRoot } from '../src/config.js';
import { HFST_MISSING, hfstForTests, kipoModelsFolder } from './hfst-fixtures.js';
import { tempDir } from './helpers.js';

const hfst = hfstForTests();
const bin = path.join(packageRoot, 'bin', 'lugha.js');
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('LUGHA_')));

function run(command: string, args: string[], input: string, env: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(command, args, { input, encoding: 'utf8', env: { ...cleanEnv, ...env }, timeout: 60_000, maxBuffer: 1 << 26 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('lugha hfst lookup', { skip: hfst ? false : HFST_MISSING }, () => {
  let dir: string;
  let models: string;
  before(() => {
    dir = tempDir('lugha-hfst-cli-');
    models = kipoModelsFolder(dir);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const words = ['bula', 'tɛ́ma', 'sítɛ́makoɛ́', 'babula', 'xyz', '', 'bulilɛ́', 'baŋgɔ̌'].join('\n') + '\n';

  for (const [model, args] of [
    ['kipo-analyser', ['-w']],
    ['kipo-analyser', []],
    ['kipo-plain-analyser', ['-u']],
    ['kipo-analyser', ['-n', '1', '-w']],
  ] as const) {
    it(`prints what hfst-optimized-lookup ${args.join(' ')} prints (${model})`, () => {
      const ours = run(process.execPath, [bin, 'hfst', 'lookup', '--model', model, ...args], words, { LUGHA_MODELS_DIR: models });
      assert.equal(ours.code, 0, ours.stderr);
      const theirs = run('hfst-optimized-lookup', ['--pipe-mode=input', ...args, path.join(models, `${model}.hfstol`)], words);
      assert.equal(ours.stdout, theirs.stdout);
    });
  }

  it('generates with --generate (by base name) and reads an .hfstol file given with --file', () => {
    const generated = run(process.execPath, [bin, 'hfst', 'lookup', '--model', 'kipo', '--generate', '--models-dir', models, '-w'], 'tɛ́m<v><past>\n');
    assert.equal(generated.code, 0, generated.stderr);
    assert.equal(generated.stdout, 'tɛ́m<v><past>\ttɛ́milɛ́\t1.25\ntɛ́m<v><past>\ttɛ́mile\t2\n\n');
    const file = run(process.execPath, [bin, 'hfst', 'lookup', '--file', path.join(models, 'kipo-analyser.hfstol')], 'mibula\n');
    assert.equal(file.stdout, 'mibula\tbula<n><pl>\n\n');
  });

  it('fails with exit code 2 and the installed names for an unknown model or the wrong direction', () => {
    const unknown = run(process.execPath, [bin, 'hfst', 'lookup', '--model', 'nope', '--models-dir', models], 'bula\n');
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /kipo-analyser/);
    const wrong = run(process.execPath, [bin, 'hfst', 'lookup', '--model', 'kipo-generator', '--models-dir', models], 'bula\n');
    assert.equal(wrong.code, 2);
    assert.match(wrong.stderr, /generator/);
  });

  it('build: a repeated --language adds its codes (commander would keep only the last)', () => {
    const built = run(process.execPath, [bin, 'hfst', 'build', '--language', 'zzz', '--language', 'yyy', '--models-dir', path.join(dir, 'built')], '');
    assert.equal(built.code, 2, 'an unknown language is a usage error');
    assert.match(built.stderr, /no cartridge for "zzz"/, 'the first --language is kept');
    assert.doesNotMatch(built.stderr, /^\s+at /m, 'a message, not a stack trace');
  });

  it('lists the models folder', () => {
    const out = run(process.execPath, [bin, 'hfst', 'list', '--models-dir', models, '--json'], '');
    assert.equal(out.code, 0, out.stderr);
    const listed = JSON.parse(out.stdout);
    assert.deepEqual(
      listed.models.map((m: { name: string }) => m.name),
      ['kipo-analyser', 'kipo-generator', 'kipo-plain-analyser'],
    );
  });
});

describe('lugha hfst list with manifests it cannot use', () => {
  it('lists each skipped manifest with its path and reason, in JSON and on standard error', () => {
    const dir = tempDir('lugha-hfst-problems-');
    try {
      const manifest = path.join(dir, 'gone.model.yaml');
      writeFileSync(manifest, 'file: gone.hfstol\nlanguage: und\ndirection: analyse\ntags: test\nlicence: MIT\nsource: a test\n');
      writeFileSync(path.join(dir, 'not yaml.model.yaml'), 'x');
      const json = run(process.execPath, [bin, 'hfst', 'list', '--models-dir', dir, '--json'], '');
      assert.equal(json.code, 0, json.stderr);
      const listed = JSON.parse(json.stdout) as { models: unknown[]; problems: Array<{ manifest: string; problem: string }> };
      assert.deepEqual(listed.models, []);
      assert.deepEqual(
        listed.problems.map((p) => Object.keys(p).sort()),
        [
          ['manifest', 'problem'],
          ['manifest', 'problem'],
        ],
      );
      assert.deepEqual(listed.problems.find((p) => p.manifest === manifest)?.problem, 'gone.hfstol is missing');
      assert.match(listed.problems.find((p) => p.manifest !== manifest)?.problem ?? '', /model names use letters/);
      const text = run(process.execPath, [bin, 'hfst', 'list', '--models-dir', dir], '');
      assert.equal(text.code, 0, text.stderr);
      assert.match(text.stderr, new RegExp(`^lugha: skipped ${manifest.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: gone\.hfstol is missing$`, 'm'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('lugha hfst export', () => {
  it('prints lexc for a cartridge with a verb grammar without needing the HFST tools', () => {
    const out = run(process.execPath, [bin, 'hfst', 'export', '--language', 'sw'], '');
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stdout, /^Multichar_Symbols$/m);
    assert.match(out.stdout, /^LEXICON Root$/m);
    // The grammar export (default): the verb template as continuation lexicons and flags.
    assert.match(out.stdout, /^LEXICON TagT$/m);
    assert.match(out.stdout, /@R\.T\.present@%\+T%\/present/);
    assert.match(out.stdout, /^LEXICON GuessRoot$/m);
    // What `lugha hfst build` compiles: the lexicon without the open root class, and the guesser without the lexicon.
    const lexicon = run(process.execPath, [bin, 'hfst', 'export', '--language', 'sw', '--roots', 'lexicon'], '');
    assert.equal(lexicon.code, 0, lexicon.stderr);
    assert.doesNotMatch(lexicon.stdout, /^GuessRoot ;$/m);
    // A lexicon root of the regular template (penda, with its lexical causative pendeza, is now exported as listed forms).
    assert.match(lexicon.stdout, /^\S*0soma0:\S* Tags ;$/m);
    const guesser = run(process.execPath, [bin, 'hfst', 'export', '--language', 'sw', '--roots', 'guesser'], '');
    assert.equal(guesser.code, 0, guesser.stderr);
    assert.match(guesser.stdout, /^GuessRoot ;$/m);
    assert.doesNotMatch(guesser.stdout, /penda/);
    const bad = run(process.execPath, [bin, 'hfst', 'export', '--language', 'sw', '--roots', 'some'], '');
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--roots: lexicon, guesser or both/);
    const table = run(process.execPath, [bin, 'hfst', 'export', '--language', 'sw', '--kind', 'table'], '');
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /%\+V%\+T%\/\w+/);
  });
});
