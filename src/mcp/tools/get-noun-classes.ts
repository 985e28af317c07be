/** get_noun_classes: a language's noun classes with their prefixes and concords (Data Access, read-only); the look-up is src/lexicon-service.ts. */
import { z } from 'zod';
import { nounClasses, nounClassesSchema } from '../../lexicon-service.js';
import { defineTool } from '../tool.js';
import { languageArgument } from './common.js';

export const getNounClasses = defineTool({
  name: 'get_noun_classes',
  group: 'Data Access',
  title: 'Noun classes',
  description:
    "A language's noun classes from its cartridge: for each class (c1..c18) the number, the noun prefix and every concord (subject, object, negative subject, " +
    'adjective, possessive, ...) with its source; where the cartridge has a noun grammar, also the sub-classes (1a, 2b, ...) with their singular/plural ' +
    'pairing, prefixes and example nouns from the lexicon. Use the class ids as `subject` or `object` in conjugate_verb.',
  input: z.object({ language: languageArgument }).strict(),
  output: nounClassesSchema,
  generative: false,
  handler: ({ language }, { services }) => nounClasses(services.morphology, language),
  summary: (r) => `${r.language}: ${r.classes.length} noun classes (${r.classes.map((c) => `${c.class}${c.noun_prefix ? ` ${c.noun_prefix}-` : ''}`).join(', ')})`,
});
