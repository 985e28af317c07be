/**
 * Running text in, analysed tokens out: validate -> tokenise -> analyse (sentence by sentence, in
 * slices that yield to the event loop) -> readings per token. One TextService serves REST, MCP
 * and the CLI.
 *
 * Each language's analyser is chosen once and cached: the first factory of `factories` that
 * returns one for the language's cartridge (a learned, ranked analyser trained on annotated
 * text), else the cartridge engine (EngineTextAnalyzer). Plugging in another analyser is adding
 * a factory in the composition root (src/services.ts). A learned analyser is offered the engine's
 * verb readings for the tokens it can only guess (EngineReadings, `offerReadings`).
 */
import type { AnalysisView, LanguageEngine, MorphologyService } from '../morphology/service.js';
import { fail, ok, type Result } from '../result.js';
import { EngineTextAnalyzer, probabilitiesOf, readingOf } from './engine-analyzer.js';
import { EngineReadings } from './engine-readings.js';
import { tokenize, type TokenizedText, type TokenizeOptions } from './tokenize.js';
import type { AnalysedToken, Morpheme, RankOptions, TextAnalyzer, Token, TokenAnalysis } from './types.js';

/**
 * Makes a language's text analyser from its cartridge folder, or null when it has none; its
 * optional `inBackground` makes the same one without holding the event loop (used by `load`).
 */
export type TextAnalyzerFactory = ((cartridge: { iso: string; dir: string }) => TextAnalyzer | null) & {
  inBackground?: (cartridge: { iso: string; dir: string }) => Promise<TextAnalyzer | null>;
};

export interface TextLimits {
  /** Characters (UTF-16 code units) of one text. */
  maxCharacters: number;
  /** Characters of one token. */
  maxTokenLength: number;
  /** Tokens a learned analyser gets at once at most (a longer sentence is cut); the engine gets one at a time. */
  sliceTokens: number;
  /** Milliseconds of analysis between two yields at most (checked after each slice). */
  sliceMs: number;
  /** Milliseconds one text may take in all before it is refused with service_unavailable. */
  budgetMs: number;
}

/** The documented caps (docs/api.md "Analyse running text"). */
export const TEXT_LIMITS: TextLimits = { maxCharacters: 20_000, maxTokenLength: 100, sliceTokens: 64, sliceMs: 20, budgetMs: 30_000 };

export type TextErrorCode = 'invalid_parameter' | 'invalid_text' | 'text_too_long' | 'token_too_long' | 'language_not_found' | 'service_unavailable';

/** A failure, with where in the text it is (`offset`) and the cap it broke (`limit`, `size`). */
export type TextResult<T> = Result<T, TextErrorCode> & { offset?: number; limit?: number; size?: number };

export interface TextAnalysisOptions extends RankOptions {
  paragraphs?: TokenizeOptions['paragraphs'];
  /** Override the cap on characters (the CLI reads files of any size; the edges keep the default). */
  maxCharacters?: number;
}

export interface TextAnalysis {
  language: string;
  /** `learned` (a ranked analyser trained on annotated text) or `engine` (the cartridge grammar). */
  analyzer: 'learned' | 'engine';
  tokens: AnalysedToken[];
  sentences: TokenizedText['sentences'];
  paragraphs: TokenizedText['paragraphs'];
}

/** An engine analysis with the reading's fields (GET /analyze, analyze_form with `form`). */
export interface RankedAnalysis extends AnalysisView {
  probability: number;
  pos: string;
  word_class: string;
  morphemes: Morpheme[];
  guess: boolean;
}

/** Characters no text has: C0/C1 controls but tab, LF, CR; unpaired surrogates; U+FFFD (bytes that were not UTF-8). */
const NOT_TEXT = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFD]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/u;

const SCRIPTS = ['Latin', 'Greek', 'Cyrillic', 'Arabic', 'Hebrew', 'Ethiopic', 'Han', 'Hiragana', 'Katakana', 'Hangul', 'Devanagari', 'Thai', 'Tifinagh', 'Vai', 'Nko'].map((name) => ({
  name,
  re: new RegExp(`\\p{Script=${name}}`, 'u'),
}));

