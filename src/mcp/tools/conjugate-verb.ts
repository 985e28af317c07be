/** conjugate_verb: one verb form with its slots, gloss and tonal status (Conjugation, generative). */
import { z } from 'zod';
import { conjugationResultSchema } from '../../morphology-api.js';
import { defineTool, fromService } from '../tool.js';
import { languageArgument, conjugationArguments } from './common.js';

export const conjugateVerb = defineTool({
  name: 'conjugate_verb',
  group: 'Conjugation',
  title: 'Conjugate a verb',
  description:
    'Generate one inflected form of a Bantu verb. Give `language` and `root` (penda, -pend- or kupenda), then `subject` (1sg..3pl or a noun class c1..c18), ' +
    '`tense` (ids from get_language_info), optionally `polarity` (negative), `object`, `mood`, `extensions` (applicative, causative, passive, ...) ' +
    'or a UniMorph bundle in `features` instead. Returns `surface_form`, every filled slot of the verb template with its morph, the English gloss ' +
    '("they will not love it") and the rules that applied. A root outside the lexicon follows the regular pattern (`in_lexicon: false`).',
  input: z.object({ language: languageArgument, ...conjugationArguments }).strict(),
  output: conjugationResultSchema,
  generative: true,
  // As many as the REST route keeps (about 1 KB each): a conjugation depends only on its arguments.
  cacheEntries: 2048,
  handler: (args, { services }) => fromService(services.morphology.conjugate(args)),
  summary: (r) => `${r.surface_form} — ${r.english}`,
});
