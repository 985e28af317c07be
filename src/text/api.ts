/**
 * The running-text API's inputs and results as zod schemas, written once: they validate
 * POST /analyze-text, describe it in OpenAPI and shape the MCP tool analyze_form's `text` answer.
 */
import { z } from 'zod';
import { languageCode, morphemeSchema, readingFields } from '../morphology-api.js';
import { envelopeSchema } from '../http/envelope.js';
import { TEXT_LIMITS, type TextAnalysis } from './service.js';

/** 'true'/'false' in a query string, a boolean in JSON. */
const flag = z
  .union([z.boolean(), z.enum(['true', 'false'])])
  .optional()
  .transform((v) => v === true || v === 'true');

const allFlag = flag.describe('`true`: every reading of each token; default: the most probable readings that together hold 95% of the probability, at most 5.');

/** The text itself, before the service's own checks (characters, tokens) run. */
/**
 * The character limit written with thousands separators (20,000). Not `toLocaleString('en')`: its
 * first call loads the ICU locale data, 60-150 ms of every start, as this module is loaded by every command.
 */
export const maxCharactersText = String(TEXT_LIMITS.maxCharacters).replace(/\B(?=(\d{3})+$)/g, ',');
const textField = z.string().describe(`Running text, UTF-8, at most ${maxCharactersText} characters; tokens at most ${TEXT_LIMITS.maxTokenLength} characters.`);

/**
 * Body of POST /analyze-text: JSON, or with Content-Type: text/plain the text itself (which the
 * route reads as `{text}`, the language then coming from the query).
 */
export const analyzeTextBody = z
  .object({
    language: languageCode.optional().describe('Language code (zul, zu, swh, sw, ...); required here or in the query.'),
    text: textField,
    all: allFlag,
  })
  .strict();

/** Query of POST /analyze-text: `language` (and `all`) when the body is text/plain. */
export const analyzeTextQuery = z
  .object({
    language: languageCode.optional().describe('Language code; required with a text/plain body (a JSON body may name it itself).'),
    all: allFlag,
  })
  .strict();

export const tokenAnalysisSchema = z.object({
  lemma: z.string().describe('Verbs as root + final vowel, nouns as the stem or citation form the lexicon uses.'),
  ...readingFields,
  morphemes: z.array(morphemeSchema),
  source: z.enum(['lexicon', 'rule', 'guess']).describe('`lexicon` (the word as listed), `rule` (grammar over a known stem), `guess` (stem in no lexicon).'),
  gloss: z.string().nullable().describe('English gloss of the lemma, where the lexicon has one.'),
  stem_source: z
    .string()
    .nullable()
    .describe(
      "Which lexicon lists the stem, by source id: the cartridge lexicon's cited source (`lugha-zul-lexicon`; its gloss is given), `sadilar-ii` (the lexicon learnt from the SADiLaR-II annotated text), the source id of a model's related-language lexicon (a stem only that language's annotated text has), `cartridge` (an engine reading of a listed stem); null for a guess.",
    ),
});

export const analysedTokenSchema = z.object({
  text: z.string().describe('The token, NFC-normalised.'),
  kind: z.enum(['word', 'punctuation', 'number', 'symbol']),
  start: z.number().int().describe('UTF-16 offset of the token in the text as sent.'),
  end: z.number().int(),
  sentence: z.number().int().describe('Index of the sentence the token is in, from 0.'),
  paragraph: z.number().int().describe('Index of the paragraph (blank-line separated), from 0.'),
  analyses: z.array(tokenAnalysisSchema).describe('Readings, most probable first; every token has at least one (punctuation, numbers and symbols their own; an unreadable word one `unknown` guess).'),
});

/** The response: the envelope around the tokens, with the language and the analyser that read them. */
export const analyzeTextResponse = envelopeSchema(analysedTokenSchema).extend({
  language: z.string().describe('ISO 639-3 code of the language analysed.'),
  analyzer: z.enum(['learned', 'engine']).describe('`learned`: ranked in context by a model trained on annotated text; `engine`: the cartridge grammar, word by word.'),
});

export type AnalysedTokenView = z.infer<typeof analysedTokenSchema>;

/** The analysed tokens as the API shows them, each with its sentence and paragraph index. */
export function tokenViews(analysis: Pick<TextAnalysis, 'tokens' | 'sentences' | 'paragraphs'>): AnalysedTokenView[] {
  const sentenceOf = new Array<number>(analysis.tokens.length).fill(0);
  const paragraphOf = new Array<number>(analysis.tokens.length).fill(0);
  analysis.sentences.forEach((s, n) => sentenceOf.fill(n, s.start, s.end));
  analysis.paragraphs.forEach((p, n) => paragraphOf.fill(n, p.start, p.end));
  return analysis.tokens.map((t, i) => ({ text: t.text, kind: t.kind, start: t.start, end: t.end, sentence: sentenceOf[i]!, paragraph: paragraphOf[i]!, analyses: t.analyses }));
}