/** The scripts of a word's letters (those of the table above). */
export function scriptsOf(word: string): Set<string> {
  const out = new Set<string>();
  for (const ch of word) {
    const script = SCRIPTS.find((s) => s.re.test(ch));
    if (script) out.add(script.name);
  }
  return out;
}

/**
 * Whether a word is outside what the language's analyser can read: its letters mix scripts
 * (Latin with Cyrillic look-alikes), or use a script the language's lexicon never does.
 */
export function foreignWord(word: string, languageScripts: ReadonlySet<string>): boolean {
  const scripts = scriptsOf(word);
  if (scripts.size > 1) return true;
  return languageScripts.size > 0 && [...scripts].some((s) => !languageScripts.has(s));
}

/**
 * What an analyser reads of `tokens`, in context: words, punctuation and numbers as written, as the
 * annotated text the analysers are learnt and measured on has them (a comma ends a clause, and the word
 * before it is no neighbour of the word after it); a word in another script and a symbol as an empty
 * token, which breaks the context as punctuation does and is not analysed.
 */
function contextTexts(tokens: readonly Token[], scripts: ReadonlySet<string>): string[] {
  return tokens.map((t) => (t.kind === 'punctuation' || t.kind === 'number' || (t.kind === 'word' && !foreignWord(t.text, scripts)) ? t.text : ''));
}

