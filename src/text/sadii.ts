/**
 * The SADiLaR-II annotated-text format (Gaustad & Puttkammer 2022): a line `<LINE# n>` opens
 * each paragraph, then one token a line with four tab-separated columns: token, canonical
 * segmentation (`ezi[RelConc8]-sebenz[VRoot]-a[VerbTerm]`), lemma, POS. CRLF or LF.
 */
import type { Morpheme, TokenAnalysis } from './types.js';

/** One annotated token. */
export interface SadiiToken {
  token: string;
  morphemes: Array<Pick<Morpheme, 'canonical' | 'tag'>>;
  lemma: string;
  pos: string;
}

export interface SadiiParagraph {
  id: string;
  tokens: SadiiToken[];
}

/** `ezi[RelConc8]-lokhu[Dem15][Pos1]` -> [{canonical: 'ezi', tag: 'RelConc8'}, {canonical: 'lokhu', tag: 'Dem15+Pos1'}]. */
export function parseSegmentation(segmentation: string): Array<Pick<Morpheme, 'canonical' | 'tag'>> {
  const bracket = /^([[\]])\[([^\]]+)\]$/.exec(segmentation);
  if (bracket) return [{ canonical: bracket[1]!, tag: bracket[2]! }];
  const morphemes: Array<Pick<Morpheme, 'canonical' | 'tag'>> = [];
  // A morpheme is text up to its first '[' then one or more [tags]; '-' joins morphemes (a hyphen inside a form stays).
  const pattern = /([^[\]]*?)((?:\[[^\]]*\])+)(?:-|$)/gy;
  let match: RegExpExecArray | null;
  while ((match = pattern.exec(segmentation)) !== null && match[0] !== '') {
    const tags = match[2]!
      .slice(1, -1)
      .split('][')
      .map((t) => t.replace(/^\[/, ''));
    morphemes.push({ canonical: match[1]!, tag: tags.join('+') });
    if (pattern.lastIndex >= segmentation.length) break;
  }
  if (morphemes.length === 0) morphemes.push({ canonical: segmentation, tag: '' });
  return morphemes;
}

/** The segmentation column of a reading. */
export function formatSegmentation(morphemes: ReadonlyArray<Pick<Morpheme, 'canonical' | 'tag'>>): string {
  return morphemes
    .map(
      (m) =>
        `${m.canonical}${
          m.tag
            ? m.tag
                .split('+')
                .map((t) => `[${t}]`)
                .join('')
            : ''
        }`,
    )
    .join('-');
}

/** One token line in the dataset's format: token, segmentation, lemma, POS. */
export function formatSadiiLine(token: string, analysis: Pick<TokenAnalysis, 'morphemes' | 'lemma' | 'pos'>): string {
  return [token, formatSegmentation(analysis.morphemes), analysis.lemma, analysis.pos].join('\t');
}

/** Every paragraph of a SADII file's text; lines with fewer than four columns are skipped. */
export function parseSadii(text: string): SadiiParagraph[] {
  const paragraphs: SadiiParagraph[] = [];
  let current: SadiiParagraph | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/\r$/, '');
    const header = /^<LINE#\s*([^>]*)>/.exec(line);
    if (header) {
      current = { id: header[1]!.trim(), tokens: [] };
      paragraphs.push(current);
      continue;
    }
    const columns = line.split('\t');
    if (columns.length < 4 || columns[0] === '') continue;
    if (!current) {
      current = { id: '', tokens: [] };
      paragraphs.push(current);
    }
    current.tokens.push({ token: columns[0]!, morphemes: parseSegmentation(columns[1]!), lemma: columns[2]!, pos: columns[3]! });
  }
  return paragraphs;
}
