/**
 * The tokeniser of running text, for languages written conjunctively (one word carries
 * its prefixes) or disjunctively (prefixes as words of their own): one left-to-right pass over the text, with at
 * most a few characters of lookahead, so its time is linear in the text whatever the input.
 *
 * Conventions (those of the SADiLaR-II annotated text):
 * - a word is a run of letters and combining marks (digits may follow a letter: `R5`, `COVID19`);
 *   an apostrophe between letters stays inside it (`ng'ombe`, `noVuk'uzenele`); a hyphen followed
 *   by a letter or digit joins (`Ama-CDW`, `lama-28`, `COVID-19`, `ngakho-ke`), as does a hyphen
 *   that ends a word before a space (`we-` in "we- nezinhlelo");
 * - a number is digits with decimal `.`/`,` (`2,5`, `12.5`), groups of three after a space
 *   (`1 000`, `152 000`), date and time separators between digits (`2020-03-15`, `15/03/2020`,
 *   `10.00`) and a trailing `%`; digits followed by letters are one word (`000MW`, `2nd`);
 * - every punctuation mark is its own token (quotes, brackets, dashes), except that a run of dots
 *   (an ellipsis `...`) is one, and that the full stop of an abbreviation the caller lists (the
 *   annotated text writes `isib.` as one token) stays in its word; any other symbol (`€`, `+`, an emoji) is one token per character;
 * - whitespace separates tokens and is dropped; format characters (zero-width joiners, soft
 *   hyphens) stay inside a word and are dropped between tokens;
 * - a sentence ends after terminal punctuation (and the closing marks after it), at a paragraph break,
 *   and at a single line break that ends a line without punctuation when the next line starts with a
 *   capital (a headline or heading on its own line; see `lineEndsSentence`).
 *
 * Offsets are UTF-16 indices into the text as given; each token's `text` is NFC-normalised, so a
 * word typed with a combining accent and one typed precomposed are the same token.
 */
import type { Token } from './types.js';

/** A range of token indices, `end` exclusive. */
export interface TokenSpan {
  start: number;
  end: number;
}

export interface TokenizedText {
  tokens: Token[];
  /** Sentences as token ranges, in order, covering every token. */
  sentences: TokenSpan[];
  /** Paragraphs as token ranges (see `TokenizeOptions.paragraphs`); sentences never cross them. */
  paragraphs: TokenSpan[];
}

export interface TokenizeOptions {
  /**
   * What separates paragraphs: `blank-line` (default: an empty line; a single line break is a space,
   * so hard-wrapped text reads as one paragraph) or `line` (every line is a paragraph, as in a file
   * with one paragraph a line).
   */
  paragraphs?: 'blank-line' | 'line';
  /**
   * Abbreviations written with their full stop, lower-cased (`isib.`): a word followed by a full stop
   * that makes one of these keeps the stop inside its token, which then ends no sentence.
   */
  abbreviations?: ReadonlySet<string>;
}

const LETTER = /[\p{L}\p{M}]/u;
const DIGIT = /\p{Nd}/u;
const SPACE = /[\s\p{Zs}]/u;
const FORMAT = /\p{Cf}/u;
const PUNCT = /\p{P}/u;
const APOSTROPHES = new Set(["'", '\u2019', '\u02BC']);
/** The hyphens that join the parts of a word (a prefix hanging on its hyphen, `ki-Hindi`). */
export const HYPHENS = new Set(['-', '\u2010', '\u2011']);
/** Characters that end a sentence. */
const TERMINAL = new Set(['.', '!', '?', '\u2026', '\u061F', '\u3002']);
/** Closing marks that belong to the sentence they follow ('"Yebo."' ends after the quote). */
const CLOSING = new Set(['"', "'", '\u2019', '\u201D', '\u00BB', ')', ']', '}', '\u203A']);
/** Separators inside a number between digits: decimal, date, time. */
const NUMBER_INNER = new Set(['.', ',', '/', '-', ':']);
/** Spaces that may group thousands (space, no-break space, thin spaces). */
const GROUP_SPACE = new Set([' ', '\u00A0', '\u2009', '\u202F']);

const isLetter = (c: string | undefined): boolean => c !== undefined && LETTER.test(c);
const isDigit = (c: string | undefined): boolean => c !== undefined && DIGIT.test(c);
const isAlnum = (c: string | undefined): boolean => isLetter(c) || isDigit(c);

