// Pins the running-text tokeniser: the SADiLaR-II token conventions (apostrophes, hyphenated prefixes, numbers), punctuation, offsets, NFC, sentences and paragraphs, and that adversarial input stays linear.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { tokenize } from '../src/text/tokenize.js';

const texts = (text: string) => tokenize(text).tokens.map((t) => t.text);
const kinds = (text: string) => tokenize(text).tokens.map((t) => `${t.text}:${t.kind}`);

describe('tokenize: abbreviations the caller lists keep their full stop', () => {
  const abbreviations = new Set(['isib.', 'njl.njl.', 'o.k.t.']);

  it('a listed abbreviation is one word with its stop(s) and ends no sentence; an unlisted one is split', () => {
    const { tokens, sentences } = tokenize('Bheka isib. 3. Isib. esilandelayo, njl.njl. o.k.t. Sithi isi. Yebo.', { abbreviations });
    assert.deepEqual(
      tokens.map((t) => t.text),
      ['Bheka', 'isib.', '3', '.', 'Isib.', 'esilandelayo', ',', 'njl.njl.', 'o.k.t.', 'Sithi', 'isi', '.', 'Yebo', '.'],
    );
    assert.equal(tokens[1]!.kind, 'word');
    assert.deepEqual(
      sentences.map((s) =>
        tokens
          .slice(s.start, s.end)
          .map((t) => t.text)
          .join(' '),
      ),
      ['Bheka isib. 3 .', 'Isib. esilandelayo , njl.njl. o.k.t. Sithi isi .', 'Yebo .'],
    );
  });

  it('without the list the stop is its own token, as before', () => {
    assert.deepEqual(texts('isib. 3'), ['isib', '.', '3']);
  });

  it('reads a long run of letters and dots as words and stops (its lookahead is bounded; timing is in bench/)', () => {
    const { tokens } = tokenize('a.'.repeat(50_000), { abbreviations });
    assert.equal(tokens.length, 100_000);
    assert.equal(tokens.map((t) => t.text).join(''), 'a.'.repeat(50_000));
  });
});

describe('tokenize: words as the annotated text writes them', () => {
  it('keeps apostrophes between letters and hyphenated prefixes inside a word', () => {
    assert.deepEqual(texts("ng'ombe noVuk'uzenele Ama-CDW lama-28 COVID-19 ngakho-ke yi-'Scope"), ["ng'ombe", "noVuk'uzenele", 'Ama-CDW', 'lama-28', 'COVID-19', 'ngakho-ke', "yi-'Scope"]);
  });

  it('keeps numbers inside a hyphenated word (ngo-10.00, yesi-2.2) and a prefix left hanging before a space', () => {
    assert.deepEqual(texts('ngo-10.00 yesi-2.2 we- nezinhlelo'), ['ngo-10.00', 'yesi-2.2', 'we-', 'nezinhlelo']);
  });

  it('splits punctuation off each word, one mark a token, an ellipsis as one', () => {
    assert.deepEqual(kinds('Ukwengeza kulokhu, (ye-IDP) "yebo"... —nje?'), [
      'Ukwengeza:word',
      'kulokhu:word',
      ',:punctuation',
      '(:punctuation',
      'ye-IDP:word',
      '):punctuation',
      '":punctuation',
      'yebo:word',
      '":punctuation',
      '...:punctuation',
      '—:punctuation',
      'nje:word',
      '?:punctuation',
    ]);
  });

  it('treats a quote at a word edge as punctuation, not part of the word', () => {
    assert.deepEqual(texts("'Ngiyabonga'"), ["'", 'Ngiyabonga', "'"]);
  });

  it('reads numbers with decimals, grouped thousands, percentages and dates as one token', () => {
    assert.deepEqual(kinds('1 000, 152 000 2,5 12.5% 2020-03-15 15/03/2020 2019 200'), [
      '1 000:number',
      ',:punctuation',
      '152 000:number',
      '2,5:number',
      '12.5%:number',
      '2020-03-15:number',
      '15/03/2020:number',
      // A four-digit year is not the first group of a grouped number.
      '2019:number',
      '200:number',
    ]);
  });

  it('makes digits running into letters one word, and symbols one token each', () => {
    assert.deepEqual(kinds('000MW € + 😀'), ['000MW:word', '€:symbol', '+:symbol', '😀:symbol']);
  });
});

