/** get_tonal_pairs: words with the same segments and different tones, from sourced tone-marked data (Tonal, read-only). */
import { z } from 'zod';
import { tonalPairSchema, tonalPairsQuerySchema } from '../../tone/api.js';
import { defineTool, fromService } from '../tool.js';

export const getTonalPairs = defineTool({
  name: 'get_tonal_pairs',
  group: 'Tonal',
  title: 'Tonal pairs',
  description:
    'Words of one language (and variety) written with the same segments but different tones, each item with its tone-marked form, tone pattern (H, L, F, R), ' +
    "English gloss and source (the Bantu Basic Vocabulary Database, Chan's tone-marked numerals, the cartridges' tone data). Give `language` (swh, zul, ...) or " +
    'omit it for every language with tone-marked data; `limit` caps the pairs returned (default 100), `total` says how many there are. ' +
    'A known language without tone-marked data is refused with the languages that have some.',
  input: tonalPairsQuerySchema.extend({
    limit: z.number().int().min(1).max(1000).default(100).describe('At most this many pairs (1..1000, default 100).'),
  }),
  output: z.object({
    language: z.string().nullable().describe('The language asked for, or null for every language.'),
    total: z.number().int().describe('Pairs that match, before `limit`.'),
    pairs: z.array(tonalPairSchema),
  }),
  generative: false,
  handler: async ({ language, limit }, { services }) => {
    await services.tone.loadInBackground();
    return fromService(services.tone.tonalPairs({ language }), (pairs) => ({
      language: language === undefined ? null : (services.languageCodes.normalise(language) ?? language.trim().toLowerCase()),
      total: pairs.length,
      pairs: pairs.slice(0, limit),
    }));
  },
  summary: (r) => `${r.total} tonal pairs${r.language ? ` in ${r.language}` : ''}${r.pairs.length < r.total ? ` (first ${r.pairs.length})` : ''}`,
});