/** The one reading of a punctuation mark, number or symbol, and of a word no analyser reads. */
function ownReading(token: Token): TokenAnalysis {
  const [pos, wordClass, tag] =
    token.kind === 'punctuation' ? ['PUNC', 'punctuation', 'Punc'] : token.kind === 'number' ? ['NUM', 'numeral', 'Num'] : token.kind === 'symbol' ? ['SYM', 'symbol', 'Sym'] : ['UNK', 'unknown', 'Unknown'];
  return {
    lemma: token.text,
    pos,
    word_class: wordClass,
    morphemes: [{ surface: token.text, canonical: token.text, tag }],
    probability: 1,
    guess: token.kind === 'word',
    source: token.kind === 'word' ? 'guess' : 'rule',
    gloss: null,
    stem_source: null,
  };
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The scripts the language is written in, as its lexicon shows them. */
function scriptsOfLexicon(engine: LanguageEngine): Set<string> {
  const scripts = new Set<string>();
  for (const entry of engine.cartridge.lexicon.slice(0, 5000)) for (const s of scriptsOf(entry.lemma)) scripts.add(s);
  return scripts;
}

export class TextService {
  readonly limits: TextLimits;
  readonly #analyzers = new Map<string, { analyzer: TextAnalyzer; learned: boolean; scripts: Set<string> }>();
  readonly #morphology: () => MorphologyService;
  readonly #factories: readonly TextAnalyzerFactory[];
  readonly #loading = new Map<string, Promise<void>>();

  constructor(options: { morphology: () => MorphologyService; factories?: readonly TextAnalyzerFactory[]; limits?: Partial<TextLimits> }) {
    this.#morphology = options.morphology;
    this.#factories = options.factories ?? [];
    this.limits = { ...TEXT_LIMITS, ...options.limits };
  }

  /** The language's text analyser (chosen once): a factory's, else the engine's. */
  analyzer(language: string): Result<{ iso: string; analyzer: TextAnalyzer; learned: boolean; scripts: Set<string> }, 'language_not_found' | 'invalid_parameter'> {
    const found = this.#morphology().engine(language);
    if (!found.ok) return found;
    const iso = found.value.iso;
    let entry = this.#analyzers.get(iso);
    if (!entry) {
      entry = this.#choose(found.value);
      this.#analyzers.set(iso, entry);
    }
    return ok({ iso, ...entry });
  }

  /**
   * Chooses the language's analyser as `analyzer` does, a factory's learnt model read in slices that
   * yield (its `inBackground`), so neither a warming server nor a request for a cold language holds
   * the event loop while a model loads. Calls for one language share one load; `analyzer` called
   * meanwhile reads the model synchronously and its choice is the one kept (never two, never a
   * half-built one).
   */
  async load(language: string): Promise<void> {
    const found = this.#morphology().engine(language);
    if (!found.ok || this.#analyzers.has(found.value.iso)) return;
    const iso = found.value.iso;
    let pending = this.#loading.get(iso);
    if (!pending) {
      pending = (async () => {
        const engine = found.value;
        const scripts = scriptsOfLexicon(engine);
        let entry: { analyzer: TextAnalyzer; learned: boolean; scripts: Set<string> } | null = null;
        for (const factory of this.#factories) {
          const cartridge = { iso, dir: engine.cartridge.dir };
          const analyzer = factory.inBackground ? await factory.inBackground(cartridge) : factory(cartridge);
          if (analyzer) {
            this.#offerEngine(iso, analyzer);
            entry = { analyzer, learned: true, scripts };
            break;
          }
        }
        if (!this.#analyzers.has(iso)) this.#analyzers.set(iso, entry ?? { analyzer: new EngineTextAnalyzer(iso, this.#morphology()), learned: false, scripts });
      })().finally(() => this.#loading.delete(iso));
      this.#loading.set(iso, pending);
    }
    await pending;
  }

  /**
   * Readies the engine's running-text data of a language `load` gave the engine's analyser (its
   * context.yaml), so its first text does not read it; nothing for a learnt analyser or a language
   * not loaded yet.
   */
  prepareContext(language: string): void {
    const found = this.#morphology().engine(language);
    const entry = found.ok ? this.#analyzers.get(found.value.iso) : undefined;
    if (entry?.analyzer instanceof EngineTextAnalyzer) entry.analyzer.prepare();
  }

  #choose(engine: LanguageEngine): { analyzer: TextAnalyzer; learned: boolean; scripts: Set<string> } {
    const scripts = scriptsOfLexicon(engine);
    for (const factory of this.#factories) {
      const analyzer = factory({ iso: engine.iso, dir: engine.cartridge.dir });
      if (analyzer) {
        this.#offerEngine(engine.iso, analyzer);
        return { analyzer, learned: true, scripts };
      }
    }
    return { analyzer: new EngineTextAnalyzer(engine.iso, this.#morphology()), learned: false, scripts };
  }

  /** A learned analyser takes the engine's verb readings for the tokens it can only guess (engine-readings.ts). */
  #offerEngine(iso: string, analyzer: TextAnalyzer): void {
    analyzer.offerReadings?.(new EngineReadings(iso, this.#morphology()));
  }

  /** Checks a text against the caps and for characters no text has; the tokens when it passes. */
  validate(text: string, options: { maxCharacters?: number; paragraphs?: TokenizeOptions['paragraphs']; abbreviations?: ReadonlySet<string> } = {}): TextResult<TokenizedText> {
    const cap = options.maxCharacters ?? this.limits.maxCharacters;
    if (text.length > cap) {
      return { ...fail('text_too_long', `the text has ${text.length} characters; at most ${cap} are analysed a request: split it at paragraphs and send the parts`), limit: cap, size: text.length };
    }
    if (text.trim() === '') return fail('invalid_parameter', 'give some text to analyse (it is empty or only spaces)');
    const bad = NOT_TEXT.exec(text);
    if (bad) {
      const code = bad[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
      return { ...fail('invalid_text', `the text holds U+${code} at offset ${bad.index}, which no written text has (a binary file, or bytes that are not UTF-8?)`), offset: bad.index };
    }
    const tokenized = tokenize(text, { ...(options.paragraphs ? { paragraphs: options.paragraphs } : {}), ...(options.abbreviations ? { abbreviations: options.abbreviations } : {}) });
    const long = tokenized.tokens.find((t) => t.end - t.start > this.limits.maxTokenLength);
    if (long) {
      return {
        ...fail('token_too_long', `the token at offset ${long.start} has ${long.end - long.start} characters; a token is at most ${this.limits.maxTokenLength} (is it data rather than prose?)`),
        offset: long.start,
        limit: this.limits.maxTokenLength,
        size: long.end - long.start,
      };
    }
    return ok(tokenized);
  }

  /**
   * Tokenises and analyses `text`: sentence by sentence (the context a ranked analyser sees), in
   * slices of at most `sliceTokens` tokens, yielding to the event loop whenever a slice ran past
   * `sliceMs`, so no text holds the loop for long. Every token gets at least one reading: a
   * punctuation mark, number or symbol its own; a word no analyser reads (or whose letters mix
   * scripts, or are in a script the language's lexicon does not use) one `unknown` guess.
   */
  async analyzeText(language: string, text: string, options: TextAnalysisOptions = {}): Promise<TextResult<TextAnalysis>> {
    await this.load(language);
    const chosen = this.analyzer(language);
    if (!chosen.ok) return chosen;
    const abbreviations = chosen.value.analyzer.abbreviations;
    const checked = this.validate(text, { ...options, ...(abbreviations ? { abbreviations } : {}) });
    if (!checked.ok) return checked;
    const { tokens, sentences, paragraphs } = checked.value;
    // The engine's frames come from disk or are built in slices, not inside the first slice.
    if (!chosen.value.learned) await this.#morphology().prepareInBackground(chosen.value.iso);
    const rank: RankOptions = options.all ? { all: true } : {};
    const analysed: AnalysedToken[] = tokens.map((t) => ({ text: t.text, kind: t.kind, start: t.start, end: t.end, analyses: [] })); // not `{ ...t, analyses }` (see analyzeForm)
    const started = performance.now();
    let sliceStart = started;
    // A learned analyser reads a sentence whole (up to sliceTokens); the engine reads word by word,
    // so it is sliced a word at a time: one slow word (tens of ms) never joins sixty more.
    const sliceTokens = chosen.value.learned ? this.limits.sliceTokens : 1;
    for (const sentence of sentences) {
      for (let from = sentence.start; from < sentence.end; from += sliceTokens) {
        const to = Math.min(sentence.end, from + sliceTokens);
        const texts = contextTexts(tokens.slice(from, to), chosen.value.scripts);
        const words = texts.flatMap((text, i) => (text !== '' && tokens[from + i]!.kind === 'word' ? [i] : []));
        // The engine's analyses of new words in slices that yield; analyzeTokens then ranks them.
        if (words.length > 0 && chosen.value.analyzer.prepareTokens) await chosen.value.analyzer.prepareTokens(words.map((i) => texts[i]!));
        const readings = words.length > 0 ? chosen.value.analyzer.analyzeTokens(texts, rank) : [];
        for (const i of words) analysed[from + i]!.analyses = readings[i] ?? [];
        for (let k = from; k < to; k++) if (analysed[k]!.analyses.length === 0) analysed[k]!.analyses = [ownReading(tokens[k]!)];
        const now = performance.now();
        if (now - started > this.limits.budgetMs) {
          return fail('service_unavailable', `the text took more than ${this.limits.budgetMs / 1000} s to analyse; send it in smaller parts`);
        }
        if (now - sliceStart >= this.limits.sliceMs) {
          await yieldToLoop();
          sliceStart = performance.now();
        }
      }
      // The engine read the sentence a word at a time (so a slow word yields); its readings are ranked
      // again with the whole sentence as context (every form is cached by now: nothing is analysed twice).
      // Its punctuation goes in too (contextTexts): `..., acha maji` 'leave the water' starts a clause.
      if (!chosen.value.learned && sentence.end - sentence.start > 1) {
        const texts = contextTexts(tokens.slice(sentence.start, sentence.end), chosen.value.scripts);
        const readings = chosen.value.analyzer.analyzeTokens(texts, rank);
        texts.forEach((text, i) => {
          if (text !== '' && tokens[sentence.start + i]!.kind === 'word' && (readings[i] ?? []).length > 0) analysed[sentence.start + i]!.analyses = readings[i]!;
        });
      }
    }
    return ok({ language: chosen.value.iso, analyzer: chosen.value.learned ? 'learned' : 'engine', tokens: analysed, sentences, paragraphs });
  }

  /**
   * Readies the engine's analysers `analyzeForm` will use (one language, or every one), reading
   * their frames from disk or building them in slices that yield: call it before `analyzeForm` on
   * a request path, so a language not yet warm does not hold the event loop.
   */
  async prepare(language?: string): Promise<void> {
    const morphology = this.#morphology();
    if (language) {
      const found = morphology.engine(language);
      if (found.ok) await morphology.prepareInBackground(found.value.iso);
      // The learnt analyser analyzeForm adds for a language, read in slices too.
      if (found.ok) await this.load(found.value.iso);
      return;
    }
    for (const iso of morphology.installed()) await morphology.prepareInBackground(iso);
  }

  /**
   * Every analysis of one form (GET /analyze, analyze_form with `form`): the engine's analyses,
   * each with a probability (softmax of the scores within its language), part of speech, word
   * class, morphemes and `guess`. For a language with a learned analyser, its readings come
   * first (see docs/api.md "How engine analyses and learned readings combine").
   */
  analyzeForm(form: string, language?: string): Result<RankedAnalysis[]> {
    return this.#ranked(form, language, this.#morphology().analyze(form, language));
  }

  /**
   * `analyzeForm` for a request path (GET /analyze, analyze_form): the same analyses, the engine's
   * run in slices that yield to the event loop (MorphologyService.analyzeInSlices), so a long or
   * pathological word, or a form tried in every installed language, does not hold it.
   */
  async analyzeFormInSlices(form: string, language?: string): Promise<Result<RankedAnalysis[]>> {
    return this.#ranked(form, language, await this.#morphology().analyzeInSlices(form, language));
  }

  #ranked(form: string, language: string | undefined, result: Result<AnalysisView[]>): Result<RankedAnalysis[]> {
    if (!result.ok) return result;
    const views = result.value;
    const byLanguage = new Map<string, number[]>();
    views.forEach((v, i) => byLanguage.set(v.language, [...(byLanguage.get(v.language) ?? []), i]));
    const ranked: RankedAnalysis[] = new Array(views.length);
    for (const indices of byLanguage.values()) {
      const probabilities = probabilitiesOf(indices.map((i) => views[i]!.score));
      indices.forEach((i, k) => {
        const v = views[i]!;
        const reading = readingOf(v, probabilities[k]!);
        // Written out, not `{ ...v, probability, ... }`: on Node 20 a spread followed by properties the
        // source lacks builds a new hidden class per object, old-generation garbage on every request.
        ranked[i] = {
          language: v.language,
          lemma: v.lemma,
          root: v.root,
          in_lexicon: v.in_lexicon,
          gloss: v.gloss,
          english: v.english,
          features: v.features,
          words: v.words,
          score: v.score,
          probability: reading.probability,
          pos: reading.pos,
          word_class: reading.word_class,
          morphemes: reading.morphemes,
          guess: reading.guess,
        };
      });
    }
    if (!language) return ok(ranked);
    const chosen = this.analyzer(language);
    if (!chosen.ok || !chosen.value.learned) return ok(ranked);
    return ok(combine(form, chosen.value.iso, chosen.value.analyzer.analyzeTokens([form.trim()], { all: true })[0] ?? [], ranked));
  }
}

/**
 * A learned analyser's readings of a form first, in its order and with its probabilities; an engine
 * analysis with the same lemma and word class lends the reading its root, features and slots. The
 * engine analyses no reading matched follow, their probabilities scaled into what the learned
 * readings leave (1 - their sum, which may be 0). Every `score` of such a list is the probability.
 */
export function combine(form: string, iso: string, learned: readonly TokenAnalysis[], engine: readonly RankedAnalysis[]): RankedAnalysis[] {
  if (learned.length === 0) return [...engine];
  const used = new Set<RankedAnalysis>();
  const out: RankedAnalysis[] = learned.map((r) => {
    const match = engine.find((e) => !used.has(e) && e.lemma === r.lemma && e.word_class === r.word_class);
    if (match) used.add(match);
    return {
      language: iso,
      lemma: r.lemma,
      root: match?.root ?? r.lemma,
      in_lexicon: !r.guess,
      gloss: r.gloss ?? match?.gloss ?? null,
      english: match?.english ?? null,
      features: match?.features ?? { word_class: r.word_class, polarity: 'positive' },
      words: match?.words ?? [{ surface: form.trim(), slots: Object.fromEntries(r.morphemes.map((m, i) => [`m${i + 1}`, { form: m.surface, id: m.tag }])), polarity: 'positive' }],
      score: r.probability,
      probability: r.probability,
      pos: r.pos,
      word_class: r.word_class,
      morphemes: r.morphemes,
      guess: r.guess,
    };
  });
  const rest = Math.max(0, 1 - learned.reduce((sum, r) => sum + r.probability, 0));
  // Their score becomes their probability too, so that one list is ordered by one measure.
  for (const e of engine) if (!used.has(e)) out.push({ ...e, probability: e.probability * rest, score: e.probability * rest });
  return out;
}
