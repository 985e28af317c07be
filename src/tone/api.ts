/**
 * Zod schemas of the tone results, written once: they describe the conjugation result's
 * `tonal_analysis` in OpenAPI, the tonal-pairs route, and the tone services' outputs
 * (meant as the MCP tools' schemas too).
 */
import { z } from 'zod';
import { wordText } from '../word-text.js';

export const tbuToneSchema = z.object({
  text: z.string().describe('The tone-bearing unit as written (a syllable, or a mora of a long vowel).'),
  morph: z.string().describe('Slot of the morph the unit belongs to: subject, tam, object, root, fv, ...'),
  morph_form: z.string(),
  underlying: z.enum(['H', 'L', '0']).describe('Before the rules: H, L (specified low) or 0 (toneless).'),
  underlying_from: z.string().nullable().describe('What brought the underlying tone: root, a slot, or melody:<id>.'),
  surface: z.enum(['H', 'L']),
  surface_from: z.string().nullable().describe('Origin of the high tone the unit carries on the surface.'),
  downstep: z.boolean(),
  rules: z.array(z.string()).describe('Ids of the tone rules that changed this unit, in order.'),
});

export const wordToneSchema = z.object({
  surface: z.string(),
  transcription: z.string().describe('Acute = high, grave = low.'),
  transcription_high: z.string().describe('Acute on high units only; ꜜ before a downstepped unit.'),
  units: z.array(tbuToneSchema),
  rules_applied: z.array(z.object({ id: z.string(), type: z.string(), description: z.string(), source: z.string() })),
  sources: z.array(z.string()).describe('Source ids (cartridge.yaml) of every tone fact used.'),
});

/** The optional members of `tonal_analysis` when its status is `analysed`. */
const tonalAnalysisDetail = {
  unit: z.enum(['syllable', 'mora']).optional(),
  transcription: z.string().optional(),
  transcription_high: z.string().optional(),
  words: z.array(wordToneSchema).optional(),
};

export const tonalAnalysisSchema = z.object({ status: z.string(), note: z.string(), ...tonalAnalysisDetail });

export const toneSourceSchema = z.object({
  dataset: z.string().describe('bantubvd, chan-numerals or cartridge'),
  source: z.string().describe('The original source the dataset cites for the form.'),
});

/** One tone-marked lexical item. */
export const toneItemSchema = z.object({
  form: z.string().describe('As the source writes it, tone-marked.'),
  segments: z.string().describe('The form without tone marks.'),
  tones: z.string().describe('The tone of each marked vowel: H, L, F (falling), R (rising), M.'),
  gloss: z.string(),
  source: toneSourceSchema,
});

export const tonalPairSchema = z.object({
  language: z.string(),
  variety: z.string().nullable().describe('The variety, where the dataset gives several for one language code.'),
  segments: z.string(),
  items: z.array(toneItemSchema).min(2).describe('Items identical in segments and different in tone.'),
});

export const minimalPairSchema = z.object({
  language: z.string(),
  variety: z.string().nullable(),
  kind: z.enum(['tone', 'segment']).describe('tone: same segments, exactly one vowel differs in tone; segment: same tones, exactly one segment differs.'),
  difference: z.string().describe('Where and what differs, e.g. "vowel 2: H/L" or "segment 3: t/d".'),
  a: toneItemSchema,
  b: toneItemSchema,
});

export const tonalPairsQuerySchema = z
  .object({
    language: z.string().min(1).max(32).optional().describe('Language code (ISO 639-3 or an accepted alias); omitted = every language with tone-marked data.'),
  })
  .strict();

export const minimalPairsInputSchema = z
  .object({
    language: z.string().min(1).max(32).optional(),
    kind: z.enum(['tone', 'segment', 'any']).default('any'),
    contains: z.string().min(1).max(64).optional().describe('Only pairs where either form (tone marks ignored) contains this text.'),
    gloss: z.string().min(1).max(64).optional().describe('Only pairs where either gloss contains this word.'),
    limit: z.number().int().min(1).max(500).default(50),
  })
  .strict();

export const predictTonesInputSchema = z
  .object({
    language: z.string().min(1).max(32),
    word: wordText(64).optional().describe('A word or root: its recorded lexical tone.'),
    root: wordText(64).optional().describe('A verb root to put in a conjugated form (with tense, subject, ...).'),
    tense: z.string().min(1).max(64).optional(),
    subject: z.string().min(1).max(8).optional(),
    object: z.string().min(1).max(8).optional(),
    polarity: z.enum(['positive', 'negative']).optional(),
  })
  .strict()
  .refine((v) => v.word !== undefined || v.root !== undefined, { message: 'give a word or a root', path: ['word'] });

/**
 * Whether predict_tones arguments ask for a conjugated form (a root with any of tense,
 * subject, object, polarity) rather than a recorded lexical tone. Works on raw, unvalidated
 * arguments too: MCP tier gating decides on it before validation.
 */
export function asksForConjugatedForm(args: unknown): boolean {
  if (args === null || typeof args !== 'object') return false;
  const a = args as Record<string, unknown>;
  return a.root !== undefined && (a.tense !== undefined || a.subject !== undefined || a.object !== undefined || a.polarity !== undefined);
}

export const predictTonesOutputSchema = z.object({
  language: z.string(),
  kind: z.enum(['lexical', 'conjugated']),
  items: z
    .array(toneItemSchema.extend({ variety: z.string().nullable().describe('The variety the form is from, where the dataset names one (it may differ from the standard language).') }))
    .describe('Lexical: the recorded tone-marked items for the word.'),
  roots: z.array(z.object({ root: z.string(), tone: z.string(), source: z.string() })).describe("Lexical: the root's tone in the cartridge tone data (H, L, 0 per unit)."),
  tonal_analysis: tonalAnalysisSchema.optional().describe('Conjugated: the tonal analysis of the form.'),
  surface_form: z.string().optional(),
});

export const tonalAnalysisInputSchema = z
  .object({
    language: z.string().min(1).max(32),
    root: z.string().min(1).max(64),
    tense: z.string().min(1).max(64).optional(),
    subject: z.string().min(1).max(8).optional(),
    object: z.string().min(1).max(8).optional(),
    polarity: z.enum(['positive', 'negative']).optional(),
  })
  .strict();

export type ToneItem = z.infer<typeof toneItemSchema>;
export type TonalPair = z.infer<typeof tonalPairSchema>;
export type MinimalPair = z.infer<typeof minimalPairSchema>;
