/**
 * The morphology API's inputs and results as zod schemas, written once: they
 * validate HTTP requests, describe them in OpenAPI and serialise responses
 * (and are meant as the MCP tools' schemas too). The shapes mirror the
 * MorphologyService's types; a test compares REST bodies with the service's values.
 */
import { z } from 'zod';
import { MAX_BATCH_FORMS } from './access/plans.js';
import { tonalAnalysisSchema } from './tone/api.js';
import { wordText } from './word-text.js';

/** A language code as callers send it (ISO 639-3, 639-1 or a macrolanguage code); the service normalises it. */
export const languageCode = z.string().min(1).max(32);

const polarity = z.enum(['positive', 'negative']);

/** A comma-separated list (query) or an array (JSON), as a list of trimmed items. */
const list = (item: z.ZodString) =>
  z
    .union([z.string().max(500), z.array(item).max(16)])
    .optional()
    .transform((v) => (v === undefined ? undefined : (typeof v === 'string' ? v.split(',') : v).map((s) => s.trim()).filter(Boolean)));

/** 'true'/'false' in a query string, a boolean in JSON. */
const flag = z
  .union([z.boolean(), z.enum(['true', 'false'])])
  .optional()
  .transform((v) => (v === undefined ? undefined : v === true || v === 'true'));

/** The parameters of one conjugation besides the language (GET /conjugate, batch items). */
export const conjugationParameters = {
  root: wordText(64).describe('Verb root: `penda`, `-pend-` or the infinitive `kupenda`.'),
  subject: z.string().min(1).max(8).optional().describe('Subject: `1sg`, `2sg`, `3sg`, `1pl`, `2pl`, `3pl`, or a noun class `c1`..`c18`.'),
  tense: z.string().min(1).max(64).optional().describe('Tense id, as listed by GET /languages (default: the first tense of the language).'),
  polarity: polarity.optional().describe('Default positive.'),
  object: z.string().min(1).max(8).optional().describe('Object marker: a person (`1sg`..`3pl`), a noun class (`c7`) or `refl`.'),
  head: z
    .string()
    .min(1)
    .max(8)
    .optional()
    .describe('Relatives: the noun class (`c7`) the relative verb qualifies when it is not the subject (object and place relatives: kitabu nilichokisoma, tense past_relative, subject 1sg, object c7, head c7).'),
  mood: z.string().min(1).max(32).optional().describe('Mood (indicative, subjunctive, imperative, ...); picks the first tense of that mood when `tense` is absent.'),
  variant: z.string().min(1).max(64).optional().describe('A named alternative formation of the tense (e.g. a second negative).'),
  extensions: list(z.string().min(1).max(64)).describe('Verb extensions, comma-separated: applicative, causative, passive, ...'),
  features: z.string().min(1).max(200).optional().describe('A UniMorph feature bundle (e.g. `V;IND;FUT;NEG;3;PL`) instead of tense/subject/object/polarity.'),
  include_tones: flag.describe('`true`/`false`: ask for the tonal analysis; `tonal_analysis.status` says whether the language has tone data.'),
};

/** One conjugation as the service takes it: the language and the parameters above, after parsing. */
export const conjugationInput = z.object({ language: languageCode, ...conjugationParameters });

export const slotView = z.object({ form: z.string(), id: z.string().optional().describe('What the morph realises: 1sg, c7, a tense id, negative, refl, ...') });

export const wordView = z.object({
  surface: z.string(),
  slots: z.record(z.string(), slotView).describe('Filled slots of the verb template, in template order.'),
  tense: z.string().optional(),
  polarity,
});

