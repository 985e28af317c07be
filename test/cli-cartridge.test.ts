// Pins `lugha cartridge check <iso>` as an author runs it from the built package: a valid cartridge
// prints its files and both golden directions and exits 0; a bad file or a failing golden case
// exits 1, naming the file, line and column, or the case with its source, expected and actual form.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { packageRoot } from '../src/config.js';
import { tempDir } from './helpers.js';

const bin = path.join(packageRoot, 'bin', 'lugha.js');
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('LUGHA_')));

function lugha(args: string[]) {
  const result = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: cleanEnv, timeout: 120_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A languages folder holding a copy of one installed cartridge, to break. */
function copyOf(iso: string): { dir: string; file: (name: string) => string } {
  const dir = tempDir();
  mkdirSync(path.join(dir, iso));
  cpSync(path.join(packageRoot, 'languages', iso), path.join(dir, iso), { recursive: true });
  return { dir, file: (name) => path.join(dir, iso, name) };
}

describe('lugha cartridge check', () => {
  it('validates an installed cartridge and runs its golden tests in both directions', () => {
    // Lingala's golden file has no open mark (analysis_open, gloss_open), so every case passes outright.
    const out = lugha(['cartridge', 'check', 'lin']);
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stdout, /^lin: cartridge\.yaml, .*lexicon\.tsv, golden\.yaml/m);
    assert.match(out.stdout, /^files: valid$/m);
    assert.match(out.stdout, /^generation: (\d+)\/\1 pass$/m);
    assert.match(out.stdout, /^analysis: (\d+)\/\1 pass$/m);
    assert.equal(out.stdout.trimEnd().split('\n').pop(), 'lin: ok');
  });

  it('says which golden cells the analyzer cannot read, and lists them with --list', () => {
    // Kinyarwanda marks analyzer gaps (analysis_open), among them a relative whose head class no part of the word shows.
    const out = lugha(['cartridge', 'check', 'kin', '--list']);
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stdout, /^analysis: \d+\/\d+ pass \(\d+ not read by the analyzer yet, not counted as passing\)$/m);
    assert.match(out.stdout, /^ {2}not read: analysis: golden\.yaml case \d+, ha tense=past_relative subject=2sg object=1sg head=c2 \(source: .+\): wampaye: the analyser reads wampaye/m);
  });

  it('exits 1 naming the file, line and column of a lexicon row without a source', () => {
    const copy = copyOf('tsn');
    const lines = readFileSync(copy.file('lexicon.tsv'), 'utf8').split('\n');
    const header = lines[0]!.split('\t');
    const row = lines[2]!.split('\t');
    row[header.indexOf('source')] = '';
    lines[2] = row.join('\t');
    writeFileSync(copy.file('lexicon.tsv'), lines.join('\n'));
    const out = lugha(['cartridge', 'check', 'tsn', '--languages-dir', copy.dir]);
    assert.equal(out.code, 1);
    assert.match(out.stdout, /^invalid: tsn\/lexicon\.tsv:3: column source: empty; it is required$/m);
    assert.match(out.stderr, /the cartridge check failed/);
  });

  it('exits 1 printing a failing golden case with its source, the expected and the generated form', () => {
    const copy = copyOf('tsn');
    const golden = readFileSync(copy.file('golden.yaml'), 'utf8');
    const first = /form: ([^,}]+),/.exec(golden)!;
    writeFileSync(copy.file('golden.yaml'), golden.replace(first[0], `form: ${first[1]}x,`));
    const out = lugha(['cartridge', 'check', 'tsn', '--languages-dir', copy.dir]);
    assert.equal(out.code, 1);
    assert.match(out.stdout, new RegExp(`^FAIL generation: golden\\.yaml case 1, .+ \\(source: .+\\): expected ${first[1]}x, got ${first[1]}$`, 'm'));
    assert.match(out.stdout, new RegExp(`^FAIL analysis: golden\\.yaml case 1, .+: ${first[1]}x: `, 'm'));
    assert.equal(out.stdout.trimEnd().split('\n').pop(), 'tsn: FAILED');
  });

  it('refuses a folder that is not a cartridge with exit code 2', () => {
    const out = lugha(['cartridge', 'check', 'xyz']);
    assert.equal(out.code, 2);
    assert.match(out.stderr, /no cartridge folder xyz\//);
  });
});
