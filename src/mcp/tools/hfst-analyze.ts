/** hfst_analyze: analyses of words with an HFST analyser of the models folder (HFST, read-only). */
import { hfstLookupInputSchema, hfstLookupOutputSchema } from '../../hfst/service.js';
import { defineTool } from '../tool.js';
import { hfstLookup, lookupInputsSize } from './hfst-common.js';

export const hfstAnalyze = defineTool({
  name: 'hfst_analyze',
  group: 'HFST',
  title: 'Analyse words with an HFST transducer',
  description:
    'Look words up in an HFST analyser: give `inputs` (words) and either `model` (a name from hfst_list_models) or `language` (the first analyser of that language). ' +
    "Each input comes back with its analyses in the model's tag convention (see the model's `tag_convention`), best first with their weights for weighted models; " +
    'an empty `results` means the model has no path for the word, `known_symbols: false` that the word has characters the model does not read. ' +
    'Optional: `n_best`, `beam`, `unique` (default true).',
  input: hfstLookupInputSchema,
  output: hfstLookupOutputSchema,
  generative: false,
  batchSize: lookupInputsSize,
  handler: (args, context) => hfstLookup(args, context, 'analyse'),
  summary: (r) =>
    `${r.model}: ${r.items
      .map((i) => `${i.input} → ${i.results.map((x) => x.output).join(' | ') || '?'}`)
      .slice(0, 5)
      .join('; ')}`,
});
