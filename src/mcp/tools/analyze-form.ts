/** analyze_form: every analysis of a surface form (Analysis, read-only). */
import { z } from 'zod';
import { analysisSchema, languageCode } from '../../morphology-api.js';
import { guessNote, wordArgument } from './common.js';
import { defineTool, fromService } from '../tool.js';

export const analyzeForm = defineTool({
  name: 'analyze_form',
  group: 'Analysis',
  title: 'Analyse a word form',
  description:
    'Every analysis of an inflected word: lemma, root, tense, polarity, subject, object, the slots of the template and an English gloss, most plausible first ' +
    '(`score`). Roots outside the lexicon are analysed too (`in_lexicon: false`). Give `language` for one language, or omit it to try every installed one. ' +
    'An empty `analyses` list means no analysis was found.',
  input: z
    .object({
      form: wordArgument('The word to analyse, e.g. hawatakipenda (a periphrastic form is two words).'),
      language: languageCode.optional().describe('Language code (swh, zu, ...); omit to analyse in every installed language.'),
    })
    .strict(),
  output: z.object({ form: z.string(), analyses: z.array(analysisSchema) }),
  generative: false,
  handler: ({ form, language }, { services }) => fromService(services.morphology.analyze(form, language), (analyses) => ({ form, analyses })),
  summary: (r) =>
    r.analyses.length === 0 ? `${r.form}: no analysis` : `${r.form}: ${r.analyses.length} analyses; best: ${r.analyses[0]!.lemma} (${r.analyses[0]!.language})${r.analyses[0]!.english ? ` — ${r.analyses[0]!.english}` : ''}${guessNote(r.analyses[0]!.in_lexicon)}`,
});