const cellFeatures = z.object({
  word_class: z.string(),
  tense: z.string().optional(),
  mood: z.string().optional(),
  polarity,
  subject: z.string().optional(),
  object: z.string().optional(),
  head: z.string().optional().describe('Relatives: the agreement id of the qualified noun when it is not the subject.'),
  variant: z.string().optional(),
  extensions: z.array(z.string()).optional().describe('Verbs: the extensions of a derived form, in order (applicative, causative, passive, ...).'),
  noun_class: z.string().optional().describe('Nouns: the noun class (1, 1a, 3, ...).'),
  number: z.enum(['sg', 'pl']).optional().describe('Nouns: singular or plural.'),
  form: z.string().optional().describe('Nouns: full, bare, copulative, negative_copulative, locative, possessive or relative_possessive.'),
  possessee: z.string().optional().describe('Possessives: the agreement id of the possessed noun.'),
});

/** The tonal analysis of tone/api.ts, its status described for a conjugation. */
const tonalAnalysis = tonalAnalysisSchema.extend({
  status: tonalAnalysisSchema.shape.status.describe(
    'analysed (tones computed from the cartridge), not_tonal (the language has no tone), not_requested (include_tones was not true), not_available (no tone data, or none for this root: tones are never guessed)',
  ),
});

export const conjugationResultSchema = z
  .object({
    language: z.string(),
    lemma: z.string(),
    root: z.string(),
    in_lexicon: z.boolean().describe('Whether the root is in the cartridge lexicon (forms of other roots follow the regular pattern).'),
    surface_form: z.string(),
    slots: z
      .record(z.string(), z.union([slotView, wordView]))
      .describe('pre_initial, subject, negation, tam, object, stem_support, root, extensions, fv, post_final: each filled slot with its morph; `auxiliary` holds the auxiliary word of a periphrastic form.'),
    words: z.array(wordView).describe('The orthographic words of the form, each with its slots.'),
    tonal_analysis: tonalAnalysis,
    english: z.string().describe('An English gloss; a root outside the lexicon is shown as ‹root›.'),
    features: cellFeatures,
    rules_applied: z.array(z.string()).describe('Ids of the morphophonological rules that changed the form.'),
  })
  .describe('Conjugation result');

export const analysisSchema = z
  .object({
    language: z.string(),
    lemma: z.string(),
    root: z.string(),
    in_lexicon: z.boolean(),
    gloss: z.string().nullable().describe('Gloss of the lemma, when the lexicon has it.'),
    english: z.string().nullable(),
    features: cellFeatures,
    words: z.array(wordView),
    score: z.number().describe('Plausibility; analyses come most plausible first.'),
  })
  .describe('One analysis of a form');

/** One morpheme of a reading: as written, its canonical (underlying) form, and its tag. */
export const morphemeSchema = z.object({
  surface: z.string().describe("The letters of the word this morpheme accounts for ('' when it leaves no trace)."),
  canonical: z.string().describe('The underlying form (the root for a root slot).'),
  tag: z.string().describe('What the morpheme is: a slot name and what fills it (`subject:1sg`, `tam:present`, `root`), or a tag of the tag set (`VRoot`, `SC2`); stacked tags joined with `+`.'),
});

/** The fields every analysis and reading carries for ranking and segmentation (added to GET /analyze's analyses). */
export const readingFields = {
  probability: z.number().min(0).max(1).describe('Probability of this analysis of the form (the analyses of one form in one language sum to at most 1; see docs/api.md for how it is computed).'),
  pos: z.string().describe('Part of speech with its noun class where it has one (`V`, `N09`, `NLOC`, `POSS10`, `REL`, `COP`).'),
  word_class: z.string().describe('Coarse word class: verb, noun, locative, possessive, relative, copulative, adjective, ...'),
  morphemes: z.array(morphemeSchema).describe('The morphemes, in order.'),
  guess: z.boolean().describe('True when the stem is in no lexicon: the grammar guessed it.'),
};

/** An analysis of GET /analyze and analyze_form: the engine's fields and the reading's. */
export const rankedAnalysisSchema = analysisSchema.extend(readingFields).describe('One analysis of a form, most probable first');

