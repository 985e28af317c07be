/** get_syllable_inventory: the syllables a language's phonology allows (Data Access, read-only). */
import { fail } from '../../result.js';
import { syllableInventorySchema } from '../../morphology-api.js';
import { z } from 'zod';
import { defineTool, fromService } from '../tool.js';
import { engineFor, languageArgument, languagesWith } from './common.js';

export const getSyllableInventory = defineTool({
  name: 'get_syllable_inventory',
  group: 'Data Access',
  title: 'Syllable inventory',
  description:
    "The syllable inventory implied by a language's phonology : onsets by kind with IPA, nuclei, syllabic nasals, " +
    'codas, syllable types with counts and examples, and the PHOIBLE inventory and references it rests on.',
  input: z.object({ language: languageArgument }).strict(),
  output: syllableInventorySchema,
  generative: false,
  handler: ({ language }, { services }) => {
    const engine = engineFor(services.morphology, language);
    if (!engine.ok) return engine;
    if (!engine.value.phonology) {
      return fail('invalid_parameter', `${engine.value.cartridge.metadata.name} has no phonology yet; syllable inventories exist for the languages in \`allowed\``, {
        parameter: 'language',
        allowed: languagesWith(services.morphology, 'syllables'),
      });
    }
    return fromService(services.morphology.syllables(engine.value.iso));
  },
  summary: (r) => `${r.language}: ${r.counts.onsets} onsets, ${r.counts.nuclei} nuclei, ${r.counts.syllable_types} syllable types`,
});
