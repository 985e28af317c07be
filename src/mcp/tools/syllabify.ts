/** syllabify: a word split into syllables by the language's phonology (Analysis, read-only). */
import { z } from 'zod';
import { defineTool, failure, fromService } from '../tool.js';
import { engineFor, languageArgument, languagesWith, wordArgument } from './common.js';

export const syllabifyTool = defineTool({
  name: 'syllabify',
  group: 'Analysis',
  title: 'Syllabify a word',
  description:
    "Split a word into syllables using the language's phonology (onsets, nuclei, syllabic nasals, codas). Only languages whose cartridge has a phonology " +
    "can be syllabified; get_language_info lists 'syllables' among their capabilities.",
  input: z
    .object({
      language: languageArgument,
      word: wordArgument('One word in the standard orthography, e.g. ninapenda.'),
    })
    .strict(),
  output: z.object({ language: z.string(), word: z.string(), syllables: z.array(z.string()), count: z.number().int() }),
  generative: false,
  handler: ({ language, word }, { services }) => {
    const engine = engineFor(services.morphology, language);
    if (!engine.ok) return engine;
    if (!engine.value.phonology) {
      return failure('invalid_parameter', `${engine.value.cartridge.metadata.name} has no phonology yet, so it cannot be syllabified; use a language listed in \`allowed\``, {
        parameter: 'language',
        allowed: languagesWith(services.morphology, 'syllables'),
      });
    }
    return fromService(services.morphology.syllabify(engine.value.iso, word.trim()), (syllables) => ({ language: engine.value.iso, word: word.trim(), syllables, count: syllables.length }));
  },
  summary: (r) => `${r.word} = ${r.syllables.join('.')}`,
});
