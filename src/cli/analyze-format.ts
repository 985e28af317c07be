/** The output formats of `lugha analyze --text` (text, json, sadii), apart so a word's analysis does not load them. */
import { tokenViews } from '../text/api.js';
import { formatSadiiLine } from '../text/sadii.js';
import type { TextAnalysis } from '../text/service.js';
import type { TokenAnalysis } from '../text/types.js';

/** A whole analysed text in one of the output formats. */
export function formatText(analysis: TextAnalysis, format: 'text' | 'json' | 'sadii'): string {
  const out: string[] = [];
  if (format === 'json') {
    // One JSON line a paragraph: long texts stream into line-oriented tools.
    const tokens = tokenViews(analysis);
    analysis.paragraphs.forEach((p, n) => out.push(JSON.stringify({ language: analysis.language, analyzer: analysis.analyzer, paragraph: n, tokens: tokens.slice(p.start, p.end) })));
    return out.length ? `${out.join('\n')}\n` : '';
  }
  analysis.paragraphs.forEach((p, n) => {
    if (format === 'sadii') out.push(`<LINE# ${n + 1}>`);
    else if (n > 0) out.push('');
    for (const token of analysis.tokens.slice(p.start, p.end)) {
      const [best, ...rest] = token.analyses;
      if (format === 'sadii') {
        // The dataset has one reading a token: the most probable.
        out.push(formatSadiiLine(token.text, best!));
        continue;
      }
      out.push([token.text, ...readingColumns(best!)].join('\t'));
      for (const r of rest) out.push(['', ...readingColumns(r)].join('\t'));
    }
  });
  return out.length ? `${out.join('\n')}\n` : '';
}

/** lemma, POS, segmentation, probability, and "guess" when the stem is in no lexicon. */
function readingColumns(r: TokenAnalysis): string[] {
  return [
    r.lemma,
    r.pos,
    r.morphemes
      .map((m) => m.surface)
      .filter(Boolean)
      .join('-'),
    r.probability.toFixed(3),
    ...(r.guess ? ['guess'] : []),
  ];
}
