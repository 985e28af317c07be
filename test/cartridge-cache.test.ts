// The cache of parsed cartridges (src/cartridge/cache.ts) and on-demand loading in the morphology
// service: a cartridge read back from the cache is the cartridge its YAML gives, an edited cartridge
// is never served from a stale file, and a service reads only the cartridges a request needs.
import assert from 'node:assert/strict';
import { appendFileSync, cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { CartridgeCache, readCartridgeFolder, readCartridgeFolderDigested } from '../src/cartridge/cache.js';
import { loadCartridge } from '../src/cartridge/cartridge.js';
import { packageRoot } from '../src/config.js';
import { folderDigest } from '../src/file-digest.js';
import { FrameCache } from '../src/morphology/frame-cache.js';
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

describe('caches of a cartridge edited while a process holds it', () => {
  // A quantifier stem no cartridge has, added to Swahili's lexicon: `chozzi` is its class 7 form, as
  // `chote` is of -ote. A closed class is never guessed, so only the lexical index the frames carry reads it.
  const NEW_ENTRY = 'ozzi\tquantifier\ttest quantifier\t\tlugha-swh-lexicon\t\t\t\n';
  const readsNewWord = (morphology: MorphologyService) => {
    const result = morphology.analyze('chozzi', 'swh');
    assert.ok(result.ok);
    return result.value.some((a) => a.lemma === 'ozzi' && a.in_lexicon);
  };

  for (const withCartridgeCache of [true, false]) {
    it(`never serves frames of the old lexicon after an edit between the cartridge's read and the frames' save (${withCartridgeCache ? 'with' : 'without'} the cartridge cache)`, async () => {
      const dir = path.join(temporary(), 'swh');
      cpSync(path.join(languages, 'swh'), dir, { recursive: true });
      const frameCache = new FrameCache(temporary());
      const cartridgeCache = withCartridgeCache ? new CartridgeCache(temporary()) : undefined;
      const open = () => new MorphologyService([], openLanguageCodes(), { folders: [dir], frameCache, ...(cartridgeCache ? { cartridgeCache } : {}) });
      const first = open();
      // The cartridge is read (without the new verb), then its author edits the lexicon, then the frames are built and saved.
      assert.ok(first.engine('swh').ok);
      appendFileSync(path.join(dir, 'lexicon.tsv'), NEW_ENTRY);
      assert.equal(await first.prepareInBackground('swh'), 'built');
      assert.equal(readsNewWord(first), false, 'the first process still holds the lexicon it read');
      // A later process reads the edited cartridge and must not take the first one's frames for it.
      const fresh = open();
      assert.ok(readsNewWord(fresh), 'a fresh service analyses a word of the new lexicon');
      const again = open();
      assert.equal(await again.prepareInBackground('swh'), 'cache', 'the frames of the edited cartridge are kept');
      assert.ok(readsNewWord(again));
    });
  }

  it('a read that saw the folder change has no digest; a read that did not has the digest of what it read', () => {
    const dir = path.join(temporary(), 'swh');
    cpSync(path.join(languages, 'swh'), dir, { recursive: true });
    const before = folderDigest(dir);
    assert.equal(readCartridgeFolderDigested(dir, before).digest, before);
    appendFileSync(path.join(dir, 'lexicon.tsv'), NEW_ENTRY);
    // The digest taken before the read no longer describes the files read: the mirror race.
    assert.equal(readCartridgeFolderDigested(dir, before).digest, undefined);
    const cacheDir = temporary();
    const loaded = new CartridgeCache(cacheDir).load('swh', dir);
    assert.equal(loaded.digest, folderDigest(dir));
    assert.ok(loaded.cartridge.lexicon.some((e) => e.lemma === 'ozzi'));
  });
});