/** The code point at `i` as a string (a surrogate pair is one character). */
function charAt(text: string, i: number): string | undefined {
  if (i >= text.length) return undefined;
  const code = text.charCodeAt(i);
  if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
    const next = text.charCodeAt(i + 1);
    if (next >= 0xdc00 && next <= 0xdfff) return text.slice(i, i + 2);
  }
  return text[i];
}

/** Splits `text` into tokens, sentences and paragraphs (see the module comment for the conventions). */
export function tokenize(text: string, options: TokenizeOptions = {}): TokenizedText {
  const lineParagraphs = options.paragraphs === 'line';
  const abbreviations = options.abbreviations && options.abbreviations.size > 0 ? options.abbreviations : undefined;
  let longestAbbreviation = 0;
  for (const a of abbreviations ?? []) longestAbbreviation = Math.max(longestAbbreviation, a.length);
  const tokens: Token[] = [];
  const sentences: TokenSpan[] = [];
  const paragraphs: TokenSpan[] = [];
  let sentenceStart = 0;
  let paragraphStart = 0;
  /** A sentence ends after terminal punctuation once any closing marks after it are taken. */
  let sentenceEnding = false;

  const closeSentence = () => {
    if (tokens.length > sentenceStart) sentences.push({ start: sentenceStart, end: tokens.length });
    sentenceStart = tokens.length;
    sentenceEnding = false;
  };
  const closeParagraph = () => {
    closeSentence();
    if (tokens.length > paragraphStart) paragraphs.push({ start: paragraphStart, end: tokens.length });
    paragraphStart = tokens.length;
  };
  const push = (start: number, end: number, kind: Token['kind']) => {
    tokens.push({ text: text.slice(start, end).normalize('NFC'), kind, start, end });
  };

  let i = 0;
  while (i < text.length) {
    const c = charAt(text, i)!;
    if (SPACE.test(c) || FORMAT.test(c)) {
      if (c === '\n' || c === '\r' || c === '\u2029') {
        // Count the line breaks of this run of whitespace: a blank line (two breaks) ends a paragraph.
        let breaks = 0;
        let j = i;
        while (j < text.length && SPACE.test(text[j]!)) {
          if (text[j] === '\n' || text[j] === '\u2029' || (text[j] === '\r' && text[j + 1] !== '\n')) breaks++;
          j++;
        }
        if (lineParagraphs || breaks >= 2) closeParagraph();
        else if (lineEndsSentence(text, tokens[tokens.length - 1], j) && tokens.length > sentenceStart) closeSentence();
        i = j;
        continue;
      }
      i += c.length;
      continue;
    }
    // A closing mark right after the terminal punctuation ('"Yebo."') still belongs to its sentence;
    // a lower-case word after it continues the sentence (an abbreviation: "isib. esilandelayo").
    if (sentenceEnding && !(CLOSING.has(c) && tokens[tokens.length - 1]?.end === i)) {
      if (isLetter(c) && c !== c.toUpperCase()) sentenceEnding = false;
      else closeSentence();
    }
    const start = i;
    if (isLetter(c)) {
      i = scanWord(text, i);
      // `isib.`, `njl.njl.`: a listed abbreviation keeps its full stops (and ends no sentence).
      if (abbreviations && text[i] === '.') {
        let end = i;
        // Looking ahead no further than the longest abbreviation keeps the pass linear.
        while (end - start < longestAbbreviation && text[end] === '.' && !abbreviations.has(text.slice(start, end + 1).toLowerCase()) && isLetter(charAt(text, end + 1))) {
          end = Math.min(scanWord(text, end + 1), start + longestAbbreviation);
        }
        if (text[end] === '.' && abbreviations.has(text.slice(start, end + 1).toLowerCase())) i = end + 1;
      }
      push(start, i, 'word');
    } else if (isDigit(c)) {
      const numberEnd = scanNumber(text, i);
      // Digits running on into letters are a word (000MW, 2nd, 2Bheka).
      if (isLetter(charAt(text, numberEnd))) {
        i = scanWord(text, numberEnd);
        push(start, i, 'word');
      } else {
        i = numberEnd;
        push(start, i, 'number');
      }
    } else if (PUNCT.test(c)) {
      i += c.length;
      if (c === '.') while (text[i] === '.') i++;
      push(start, i, 'punctuation');
      if (TERMINAL.has(c)) sentenceEnding = true;
      else if (!(sentenceEnding && CLOSING.has(c))) sentenceEnding = false;
    } else {
      // Symbols and anything else: one character (code point) a token.
      i += c.length;
      push(start, i, 'symbol');
    }
  }
  closeParagraph();
  return { tokens, sentences, paragraphs };
}

