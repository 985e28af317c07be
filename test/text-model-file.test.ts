// Pins the learnt text models' binary files (src/text/model-file.ts): a model read from its file analyses text exactly as the model read from its TSV files; the file is written on the first read and used after; a changed model folder or a damaged file is never served; a background read lets the event loop turn.
import assert from 'node:assert/strict';
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { packageRoot } from '../src/config.js';
import { LearnedTextAnalyzer } from '../src/text/learned-analyzer.js';
import { formEntries, lemmaCounts, loadModel, type LearnedModel } from '../src/text/learned-model.js';
import { loadModelFile, loadModelFileInBackground } from '../src/text/model-file.js';
import { parseSadii } from '../src/text/sadii.js';
import { tempDir } from './helpers.js';

const languagesDir = path.join(packageRoot, 'languages');
const shipped = ['zul', 'xho', 'ssw', 'nbl'];
/** The words of the zul sample text, as paragraphs of tokens. */
const paragraphs = parseSadii(readFileSync(path.join(packageRoot, 'test', 'fixtures', 'text', 'zul-sample.sadii'), 'utf8')).map((p) => p.tokens.map((t) => t.token));
/** Words no model has seen, read by the templates. */
const unseen = ['ngiyakuthandisisa', 'abasebenzisanayo', 'kwezokuxhumana', 'zingamaphoyisa', 'ezingu-2026'];

/** A copy of a shipped cartridge's text model in a temporary folder (`<tmp>/<iso>/text`). */
function copyModel(iso: string): string {
  const dir = path.join(tempDir(), iso, 'text');
  cpSync(path.join(languagesDir, iso, 'text'), dir, { recursive: true });
  return dir;
}

function analyses(model: LearnedModel): unknown {
  const analyzer = new LearnedTextAnalyzer(model);
  return [...paragraphs.map((tokens) => analyzer.analyzeTokens(tokens, { all: true })), analyzer.analyzeTokens(unseen, { all: true })];
}

