/** get_minimal_pairs: pairs of words one tone or one segment apart (Tonal, read-only). */
import { z } from 'zod';
import { minimalPairSchema, minimalPairsInputSchema } from '../../tone/api.js';
import { defineTool, fromService } from '../tool.js';

export const getMinimalPairs = defineTool({
  name: 'get_minimal_pairs',
  group: 'Tonal',
  title: 'Minimal pairs',
  description:
    'Minimal pairs from sourced tone-marked data: `kind: "tone"` gives words with the same segments where exactly one vowel differs in tone, `kind: "segment"` ' +
    'words with the same tones where exactly one segment differs (default `any`). Filter by `language` (omit for all), `contains` (text either form contains, ' +
    'tone marks ignored) and `gloss` (an English word either gloss contains); `limit` 1..500 (default 50). Each pair says what differs ("vowel 2: H/L") ' +
    'and gives both items with gloss and source.',
  input: minimalPairsInputSchema,
  output: z.object({ count: z.number().int(), pairs: z.array(minimalPairSchema) }),
  generative: false,
  handler: async (args, { services }) => {
    await services.tone.loadInBackground();
    return fromService(services.tone.minimalPairs(args), (pairs) => ({ count: pairs.length, pairs }));
  },
  summary: (r) => `${r.count} minimal pairs${r.pairs[0] ? `, e.g. ${r.pairs[0].a.form} / ${r.pairs[0].b.form} (${r.pairs[0].difference})` : ''}`,
});
