// Pins the analyser's packed indexes (packed-cells.ts, lexical-index.ts): the packed cells are the paradigm's cells, key order included, and an analyser that read its frames and lexical index from the cache's bytes analyses every word as the one that built them, and writes the same bytes back.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { packageRoot } from '../src/config.js';
import { loadCartridge } from '../src/cartridge/cartridge.js';
import { Analyzer, enumerateCells } from '../src/morphology/analyzer.js';
import { Generator } from '../src/morphology/generator.js';
import { PackedCells } from '../src/morphology/packed-cells.js';

const cartridge = loadCartridge(path.join(packageRoot, 'languages', 'swh'));
/** An analyser that built its frames and lexical index, once for the file. */
let builtOnce: Analyzer | undefined;
const builtAnalyzer = (): Analyzer => {
  if (!builtOnce) {
    builtOnce = new Analyzer(new Generator(cartridge));
    builtOnce.warm();
  }
  return builtOnce;
};

describe('packed analyser indexes (swh)', () => {
  it('the packed cells are the paradigm cells, in order and with their keys in order, one object per cell', () => {
    const cells = enumerateCells(new Generator(cartridge));
    const packed = PackedCells.of(cells);
    assert.ok(packed instanceof PackedCells, 'every cell of the paradigm has string values: packed');
    assert.equal(packed.length, cells.length);
    for (let i = 0; i < cells.length; i++) assert.equal(JSON.stringify(packed.at(i)), JSON.stringify(cells[i]), `cell ${i}`);
    assert.equal(packed.at(7), packed.at(7));
    assert.equal(packed.at(cells.length), undefined);
  });

  it('an analyser reading the cached index analyses as the one that built it, and writes the same bytes', () => {
    const built = builtAnalyzer();
    const bytes = built.exportIndex();
    const read = new Analyzer(new Generator(cartridge));
    assert.equal(read.importIndex(bytes), true);
    assert.ok(read.ready);
    assert.ok(read.exportIndex().equals(bytes));
    // Nouns and agreeing words of the lexicon (the lexical index), their plurals, verb forms (the frames) and guesses.
    const nonVerbs = cartridge.lexicon.filter((e) => e.word_class !== 'verb').slice(0, 60);
    const words = [...nonVerbs.map((e) => e.lemma), 'watoto', 'vitabu', 'kizuri', 'wazuri', 'ninapenda', 'hawakusoma', 'tutawaona', 'alimpikia', 'kitabuni', 'mblorg'];
    let fromLexicon = 0;
    for (const word of words) {
      const analyses = read.analyze(word);
      assert.deepStrictEqual(analyses, built.analyze(word), word);
      if (analyses.some((a) => a.in_lexicon && a.cell.word_class !== 'verb')) fromLexicon++;
    }
    assert.ok(fromLexicon >= 40, `${fromLexicon} words read from the lexicon`);
  });

  it('refuses cached bytes whose lexical index names a cell outside the paradigm', () => {
    const bytes = builtAnalyzer().exportIndex();
    // The lexical index sits in the JSON header: give its first entry a cell id past the paradigm's end.
    const jsonLength = bytes.readUInt32LE(4);
    const header = JSON.parse(bytes.toString('utf8', 8, 8 + jsonLength)) as { cells: number; extra: Array<Array<string | number>> };
    const row = header.extra.find((r) => r.length >= 3)!;
    row[2] = header.cells + 5;
    const json = Buffer.from(JSON.stringify(header), 'utf8');
    const head = Buffer.alloc(8);
    bytes.copy(head, 0, 0, 4);
    head.writeUInt32LE(json.length, 4);
    const rest = bytes.subarray(8 + jsonLength + ((4 - ((8 + jsonLength) % 4)) % 4));
    const bad = Buffer.concat([head, json, Buffer.alloc((4 - ((8 + json.length) % 4)) % 4), rest]);
    const read = new Analyzer(new Generator(cartridge));
    assert.equal(read.importIndex(bad), false);
    assert.equal(read.ready, false);
  });
});
