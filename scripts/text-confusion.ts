/**
 * Where the learnt text analyser's first analysis takes the wrong part of speech: each (gold POS,
 * first-analysis POS) pair of a SADII file's dev paragraphs (or all of them), counted apart for forms the
 * model learnt and forms it did not, with whether the gold POS was among the analyses at all (a ranking
 * error) or not (a candidate error). The figures behind docs/text-analysis.md's error notes.
 *
 * With --part dev, the errors are also counted by what the training part (the file without the dev
 * paragraphs) says of the form: the gold POS is the form's most frequent there, one of its others, or
 * never its POS there; and how many dev tokens of seen forms have a gold POS other than the form's most
 * frequent (what choosing by the form alone would get wrong).
 *
 *   npx tsx scripts/text-confusion.ts --model-dir DIR [--part dev|all] [--top 40] [--examples] FILE...
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { isDevParagraph } from '../src/text/dev-split.js';
import { loadLearnedAnalyzerFrom, posGroupOf } from '../src/text/learned-analyzer.js';
import { formEntries } from '../src/text/learned-model.js';
import { parseSadii } from '../src/text/sadii.js';
import type { Morpheme } from '../src/text/types.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    'model-dir': { type: 'string' },
    part: { type: 'string', default: 'dev' },
    top: { type: 'string', default: '40' },
    examples: { type: 'boolean', default: false },
  },
});
if (!values['model-dir'] || positionals.length === 0) {
  process.stderr.write('usage: text-confusion --model-dir DIR [--part dev|all] [--top 40] [--examples] FILE...\n');
  process.exit(2);
}
const analyzer = loadLearnedAnalyzerFrom(values['model-dir']);
if (!analyzer) {
  process.stderr.write(`no text model in ${values['model-dir']}\n`);
  process.exit(1);
}
const segmentation = (ms: readonly Pick<Morpheme, 'canonical' | 'tag'>[]): string => ms.map((m) => `${m.canonical}[${m.tag}]`).join('-');
const pairs = new Map<string, number>();
const byGroup = new Map<string, [number, number]>();
let tokens = 0;
let wrong = 0;
const files = positionals.map((file) => parseSadii(readFileSync(file, 'utf8')));
// POS counts of each lower-cased form in the training part (the paragraphs the dev model learnt from).
const trainingPos = new Map<string, Map<string, number>>();
if (values.part === 'dev') {
  for (const paragraphs of files) {
    for (const paragraph of paragraphs) {
      if (isDevParagraph(paragraph.id)) continue;
      for (const t of paragraph.tokens) {
        const form = t.token.toLowerCase();
        const counts = trainingPos.get(form) ?? new Map<string, number>();
        counts.set(t.pos, (counts.get(t.pos) ?? 0) + 1);
        trainingPos.set(form, counts);
      }
    }
  }
}
/** What the training part says of a form's gold POS: 'majority' (its most frequent, ties included), 'minority', 'unattested', 'unseen'. */
const standing = (form: string, pos: string): string => {
  const counts = trainingPos.get(form.toLowerCase());
  if (!counts) return 'unseen';
  const own = counts.get(pos) ?? 0;
  if (own === 0) return 'unattested';
  return own >= Math.max(...counts.values()) ? 'majority' : 'minority';
};
const byStanding = new Map<string, [number, number]>();
for (const paragraphs of files) {
  for (const paragraph of paragraphs) {
    if (values.part === 'dev' && !isDevParagraph(paragraph.id)) continue;
    const results = analyzer.analyzeTokens(
      paragraph.tokens.map((t) => t.token),
      { all: true },
    );
    paragraph.tokens.forEach((gold, i) => {
      if (gold.pos === 'PUNC') return;
      tokens++;
      const analyses = results[i] ?? [];
      const first = analyses[0];
      const group = posGroupOf(gold.pos);
      const tally = byGroup.get(group) ?? [0, 0];
      tally[0]++;
      byGroup.set(group, tally);
      const stand = values.part === 'dev' ? standing(gold.token, gold.pos) : '';
      const standTally = byStanding.get(stand) ?? [0, 0];
      standTally[0]++;
      byStanding.set(stand, standTally);
      if (first && first.pos === gold.pos) return;
      wrong++;
      tally[1]++;
      standTally[1]++;
      const seen = formEntries(analyzer.model, gold.token.toLowerCase()) !== undefined ? 'seen' : 'unseen';
      const among = analyses.some((a) => a.pos === gold.pos) ? 'ranked' : 'missing';
      const key = `${seen}\t${gold.pos}\t${first?.pos ?? '-'}\t${among}`;
      pairs.set(key, (pairs.get(key) ?? 0) + 1);
      if (values.examples) {
        const previous = paragraph.tokens[i - 1];
        process.stdout.write(
          `${stand || seen}\t${previous ? `${previous.token}/${previous.pos}` : '<s>'}\t${gold.token}\t${gold.pos}\t${segmentation(gold.morphemes)}\tfirst ${first ? `${first.pos}\t${segmentation(first.morphemes)}` : '-'}\n`,
        );
      }
    });
  }
}
process.stdout.write(`${analyzer.language}: ${wrong} of ${tokens} tokens (other than PUNC) with the wrong POS first\n\ngroup\ttokens\twrong\n`);
for (const [group, [n, w]] of [...byGroup].sort((a, b) => b[1][1] - a[1][1])) if (w > 0) process.stdout.write(`${group}\t${n}\t${w}\n`);
if (values.part === 'dev') {
  process.stdout.write('\ngold POS in the training part\ttokens\twrong\n');
  for (const [stand, [n, w]] of [...byStanding].sort((a, b) => b[1][0] - a[1][0])) process.stdout.write(`${stand}\t${n}\t${w}\n`);
}
process.stdout.write('\ncount\tform\tgold\tfirst\tgold POS\n');
for (const [key, count] of [...pairs].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, Number(values.top))) process.stdout.write(`${count}\t${key}\n`);