export const languageSummarySchema = z.object({
  iso: z.string().describe('ISO 639-3 code'),
  iso639_1: z.string().nullable(),
  name: z.string(),
  endonym: z.string().nullable(),
  glottocode: z.string().nullable(),
  guthrie: z.string().nullable(),
  foundational: z.boolean().describe('Part of the foundational layer (Evaluation audio).'),
  capabilities: z.array(z.string()).describe('conjugation, analysis, paradigms, agreement, syllables, tones (the cartridge has tone data)'),
  tenses: z.array(z.object({ id: z.string(), label: z.string(), mood: z.string(), negative: z.boolean() })),
  subjects: z.array(z.string()).describe('Agreement ids accepted as subject and object.'),
  extensions: z.array(z.string()).describe('Verb extension ids accepted by `extensions`.'),
  word_classes: z.array(z.string()),
  lexicon_size: z.number().int(),
  golden_tests: z.object({ total: z.number().int(), passing: z.number().int() }).describe('The cartridge golden tests and how many the engine passes.'),
  sources: z.array(z.object({ id: z.string(), citation: z.string() })),
});

const grapheme = z.object({ grapheme: z.string(), ipa: z.string() });

export const syllableInventorySchema = z.object({
  language: z.string(),
  onsets: z.array(grapheme.extend({ kind: z.string() })),
  nuclei: z.array(grapheme),
  syllabic_nasals: z.array(grapheme),
  codas: z.object({ allowed: z.boolean(), graphemes: z.array(z.string()) }),
  syllable_types: z.array(
    z.object({
      template: z.string(),
      onset_kind: z.string().nullable(),
      count: z.number().int(),
      example: z.object({ word: z.string(), syllables: z.array(z.string()), syllable: z.string().nullable() }).nullable(),
    }),
  ),
  counts: z.object({
    onsets: z.number().int(),
    onsets_by_kind: z.record(z.string(), z.number().int()),
    nuclei: z.number().int(),
    syllabic_nasals: z.number().int(),
    syllable_types: z.number().int(),
    possible_syllables: z.number().int(),
  }),
  sources: z.object({
    phoible: z.object({ inventory_id: z.number().int(), inventory_source: z.string(), references: z.array(z.string()) }),
    references: z.array(z.object({ id: z.string(), citation: z.string(), url: z.string().optional(), license: z.string().optional(), cited_by: z.array(z.string()) })),
  }),
});

/** A bad input of one batch item, named so a caller can fix it. */
const itemProblem = z.object({
  code: z.string(),
  parameter: z.string(),
  message: z.string(),
  allowed: z.array(z.string()).optional(),
});

/** Bounds of a paradigm's lists, well above what a cartridge declares: they only stop absurd requests. */
export const MAX_PARADIGM_SUBJECTS = 64;
export const MAX_PARADIGM_TENSES = 256;

export const paradigmSchema = z
  .object({
    roots: z.array(wordText(64)).min(1).max(MAX_BATCH_FORMS),
    subjects: z.array(z.string().min(1).max(8)).min(1).max(MAX_PARADIGM_SUBJECTS).optional().describe('Default: every subject of the language.'),
    tenses: z.array(z.string().min(1).max(64)).min(1).max(MAX_PARADIGM_TENSES).optional().describe('Default: every tense of the language.'),
    polarity: z.array(polarity).min(1).max(2).optional().describe('Default: ["positive"].'),
  })
  .strict()
  .describe('The cross product roots × tenses × polarity × subjects, in that order (subjects vary fastest).');

export const batchRequestSchema = z
  .object({
    language: languageCode,
    items: z.array(z.object(conjugationParameters).strict()).max(MAX_BATCH_FORMS).optional().describe('Conjugations, each with the parameters of GET /conjugate except `language`.'),
    paradigm: paradigmSchema.optional(),
  })
  .strict()
  .refine((body) => (body.items?.length ?? 0) > 0 || body.paradigm !== undefined, { message: 'give items, a paradigm, or both', path: ['items'] });

export const batchItemResultSchema = z.union([
  z.object({ index: z.number().int(), ok: z.literal(true), result: conjugationResultSchema }),
  z.object({ index: z.number().int(), ok: z.literal(false), error: itemProblem }),
]);