/** The longest small word a line may end in and still run on into a next line that starts with a capital. */
const SHORT_WORD = 3;

/** Marks that may open a sentence before its first letter. */
const OPENING = new Set(['"', "'", '\u2018', '\u201C', '\u201E', '\u00AB', '(', '[', '\u2039']);

/**
 * Whether a single line break ends the sentence when the line before it ends in `last` and the next
 * line starts at `next`: a line with no punctuation at its end (its last token a word, a number or a
 * closing mark; not a comma, a colon, a dash or a prefix hanging on its hyphen) followed by a line that
 * starts with a capital (after any opening quotes or brackets) is a sentence of its own, as a headline
 * or a heading (`Ibara ya 1`) is. A hard-wrapped sentence runs on: its next line starts small, or the
 * line before ends in a short small word (`na`, `ya`, `kwa`, `of`), which a phrase runs on from and a
 * headline seldom ends in (`Rais wa\nTanzania` is one sentence). A wrapped sentence whose next line
 * starts with a name after a longer word is split there: the price of reading headlines apart.
 */
function lineEndsSentence(text: string, last: Token | undefined, next: number): boolean {
  if (last === undefined) return false;
  if (last.kind === 'word') {
    // `we-`: a prefix hanging on its hyphen; `na`, `ya`, `kwa`: a short small word a phrase runs on from
    if (HYPHENS.has(last.text.slice(-1))) return false;
    if (last.text === last.text.toLowerCase() && [...last.text].length <= SHORT_WORD) return false;
  } else if (last.kind !== 'number' && !CLOSING.has(last.text)) return false;
  let k = next;
  while (k < text.length && OPENING.has(text[k]!)) k++;
  const c = charAt(text, k);
  return isLetter(c) && c !== c!.toLowerCase();
}

/** The end of the word starting at `i` (a letter or, after a number, the letters that follow it). */
function scanWord(text: string, i: number): number {
  for (;;) {
    const c = charAt(text, i);
    if (c === undefined) return i;
    if (isAlnum(c)) {
      i += c.length;
      continue;
    }
    if (FORMAT.test(c) && isAlnum(charAt(text, i + c.length))) {
      i += c.length;
      continue;
    }
    // Decimal, date and time separators between digits inside a word (ngo-10.00, yesi-2.2).
    if (NUMBER_INNER.has(c) && isDigit(charAt(text, i - 1)) && isDigit(charAt(text, i + 1))) {
      i += 1;
      continue;
    }
    if (APOSTROPHES.has(c) && isLetter(charAt(text, i - 1)) && isLetter(charAt(text, i + 1))) {
      i += 1;
      continue;
    }
    if (HYPHENS.has(c)) {
      const next = charAt(text, i + 1);
      if (isAlnum(next)) {
        i += 1;
        continue;
      }
      // yi-'Scope: a quote opening the joined part.
      if (next !== undefined && APOSTROPHES.has(next) && isLetter(charAt(text, i + 2))) {
        i += 2;
        continue;
      }
      // A prefix left hanging before a space ("we- nezinhlelo") keeps its hyphen.
      if ((next === undefined || SPACE.test(next)) && isLetter(charAt(text, i - 1))) return i + 1;
    }
    return i;
  }
}

/** The end of the number starting at the digit at `i`. */
function scanNumber(text: string, i: number): number {
  const digits = (from: number): number => {
    let j = from;
    while (j < text.length && isDigit(text[j])) j++;
    return j;
  };
  let end = digits(i);
  // Thousands grouped by spaces: only after a first group of 1-3 digits, each next group exactly 3.
  if (end - i <= 3) {
    for (;;) {
      const space = text[end];
      if (space === undefined || !GROUP_SPACE.has(space)) break;
      const groupEnd = digits(end + 1);
      if (groupEnd - (end + 1) !== 3) break;
      end = groupEnd;
    }
  }
  // Decimal, date and time separators, each between digits.
  for (;;) {
    const sep = text[end];
    if (sep === undefined || !NUMBER_INNER.has(sep) || !isDigit(text[end + 1])) break;
    end = digits(end + 1);
  }
  if (text[end] === '%') end++;
  return end;
}
