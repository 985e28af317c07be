// The cache of parsed cartridges (src/cartridge/cache.ts) and on-demand loading in the morphology
// service: a cartridge read back from the cache is the cartridge its YAML gives, an edited cartridge
// is never served from a stale file, and a service reads only the cartridges a request needs.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { CartridgeCache, readCartridgeFolder } from '../src/cartridge/cache.js';
import { loadCartridge } from '../src/cartridge/cartridge.js';
import { packageRoot } from '../src/config.js';
import { MorphologyService } from '../src/morphology/service.js';
import { openLanguageCodes } from '../src/services.js';

const dirs: string[] = [];
after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
const temporary = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'lugha-cartridge-cache-'));
  dirs.push(dir);
  return dir;
};

const languages = path.join(packageRoot, 'languages');

describe('cache of parsed cartridges', () => {
  it('gives back, from its file, the cartridge and phonology its YAML gives, for every installed language', () => {
    const cache = new CartridgeCache(temporary());
    const installed = readdirSync(languages).filter((name) => readdirSync(path.join(languages, name)).includes('cartridge.yaml'));
    assert.ok(installed.length > 40);
    for (const iso of installed) {
      const dir = path.join(languages, iso);
      const first = cache.load(iso, dir);
      assert.equal(first.source, 'yaml', iso);
      const again = cache.load(iso, dir);
      assert.equal(again.source, 'cache', iso);
      const fromYaml = readCartridgeFolder(dir);
      assert.deepStrictEqual(again.cartridge, fromYaml.cartridge, iso);
      assert.deepStrictEqual(again.phonology, fromYaml.phonology, iso);
    }
  });

  it('reads an edited cartridge from its YAML again, never from the stale file, and keeps one file per language', () => {
    const cacheDir = temporary();
    const cache = new CartridgeCache(cacheDir);
    const dir = path.join(temporary(), 'swh');
    cpSync(path.join(languages, 'swh'), dir, { recursive: true });
    assert.equal(cache.load('swh', dir).source, 'yaml');
    const before = cache.load('swh', dir);
    assert.equal(before.source, 'cache');
    writeFileSync(path.join(dir, 'lexicon.tsv'), 'lemma\tword_class\tgloss\tsource\nzzpenda\tverb\tzz-love\tashton1944\n');
    const after = cache.load('swh', dir);
    assert.equal(after.source, 'yaml');
    assert.deepStrictEqual(
      after.cartridge.lexicon.map((e) => e.lemma),
      ['zzpenda'],
    );
    assert.equal(readdirSync(cacheDir).filter((name) => name.startsWith('swh.')).length, 1);
  });

  it('a file that is not JSON is ignored and replaced', () => {
    const cacheDir = temporary();
    const cache = new CartridgeCache(cacheDir);
    const dir = path.join(languages, 'zul');
    cache.load('zul', dir);
    const [file] = readdirSync(cacheDir);
    writeFileSync(path.join(cacheDir, file!), '{ not json');
    const loaded = cache.load('zul', dir);
    assert.equal(loaded.source, 'yaml');
    assert.equal(loaded.cartridge.metadata.iso639_3, 'zul');
    assert.equal(cache.load('zul', dir).source, 'cache');
  });
});

describe('morphology service, cartridges on demand', () => {
  it('lists every installed language without reading a cartridge, and reads only the one a conjugation needs', () => {
    const morphology = MorphologyService.load(languages, openLanguageCodes());
    const installed = morphology.installed();
    assert.ok(installed.includes('swh') && installed.includes('zul'));
    assert.equal(installed.filter((iso) => morphology.loaded(iso)).length, 0);
    const input = { language: 'sw', root: 'penda', subject: '1sg', tense: 'present' };
    const result = morphology.conjugate(input);
    assert.ok(result.ok);
    // The same answer as a service given the cartridge read from its YAML up front.
    assert.deepStrictEqual(result, new MorphologyService([loadCartridge(path.join(languages, 'swh'))], openLanguageCodes()).conjugate(input));
    assert.deepStrictEqual(
      installed.filter((iso) => morphology.loaded(iso)),
      ['swh'],
    );
    // Listing the languages reads them all and lists each once.
    assert.deepStrictEqual(
      morphology.languages().map((l) => l.iso),
      installed,
    );
  });
});
