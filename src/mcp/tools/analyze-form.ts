/** analyze_form: every analysis of a word form, or of each token of running text (Analysis, read-only). */
import { fail, ok } from '../../result.js';
import { z } from 'zod';
import { languageCode, rankedAnalysisSchema } from '../../morphology-api.js';
import { analysedTokenSchema, maxCharactersText, tokenViews } from '../../text/api.js';
import { guessNote, wordArgument } from './common.js';
import { defineTool, fromService } from '../tool.js';

/** Analyses of one form returned by default (`all: true` for every one). */
export const FORM_ANALYSES_DEFAULT = 10;
/** Tokens of a text returned by default; `from_token` pages on. */
export const TEXT_TOKENS_DEFAULT = 40;
export const TEXT_TOKENS_MAX = 200;

export const analyzeForm = defineTool({
  name: 'analyze_form',
  group: 'Analysis',
  title: 'Analyse a word form or running text',
  description:
    'Give exactly one of `form` or `text`.\n' +
    '`form`: every analysis of one inflected word — lemma, root, tense, polarity, subject, object, the slots of the template, an English gloss, ' +
    'and `probability`, `pos`, `word_class`, `morphemes` (surface, canonical, tag) and `guess` (true when the root is in no lexicon) — most probable first. ' +
    `At most ${FORM_ANALYSES_DEFAULT} analyses unless \`all\` is true; \`total\` says how many there are. Omit \`language\` to try every installed language. An empty \`analyses\` list means no analysis.\n` +
    `\`text\`: running text (sentences, up to ${maxCharactersText} characters) in one \`language\` (required): it is split into tokens (words, punctuation, numbers) ` +
    'and each word is analysed in its sentence; every token comes with its offsets and its readings, most probable first (the likeliest that hold 95% of the probability, at most 5; `all` for every one). ' +
    `At most \`max_tokens\` tokens come back (default ${TEXT_TOKENS_DEFAULT}, up to ${TEXT_TOKENS_MAX}); when \`next_from_token\` is not null, call again with the same text and \`from_token\` set to it for the rest.`,
  input: z
    .object({
      form: wordArgument('One word to analyse, e.g. hawatakipenda or ngiyabonga (a periphrastic form is two words). Give this or `text`.').optional(),
      text: z.string().optional().describe('Running text to analyse token by token, e.g. "Ngiyabonga kakhulu, mngane." Give this or `form`; needs `language`.'),
      language: languageCode.optional().describe('Language code (swh, zul, zu, sw, ...). Required with `text`; with `form`, omit it to try every installed language.'),
      all: z.boolean().optional().describe('true: every analysis (form) or every reading of each token (text); default false keeps the likeliest.'),
      from_token: z.number().int().min(0).optional().describe('Text only: index of the first token to return (from `next_from_token` of the previous call); default 0.'),
      max_tokens: z.number().int().min(1).max(TEXT_TOKENS_MAX).optional().describe(`Text only: tokens to return, 1..${TEXT_TOKENS_MAX}; default ${TEXT_TOKENS_DEFAULT}.`),
    })
    .strict(),
  output: z.object({
    form: z.string().optional().describe('The word analysed (form mode).'),
    analyses: z.array(rankedAnalysisSchema).optional().describe('Form mode: analyses, most probable first.'),
    total: z.number().int().optional().describe('Form mode: how many analyses there are in all.'),
    language: z.string().optional().describe('Text mode: the language analysed (ISO 639-3).'),
    analyzer: z.enum(['learned', 'engine']).optional().describe('Text mode: `learned` (ranked in context by a trained model) or `engine` (the cartridge grammar, word by word).'),
    tokens: z.array(analysedTokenSchema).optional().describe('Text mode: the tokens from `from_token`, each with its readings.'),
    total_tokens: z.number().int().optional(),
    next_from_token: z.number().int().nullable().optional().describe('Text mode: pass as `from_token` to get the next tokens; null when these were the last.'),
  }),
  generative: false,
  handler: async ({ form, text, language, all, from_token, max_tokens }, { services }) => {
    if ((form === undefined) === (text === undefined)) {
      return fail('invalid_parameter', 'give exactly one of `form` (one word) or `text` (running text)', { parameter: form === undefined ? 'form' : 'text' });
    }
    if (form !== undefined) {
      if (from_token !== undefined || max_tokens !== undefined) return fail('invalid_parameter', '`from_token` and `max_tokens` page through a text; with `form` leave them out', { parameter: 'from_token' });
      await services.text.prepare(language);
      return fromService(await services.text.analyzeFormInSlices(form, language), (analyses) => ({ form, analyses: all ? analyses : analyses.slice(0, FORM_ANALYSES_DEFAULT), total: analyses.length }));
    }
    if (!language) return fail('invalid_parameter', 'give the `language` of the text (zul, swh, ...)', { parameter: 'language' });
    const outcome = await services.text.analyzeText(language, text!, all ? { all: true } : {});
    if (!outcome.ok) {
      const parameter = outcome.code === 'language_not_found' ? 'language' : 'text';
      return fail(outcome.code, outcome.message, { parameter, ...(parameter === 'language' ? { allowed: services.morphology.installed() } : {}) });
    }
    const tokens = tokenViews(outcome.value);
    const from = Math.min(from_token ?? 0, tokens.length);
    const to = Math.min(tokens.length, from + (max_tokens ?? TEXT_TOKENS_DEFAULT));
    return ok({ language: outcome.value.language, analyzer: outcome.value.analyzer, tokens: tokens.slice(from, to), total_tokens: tokens.length, next_from_token: to < tokens.length ? to : null });
  },
  summary: (r) => {
    if (r.tokens) {
      const from = r.tokens[0]?.start ?? 0;
      const words = r.tokens.filter((t) => t.kind === 'word');
      const guessed = words.filter((t) => t.analyses[0]?.guess).length;
      const to = r.next_from_token ?? r.total_tokens ?? r.tokens.length;
      const range = r.tokens.length === 0 ? 'no tokens' : `tokens ${to - r.tokens.length + 1}-${to} of ${r.total_tokens}`;
      return `${r.language}: ${range} (from offset ${from}); ${words.length} words, ${guessed} of them read as guesses${r.next_from_token !== null ? `; call again with from_token=${r.next_from_token} for more` : ''}`;
    }
    const analyses = r.analyses ?? [];
    if (analyses.length === 0) return `${r.form}: no analysis`;
    const best = analyses[0]!;
    return `${r.form}: ${r.total} analyses${r.total! > analyses.length ? ` (${analyses.length} shown; all=true for every one)` : ''}; best: ${best.lemma} (${best.language}, ${best.pos}, p=${best.probability.toFixed(2)}${best.guess ? ', guessed root' : ''})${best.english ? ` — ${best.english}` : ''}${guessNote(!best.guess)}`;
  },
});
