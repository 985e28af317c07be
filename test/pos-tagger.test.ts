// Pins the word-form POS tagger (src/text/pos-tagger.ts): it learns tags from a word's letters and from its context (a `ya-` possessive takes the class of the noun before it, class 4 after `imi-`, class 9 after `in-`), tags words it never saw, reads back from its file to the same tags, and its cross-fold tags come from taggers that never saw the sentence.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { crossFoldTags, PosTagger, trainTagger, type TaggedSentence } from '../src/text/pos-tagger.js';

const stems = ['thi', 'khulu', 'sebenzi', 'fundo', 'lando', 'zimba', 'hlaba', 'gwaqo', 'dlela', 'thombo', 'philo', 'bhalo', 'zamo', 'gomo', 'sizo', 'thuthu'];
const verbs = ['bon', 'fun', 'sebenz', 'thand', 'hamb', 'khulum', 'bhal', 'fund', 'siz', 'lim'];

/** Noun, verb in the perfect, possessive agreeing with the noun (class 4 `imi-`, class 9 `in-`). */
function sentences(): TaggedSentence[] {
  const out: TaggedSentence[] = [];
  stems.forEach((stem, i) => {
    const verb = `${verbs[i % verbs.length]}ile`;
    const other = stems[(i + 5) % stems.length]!;
    out.push({ tokens: [`imi${stem}`, `ya${other}`, verb, '.'], tags: ['N04', 'POSS04', 'V', 'PUNC'] });
    out.push({ tokens: [`in${stem}`, `ya${other}`, verb, '.'], tags: ['N09', 'POSS09', 'V', 'PUNC'] });
  });
  return out;
}

describe('POS tagger', () => {
  const tagger = trainTagger(sentences(), { epochs: 8, seed: 1 });

  it('tags words it never saw by their letters and a possessive by the noun before it', () => {
    const tags = (words: string[]) => tagger.tag(words).map((t) => t.tag);
    assert.deepEqual(tags(['imikhonto', 'yamanzi', 'gijimile', '.']), ['N04', 'POSS04', 'V', 'PUNC']);
    assert.deepEqual(tags(['inkomo', 'yamanzi', 'gijimile', '.']), ['N09', 'POSS09', 'V', 'PUNC']);
  });

  it('reads back from its file to the same tags and margins', () => {
    const again = PosTagger.parse(tagger.serialize());
    const words = ['imikhonto', 'yamanzi', 'gijimile', '.', 'inkomo', 'yathi'];
    const before = tagger.tag(words);
    const after = again.tag(words);
    assert.deepEqual(
      after.map((t) => t.tag),
      before.map((t) => t.tag),
    );
    after.forEach((t, i) => assert.ok(Math.abs(t.margin - before[i]!.margin) < 0.01 * Math.max(1, before[i]!.margin)));
  });

  it('gives cross-fold tags for every token from a tagger that did not train on it', () => {
    const all = sentences();
    const folds = crossFoldTags(all, { folds: 4, epochs: 8, seed: 1 });
    assert.equal(folds.length, all.length);
    folds.forEach((tags, i) => assert.equal(tags.length, all[i]!.tokens.length));
    let right = 0;
    let tokens = 0;
    folds.forEach((tags, i) =>
      tags.forEach((t, k) => {
        tokens++;
        if (t.tag === all[i]!.tags[k]) right++;
      }),
    );
    assert.ok(right / tokens > 0.8, `cross-fold tags ${right}/${tokens} right`);
  });
});
