// Pins `lugha conjugate --include-tones` as a script sees it: the tone-marked form and one row per syllable, the same tones as the service, and the plain statement for a language without tone.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, it } from 'node:test';
import { packageRoot } from '../src/config.js';
import { openLanguageCodes, openMorphology } from '../src/services.js';
import { ToneService } from '../src/tone/service.js';

const bin = path.join(packageRoot, 'bin', 'lugha.js');
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('LUGHA_')));
const lugha = (args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: cleanEnv, timeout: 60_000 });

describe('lugha conjugate --include-tones', () => {
  it('prints the tone-marked form and each syllable with its morph and tones, as the service computes them', () => {
    const codes = openLanguageCodes();
    const morphology = openMorphology({ languagesDir: path.join(packageRoot, 'languages') }, codes);
    const golden = new ToneService({ morphology, codes, referenceDir: path.join(packageRoot, 'reference', 'tone') }).golden().find((g) => g.pass);
    assert.ok(golden?.root && golden.cell);
    const out = lugha(['conjugate', '--language', golden.language, '--root', golden.root, '--tense', String(golden.cell.tense), '--subject', String(golden.cell.subject), '--include-tones']);
    assert.equal(out.status, 0, out.stderr);
    assert.match(out.stdout, new RegExp(`^tones: ${golden.respelled ?? golden.expect}$`, 'm'));
    assert.match(out.stdout, /^UNIT\s+MORPH\s+UNDERLYING\s+FROM\s+SURFACE\s+RULES/m);
    const plain = lugha(['conjugate', '--language', golden.language, '--root', golden.root, '--tense', String(golden.cell.tense), '--subject', String(golden.cell.subject)]);
    assert.doesNotMatch(plain.stdout, /^tones:/m);
    assert.equal(plain.stdout.split('\n')[0], out.stdout.split('\n')[0], 'the same surface form with and without tones');
  });

  it('says so for a language without tone', () => {
    const out = lugha(['conjugate', '--language', 'swh', '--root', 'penda', '--subject', '1sg', '--tense', 'present', '--include-tones']);
    assert.equal(out.status, 0, out.stderr);
    assert.match(out.stdout, /^tones: .*no lexical or grammatical tone/m);
  });
});
