/** list_languages: the installed languages, briefly (Data Access, read-only). */
import { ok } from '../../result.js';
import { z } from 'zod';
import { defineTool } from '../tool.js';

const capabilities = ['conjugation', 'analysis', 'paradigms', 'agreement', 'syllables'] as const;

export const listLanguages = defineTool({
  name: 'list_languages',
  group: 'Data Access',
  title: 'List languages',
  description:
    'The languages with an installed cartridge: code, names, Guthrie zone, what the engine can do in each and how large its lexicon is. ' +
    'Filter with `capability` (e.g. syllables). Call get_language_info for the tenses and subjects of one language.',
  input: z.object({ capability: z.enum(capabilities).optional().describe('Only languages with this capability.') }).strict(),
  output: z.object({
    count: z.number().int(),
    languages: z.array(
      z.object({
        iso: z.string(),
        name: z.string(),
        endonym: z.string().nullable(),
        guthrie: z.string().nullable(),
        foundational: z.boolean(),
        capabilities: z.array(z.string()),
        lexicon_size: z.number().int(),
        tenses: z.number().int(),
      }),
    ),
  }),
  generative: false,
  handler: ({ capability }, { services }) => {
    const languages = services.morphology
      .languages()
      .filter((l) => !capability || l.capabilities.includes(capability))
      .map((l) => ({ iso: l.iso, name: l.name, endonym: l.endonym, guthrie: l.guthrie, foundational: l.foundational, capabilities: l.capabilities, lexicon_size: l.lexicon_size, tenses: l.tenses.length }));
    return ok({ count: languages.length, languages });
  },
  summary: (r) => `${r.count} languages: ${r.languages.map((l) => `${l.iso} (${l.name})`).join(', ')}`,
});