describe('tokenize: offsets, normalisation, sentences', () => {
  it('gives UTF-16 offsets into the text as given and NFC token text', () => {
    const decomposed = 'nde\u0301 😀 ya';
    const { tokens } = tokenize(decomposed);
    assert.deepEqual(
      tokens.map((t) => [t.text, t.start, t.end]),
      [
        ['nd\u00e9', 0, 4],
        ['😀', 5, 7],
        ['ya', 8, 10],
      ],
    );
    for (const t of tokens) assert.equal(decomposed.slice(t.start, t.end).normalize('NFC'), t.text);
  });

  it('ends a sentence after terminal punctuation and its closing quote, not before a lower-case word', () => {
    const { tokens, sentences } = tokenize('"Yebo." Ngiyabonga kakhulu! Bheka isib. esilandelayo');
    const sentenceTexts = sentences.map((s) =>
      tokens
        .slice(s.start, s.end)
        .map((t) => t.text)
        .join(' '),
    );
    assert.deepEqual(sentenceTexts, ['" Yebo . "', 'Ngiyabonga kakhulu !', 'Bheka isib . esilandelayo']);
  });

  it('ends a sentence at a line break after a line without punctuation when the next line starts with a capital', () => {
    const sentencesOf = (text: string) => {
      const { tokens, sentences } = tokenize(text);
      return sentences.map((s) =>
        tokens
          .slice(s.start, s.end)
          .map((t) => t.text)
          .join(' '),
      );
    };
    // a headline and a heading on lines of their own
    assert.deepEqual(sentencesOf('Wanaharakati Waomba Ulinzi\nWanaharakati wameomba.\nIbara ya 1\n"Kila mtu" ana haki.'), [
      'Wanaharakati Waomba Ulinzi',
      'Wanaharakati wameomba .',
      'Ibara ya 1',
      '" Kila mtu " ana haki .',
    ]);
    // a hard-wrapped sentence runs on: the next line starts small, or the line before ends in a comma, a
    // hanging prefix or a short small word
    assert.deepEqual(sentencesOf('Watoto wa\nshule walifika,\nKenya na\nTanzania we-\nNezinhlelo zonke.'), ['Watoto wa shule walifika , Kenya na Tanzania we- Nezinhlelo zonke .']);
    // every line a paragraph, as before
    assert.equal(tokenize('Ibara ya 1\nKila mtu', { paragraphs: 'line' }).sentences.length, 2);
  });

  it('separates paragraphs at blank lines, or at every line when asked', () => {
    const text = 'Umusa omuhle\nuyabonakala.\n\nIsigaba sesibili';
    assert.deepEqual(tokenize(text).paragraphs, [
      { start: 0, end: 4 },
      { start: 4, end: 6 },
    ]);
    assert.deepEqual(tokenize(text, { paragraphs: 'line' }).paragraphs, [
      { start: 0, end: 2 },
      { start: 2, end: 4 },
      { start: 4, end: 6 },
    ]);
  });

  it('returns nothing for whitespace only', () => {
    assert.deepEqual(tokenize(' \n\t '), { tokens: [], sentences: [], paragraphs: [] });
  });
});

describe('tokenize: adversarial input', () => {
  it('covers every character of long repetitive input exactly once (timing is in bench/)', () => {
    for (const unit of ['-', '1 ', "a'", '1.', 'a-', "'", '1 00', 'x'.repeat(99) + ' ']) {
      const text = unit.repeat(20_000);
      const { tokens } = tokenize(text);
      let covered = 0;
      let last = 0;
      for (const t of tokens) {
        assert.ok(t.start >= last, 'tokens in order, never overlapping');
        covered += t.text.replace(/\s/g, '').length;
        last = t.end;
      }
      assert.equal(covered, text.replace(/\s/g, '').length, `every non-space character of ${JSON.stringify(unit)} is in a token`);
    }
  });
});
