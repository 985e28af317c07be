/** validate_form: whether a surface form is a form of the language, with its analyses (Utility, read-only). */
import { z } from 'zod';
import { analysisSchema } from '../../morphology-api.js';
import { defineTool, fromService } from '../tool.js';
import { engineFor, languageArgument, wordArgument } from './common.js';

export const validateForm = defineTool({
  name: 'validate_form',
  group: 'Utility',
  title: 'Validate a word form',
  description:
    'Check whether a word is a valid form of the language. `verdict` is `attested_root` (a regular form of a lexicon root: valid), ' +
    '`unknown_root` (the inflection is regular but the root is not in the lexicon: possible, unconfirmed) or `no_analysis` (not a form the grammar can build). ' +
    'The analyses back the verdict; use conjugate_verb to produce the intended form instead.',
  input: z
    .object({
      form: wordArgument('The word to check, e.g. ninapenda.'),
      language: languageArgument,
    })
    .strict(),
  output: z.object({
    form: z.string(),
    language: z.string(),
    valid: z.boolean().describe('True when at least one analysis has a root in the lexicon.'),
    verdict: z.enum(['attested_root', 'unknown_root', 'no_analysis']),
    analyses: z.array(analysisSchema),
  }),
  generative: false,
  handler: async ({ form, language }, { services }) => {
    const engine = engineFor(services.morphology, language);
    if (!engine.ok) return engine;
    return fromService(await services.morphology.analyzeInSlices(form, engine.value.iso), (analyses) => {
      const attested = analyses.filter((a) => a.in_lexicon);
      const verdict = attested.length > 0 ? ('attested_root' as const) : analyses.length > 0 ? ('unknown_root' as const) : ('no_analysis' as const);
      return { form, language: engine.value.iso, valid: attested.length > 0, verdict, analyses: attested.length > 0 ? attested : analyses };
    });
  },
  summary: (r) => `${r.form}: ${r.verdict}${r.analyses[0] ? ` (${r.analyses[0].lemma}${r.analyses[0].english ? ` — ${r.analyses[0].english}` : ''})` : ''}`,
});