describe('text model files', () => {
  for (const iso of shipped) {
    it(`reads the ${iso} model from its file as it reads it from its TSV files`, () => {
      const dir = path.join(languagesDir, iso, 'text');
      const cacheDir = tempDir();
      const first = loadModelFile(dir, cacheDir);
      const again = loadModelFile(dir, cacheDir);
      assert.ok(first && again);
      assert.equal(first.source, 'tsv');
      assert.equal(again.source, 'file');
      assert.equal(readdirSync(cacheDir).filter((n) => n.startsWith(`${iso}.`) && n.endsWith('.model')).length, 1);
      const tsv = loadModel(dir)!;
      const file = again.model;
      assert.equal(file.forms.size, tsv.forms.size);
      for (const form of tsv.forms.keys()) assert.deepStrictEqual(formEntries(file, form), formEntries(tsv, form), form);
      assert.deepStrictEqual(new Map(file.lexicon), new Map(tsv.lexicon));
      // A model whose meta.yaml names a related language's lexicon (nbl) keeps it in its file.
      assert.equal(tsv.related !== undefined, tsv.meta.related_lexicon !== undefined);
      assert.deepStrictEqual(new Map(file.related ?? []), new Map(tsv.related ?? []));
      // Likewise the stems drawn from the cartridge's lexicon (meta.yaml `cartridge_lexicon`).
      assert.equal(tsv.cartridge !== undefined, tsv.meta.cartridge_lexicon !== undefined);
      assert.deepStrictEqual(new Map(file.cartridge ?? []), new Map(tsv.cartridge ?? []));
      assert.deepStrictEqual(new Map(file.pairs), new Map(tsv.pairs));
      // Counted when the file is written, not on the first unseen word.
      assert.ok(file.lemmas);
      assert.deepStrictEqual(new Map(file.lemmas), new Map(lemmaCounts(tsv)));
      assert.deepStrictEqual(new Map(file.weights), new Map(tsv.weights));
      assert.deepStrictEqual(new Map(file.context!.entries()), new Map(tsv.context!.entries()));
      assert.deepStrictEqual([...file.prefixTemplates], tsv.prefixTemplates);
      assert.deepStrictEqual([...file.suffixTemplates], tsv.suffixTemplates);
      const lines = (model: typeof file) => Array.from({ length: model.rawReadings?.length ?? 0 }, (_, i) => model.rawReadings!.at(i));
      assert.ok(lines(tsv).length > 0);
      assert.deepStrictEqual(lines(file), lines(tsv));
      assert.deepStrictEqual([file.meta, file.scale, file.language], [tsv.meta, tsv.scale, tsv.language]);
      assert.equal(file.forms.get('no-such-form-in-any-text'), undefined);
      assert.deepStrictEqual(analyses(file), analyses(tsv));
    });
  }

  it('does not serve the file of a changed model: a changed weight is read from the TSV files and the stale file replaced', () => {
    const dir = copyModel('zul');
    const cacheDir = tempDir();
    const before = loadModelFile(dir, cacheDir)!.model;
    const [feature, weight] = [...before.weights].find(([, w]) => w !== 0)!;
    const weightsFile = path.join(dir, 'weights.tsv');
    const lines = readFileSync(weightsFile, 'utf8').split('\n');
    const at = lines.findIndex((l) => l.startsWith(`${feature}\t`));
    assert.ok(at > 0, feature);
    lines[at] = `${feature}\t${-weight + 1}`;
    writeFileSync(weightsFile, lines.join('\n'));
    const after = loadModelFile(dir, cacheDir)!;
    assert.equal(after.source, 'tsv');
    assert.equal(after.model.weights.get(feature), -weight + 1);
    assert.equal(readdirSync(cacheDir).filter((n) => n.endsWith('.model')).length, 1, 'the stale file is removed');
    assert.equal(loadModelFile(dir, cacheDir)!.model.weights.get(feature), -weight + 1);
  });

  it('notes the key of an unchanged model folder, and hashes the folder again once a file changed', async () => {
    const dir = copyModel('zul');
    const cacheDir = tempDir();
    // A folder changed within the last two seconds is not noted (a change in the same clock tick would keep the times).
    loadModelFile(dir, cacheDir);
    assert.ok(!readdirSync(cacheDir).some((n) => n.endsWith('-key.json')), 'a folder just written is not noted');
    await new Promise((resolve) => setTimeout(resolve, 2100));
    assert.equal(loadModelFile(dir, cacheDir)!.source, 'file');
    const [note] = readdirSync(cacheDir).filter((n) => n.endsWith('-key.json'));
    assert.ok(note, 'the key is noted');
    const noted = loadModelFile(dir, cacheDir)!;
    assert.equal(noted.source, 'file');
    const [feature, weight] = [...noted.model.weights].find(([, w]) => w !== 0)!;
    const weightsFile = path.join(dir, 'weights.tsv');
    const text = readFileSync(weightsFile, 'utf8');
    writeFileSync(weightsFile, text.replace(`\n${feature}\t`, `\n${feature}\t${-weight + 1}\n${feature}-x\t`));
    const after = loadModelFile(dir, cacheDir)!;
    assert.equal(after.source, 'tsv');
    assert.equal(after.model.weights.get(feature), -weight + 1);
  });

  it('reads a damaged file as missing: the model comes from its TSV files and the file is written again', () => {
    const dir = copyModel('xho');
    const cacheDir = tempDir();
    const tsv = loadModelFile(dir, cacheDir)!.model;
    const [name] = readdirSync(cacheDir);
    const file = path.join(cacheDir, name!);
    writeFileSync(file, readFileSync(file).subarray(0, 100_000));
    const reread = loadModelFile(dir, cacheDir)!;
    assert.equal(reread.source, 'tsv');
    assert.deepStrictEqual(analyses(reread.model), analyses(tsv));
    assert.equal(loadModelFile(dir, cacheDir)!.source, 'file');
  });

  it('reads a file in the background as at once, letting the event loop turn', async () => {
    const dir = path.join(languagesDir, 'zul', 'text');
    const cacheDir = tempDir();
    loadModelFile(dir, cacheDir);
    let turns = 0;
    let ticking = true;
    const tick = (): void => {
      turns++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const background = await loadModelFileInBackground(dir, cacheDir, 0);
    ticking = false;
    assert.ok(background);
    assert.equal(background.source, 'file');
    assert.ok(turns >= 3, `the event loop turned ${turns} times`);
    assert.deepStrictEqual(analyses(background.model), analyses(loadModelFile(dir, cacheDir)!.model));
  });

  it('gives null for a folder without a model', async () => {
    assert.equal(loadModelFile(tempDir(), tempDir()), null);
    assert.equal(await loadModelFileInBackground(tempDir(), tempDir()), null);
  });
});
