/**
 * The shapes of running-text analysis, shared by every stage of the pipeline
 * (tokenise -> analyse -> rank -> format) and by the edges (REST, MCP, CLI).
 */
import type { FallbackReadings } from './engine-readings.js';

/** One morpheme of a reading: as written in the word, its canonical (underlying) form, and its tag. */
export interface Morpheme {
  /** The letters of the token this morpheme accounts for ('' when it leaves no trace, e.g. a coalesced vowel). */
  surface: string;
  /** The underlying form (`sebenz` for the palatalised `setshenz`, `mu` for a surface `m`). */
  canonical: string;
  /** The morpheme's tag (`VRoot`, `SC2`, `PassExt`); stacked tags are joined with `+` (`Dem15+Pos1`). */
  tag: string;
}

/** One reading of a token. */
export interface TokenAnalysis {
  /** Verbs as root + final vowel (`sebenza`), nouns as the stem without prefixes (`khakha`). */
  lemma: string;
  /** Part of speech in the language's tag set, with the noun class where it has one (`V`, `N09`, `REL`, `POSS15`). */
  pos: string;
  /** Coarse word class: verb, noun, locative, possessive, relative, copulative, demonstrative, adjective, ... */
  word_class: string;
  morphemes: Morpheme[];
  /** Probability of this reading given the token and its neighbours (the readings of one token sum to at most 1). */
  probability: number;
  /** True when the stem is in no lexicon: the reading is the grammar's guess. */
  guess: boolean;
  /** Where the reading comes from: `lexicon` (cartridge or learnt lexicon), `rule` (grammar over a known stem), `guess`. */
  source: 'lexicon' | 'rule' | 'guess';
  /** English gloss of the lemma, where the lexicon has one. */
  gloss: string | null;
  /**
   * Which lexicon lists the reading's stem, by the id of its source: the cartridge lexicon's own
   * source (`lugha-zul-lexicon`, cited in the cartridge), `sadilar-ii` for the lexicon learnt from
   * the SADiLaR-II annotated text, the related lexicon's id (meta.yaml `related_lexicon.source_id`) for a stem only a related
   * language's annotated text has (LearnedModel.related), `cartridge` for an engine reading of a listed stem; null for a guess.
   */
  stem_source: string | null;
}

/** What a token is, as the tokeniser sees it. */
export type TokenKind = 'word' | 'punctuation' | 'number' | 'symbol';

/** A token of running text with its place in the text. */
export interface Token {
  text: string;
  kind: TokenKind;
  /** UTF-16 offsets into the text. */
  start: number;
  end: number;
}

/** A token with its readings, most probable first. */
export interface AnalysedToken extends Token {
  analyses: TokenAnalysis[];
}

/** Options of one analysis call. */
export interface RankOptions {
  /** Every reading rather than those holding 95% of the probability (at most 5). */
  all?: boolean;
}

/** A language's analyser for running text: all readings of each token, ranked in context. */
export interface TextAnalyzer {
  readonly language: string;
  /** The readings of each token (in order), most probable first, each list cut per `options`. */
  analyzeTokens(tokens: readonly string[], options?: RankOptions): TokenAnalysis[][];
  /** Does what `analyzeTokens` on these tokens would hold the event loop for longest, in slices that yield (the engine's analyses); optional. */
  prepareTokens?(tokens: readonly string[]): Promise<void>;
  /** Takes readings from outside the analyser (the cartridge engine's) for the tokens it can only guess; optional (see FallbackReadings). */
  offerReadings?(fallback: FallbackReadings | undefined): void;
  /** Abbreviations the analyser reads with their full stop (`isib.`), lower-cased; the tokeniser keeps such a stop in the word. */
  readonly abbreviations?: ReadonlySet<string>;
}
