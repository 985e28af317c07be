// Measures the Swahili engine on the annotated development text (test/fixtures/swh-text/): for every
// word token, whether the first reading has the gold lemma and word class. Each paragraph is read as
// running text is (EngineTextAnalyzer.analyzeTokens over its tokens, punctuation included), so the
// readings are ranked in context as `lugha analyze --text` and `POST /api/v1/analyze-text` rank them.
// Run alone to print the figures: node --import tsx test/swh-text-measure.ts [FILE] [--misses]
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { packageRoot } from '../src/config.js';
import type { MorphologyService } from '../src/morphology/service.js';
import { openMorphology } from '../src/services.js';
import { EngineTextAnalyzer } from '../src/text/engine-analyzer.js';
import { parseSadii } from '../src/text/sadii.js';

export const DEV_TEXT = path.join(packageRoot, 'test', 'fixtures', 'swh-text', 'udhr-dev.txt');

/** The engine word classes a gold POS tag accepts (the tag set is documented in the fixture's README). */
export function wordClassesOf(pos: string): string[] {
  if (/^N\d/u.test(pos)) return ['noun'];
  const table: Record<string, string[]> = {
    NLOC: ['locative'],
    NPP: ['proper_noun'],
    INTERJ: ['interjection'],
    FOR: ['foreign'],
    V: ['verb', 'have'],
    ADJ: ['adjective'],
    POSS: ['possessive'],
    DEM: ['demonstrative'],
    CONJ: ['conjunction'],
    PREP: ['preposition'],
    COP: ['copula'],
    ADV: ['adverb', 'manner_adverb'],
    PRON: ['pronoun'],
    NUM: ['numeral'],
    REL: ['relative'],
    QUANT: ['quantifier'],
  };
  return table[pos] ?? [pos.toLowerCase()];
}

export interface TextMeasure {
  words: number;
  right: number;
  byPos: Map<string, { words: number; right: number }>;
  misses: string[];
}

/** First-reading lemma + word class accuracy over the word tokens (letters only; punctuation and digits are left out). */
export function measure(morphology: MorphologyService, file = DEV_TEXT): TextMeasure {
  const result: TextMeasure = { words: 0, right: 0, byPos: new Map(), misses: [] };
  const analyzer = new EngineTextAnalyzer('swh', morphology);
  for (const paragraph of parseSadii(readFileSync(file, 'utf8'))) {
    const readings = analyzer.analyzeTokens(paragraph.tokens.map((t) => t.token));
    paragraph.tokens.forEach((token, i) => {
      if (!/\p{L}/u.test(token.token)) return;
      const first = readings[i]?.[0];
      const ok = first !== undefined && first.lemma === token.lemma && wordClassesOf(token.pos).includes(first.word_class);
      const group = /^N(\d|LOC)/u.test(token.pos) ? 'N' : token.pos;
      const counts = result.byPos.get(group) ?? { words: 0, right: 0 };
      counts.words++;
      result.words++;
      if (ok) {
        counts.right++;
        result.right++;
      } else {
        result.misses.push(`${token.token}\t${token.lemma} ${token.pos}\t${first ? `${first.lemma} ${first.word_class}${first.guess ? ' (guess)' : ''}` : '-'}`);
      }
      result.byPos.set(group, counts);
    });
  }
  return result;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const morphology = openMorphology({ languagesDir: path.join(packageRoot, 'languages') });
  const file = process.argv.slice(2).find((a) => !a.startsWith('--'));
  const m = measure(morphology, file ? path.resolve(file) : DEV_TEXT);
  if (process.argv.includes('--misses')) console.log(m.misses.join('\n'));
  for (const [pos, c] of [...m.byPos].sort((a, b) => b[1].words - a[1].words)) console.log(`${pos}\t${c.right}/${c.words}`);
  console.log(`lemma+class: ${((100 * m.right) / m.words).toFixed(1)}% (${m.right}/${m.words})`);
}
