/** get_language_info: one language's cartridge summary (Data Access, read-only). */
import { ok } from '../../result.js';
import { z } from 'zod';
import { languageSummarySchema } from '../../morphology-api.js';
import { defineTool } from '../tool.js';
import { engineFor, languageArgument } from './common.js';

export const getLanguageInfo = defineTool({
  name: 'get_language_info',
  group: 'Data Access',
  title: 'Language information',
  description:
    'Everything the engine knows about one language: names and codes (ISO 639-3/639-1, Glottocode, Guthrie), capabilities, the tense ids with their labels ' +
    'and moods (use them as `tense` in conjugate_verb), the subjects and noun classes accepted as subject/object, word classes, lexicon size, ' +
    'golden-test coverage and the sources of the cartridge.',
  input: z.object({ language: languageArgument }).strict(),
  output: languageSummarySchema,
  generative: false,
  handler: ({ language }, { services }) => {
    const engine = engineFor(services.morphology, language);
    return engine.ok ? ok(engine.value.summary()) : engine;
  },
  summary: (r) => `${r.name} (${r.iso}): ${r.capabilities.join(', ')}; ${r.tenses.length} tenses, lexicon of ${r.lexicon_size}`,
});
