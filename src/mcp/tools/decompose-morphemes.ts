/** decompose_morphemes: a word split into its morphemes, slot by slot (Analysis, read-only). */
import { z } from 'zod';
import { defineTool, fromService } from '../tool.js';
import { engineFor, guessNote, languageArgument, morphemeSchema, wordArgument } from './common.js';

export const decomposeMorphemes = defineTool({
  name: 'decompose_morphemes',
  group: 'Analysis',
  title: 'Split a word into morphemes',
  description:
    'Segment an inflected word into its morphemes in template order (subject, negation, tense/aspect, object, root, extensions, final vowel, ...), ' +
    'each with the slot it fills and what it realises (1sg, c7, a tense id). One decomposition per analysis, most plausible first; ' +
    'an empty list means the word has no analysis in that language.',
  input: z
    .object({
      form: wordArgument('The word, e.g. ninakupenda.'),
      language: languageArgument,
    })
    .strict(),
  output: z.object({
    form: z.string(),
    language: z.string(),
    decompositions: z.array(
      z.object({
        lemma: z.string(),
        root: z.string(),
        in_lexicon: z.boolean(),
        gloss: z.string().nullable(),
        segmentation: z.string().describe('The morphemes joined with hyphens, words separated by a space.'),
        words: z.array(z.object({ surface: z.string(), morphemes: z.array(morphemeSchema) })),
        score: z.number(),
      }),
    ),
  }),
  generative: false,
  handler: ({ form, language }, { services }) => {
    const engine = engineFor(services.morphology, language);
    if (!engine.ok) return engine;
    return fromService(services.morphology.analyze(form, engine.value.iso), (analyses) => ({
      form,
      language: engine.value.iso,
      decompositions: analyses.map((a) => {
        const words = a.words.map((w) => ({
          surface: w.surface,
          morphemes: Object.entries(w.slots).map(([slot, m]) => ({ slot, form: m.form, ...(m.id ? { id: m.id } : {}) })),
        }));
        return {
          lemma: a.lemma,
          root: a.root,
          in_lexicon: a.in_lexicon,
          gloss: a.gloss,
          segmentation: words.map((w) => w.morphemes.map((m) => m.form).filter(Boolean).join('-')).join(' '),
          words,
          score: a.score,
        };
      }),
    }));
  },
  summary: (r) => (r.decompositions.length === 0 ? `${r.form}: no analysis` : `${r.form} = ${r.decompositions[0]!.segmentation}${guessNote(r.decompositions[0]!.in_lexicon)}`),
});
