/** decompose_morphemes: a word split into its morphemes, slot by slot (Analysis, read-only); the split is src/lexicon-service.ts. */
import { z } from 'zod';
import { decomposeInSlices, decompositionSchema } from '../../lexicon-service.js';
import { defineTool, fromService } from '../tool.js';
import { guessNote, languageArgument, wordArgument } from './common.js';

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
  output: decompositionSchema,
  generative: false,
  handler: async ({ form, language }, { services }) => fromService(await decomposeInSlices(services.morphology, form, language)),
  summary: (r) => (r.decompositions.length === 0 ? `${r.form}: no analysis` : `${r.form} = ${r.decompositions[0]!.segmentation}${guessNote(r.decompositions[0]!.in_lexicon)}`),
});
