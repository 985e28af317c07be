/**
 * Scores a text analyser against SADII-annotated paragraphs (docs/text-analysis.md defines each
 * figure). Each paragraph's tokens go to the analyser together, punctuation included, so the
 * neighbours count; the figures leave out tokens whose gold POS is the punctuation tag.
 */
import { posGroupOf } from './learned-analyzer.js';
import type { SadiiParagraph } from './sadii.js';
import type { TextAnalyzer, TokenAnalysis } from './types.js';

/** The figures of one set of tokens. */
export interface TextFigures {
  tokens: number;
  lemma_right: number;
  /** First analysis has the gold lemma, in percent. */
  lemma: number;
  pos_right: number;
  pos: number;
  /** Micro-averaged F1 over the first analysis's canonical morphemes against the gold ones, as multisets. */
  segmentation_f1: number;
  /** The same over the morphemes' tags. */
  tag_f1: number;
  /** Tokens whose gold lemma is the lemma of one of the returned analyses, in percent. */
  lemma_in_returned: number;
  analyses_per_token: number;
}

export interface TextReport {
  language: string;
  /** The tag left out of the figures (punctuation). */
  excluded_pos: string;
  all: TextFigures;
  /** Tokens whose form (lower-cased) never occurs in the text the model learnt from. */
  unseen: TextFigures;
  by_group: Record<string, TextFigures>;
  unseen_by_group: Record<string, TextFigures>;
}

class Tally {
  tokens = 0;
  lemmaRight = 0;
  posRight = 0;
  segHit = 0;
  segPred = 0;
  segGold = 0;
  tagHit = 0;
  tagPred = 0;
  tagGold = 0;
  inReturned = 0;
  returned = 0;

  figures(): TextFigures {
    const pct = (a: number, b: number): number => (b === 0 ? 0 : Math.round((10000 * a) / b) / 100);
    const f1 = (hit: number, pred: number, gold: number): number => (pred + gold === 0 ? 0 : Math.round((20000 * hit) / (pred + gold)) / 100);
    return {
      tokens: this.tokens,
      lemma_right: this.lemmaRight,
      lemma: pct(this.lemmaRight, this.tokens),
      pos_right: this.posRight,
      pos: pct(this.posRight, this.tokens),
      segmentation_f1: f1(this.segHit, this.segPred, this.segGold),
      tag_f1: f1(this.tagHit, this.tagPred, this.tagGold),
      lemma_in_returned: pct(this.inReturned, this.tokens),
      analyses_per_token: this.tokens === 0 ? 0 : Math.round((100 * this.returned) / this.tokens) / 100,
    };
  }
}

function overlap(a: readonly string[], b: readonly string[]): number {
  const counts = new Map<string, number>();
  for (const x of a) counts.set(x, (counts.get(x) ?? 0) + 1);
  let hit = 0;
  for (const x of b) {
    const c = counts.get(x) ?? 0;
    if (c > 0) {
      hit++;
      counts.set(x, c - 1);
    }
  }
  return hit;
}

/** Scores `analyzer` on `paragraphs`; `isSeen` tells a form the model learnt from. */
export function evaluateText(analyzer: TextAnalyzer, paragraphs: readonly SadiiParagraph[], isSeen: (form: string) => boolean, excludedPos = 'PUNC'): TextReport {
  const all = new Tally();
  const unseen = new Tally();
  const groups = new Map<string, Tally>();
  const unseenGroups = new Map<string, Tally>();
  const group = (map: Map<string, Tally>, name: string): Tally => {
    let t = map.get(name);
    if (!t) map.set(name, (t = new Tally()));
    return t;
  };
  for (const paragraph of paragraphs) {
    const results = analyzer.analyzeTokens(paragraph.tokens.map((t) => t.token));
    paragraph.tokens.forEach((gold, i) => {
      if (gold.pos === excludedPos) return;
      const analyses: TokenAnalysis[] = results[i] ?? [];
      const first = analyses[0];
      const tallies = [all, group(groups, posGroupOf(gold.pos))];
      if (!isSeen(gold.token.toLowerCase())) tallies.push(unseen, group(unseenGroups, posGroupOf(gold.pos)));
      const goldSeg = gold.morphemes.map((m) => m.canonical);
      const goldTags = gold.morphemes.map((m) => m.tag);
      const predSeg = first ? first.morphemes.map((m) => m.canonical) : [];
      const predTags = first ? first.morphemes.map((m) => m.tag) : [];
      const segHit = overlap(goldSeg, predSeg);
      const tagHit = overlap(goldTags, predTags);
      for (const t of tallies) {
        t.tokens++;
        if (first && first.lemma === gold.lemma) t.lemmaRight++;
        if (first && first.pos === gold.pos) t.posRight++;
        t.segHit += segHit;
        t.segPred += predSeg.length;
        t.segGold += goldSeg.length;
        t.tagHit += tagHit;
        t.tagPred += predTags.length;
        t.tagGold += goldTags.length;
        if (analyses.some((a) => a.lemma === gold.lemma)) t.inReturned++;
        t.returned += analyses.length;
      }
    });
  }
  const record = (map: Map<string, Tally>): Record<string, TextFigures> => Object.fromEntries([...map].sort((a, b) => b[1].tokens - a[1].tokens || (a[0] < b[0] ? -1 : 1)).map(([k, v]) => [k, v.figures()]));
  return {
    language: analyzer.language,
    excluded_pos: excludedPos,
    all: all.figures(),
    unseen: unseen.figures(),
    by_group: record(groups),
    unseen_by_group: record(unseenGroups),
  };
}
