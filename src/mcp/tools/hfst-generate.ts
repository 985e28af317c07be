/** hfst_generate: surface forms from analysis strings with an HFST generator (HFST, generative). */
import { hfstLookupInputSchema, hfstLookupOutputSchema } from '../../hfst/service.js';
import { defineTool } from '../tool.js';
import { hfstLookup, lookupInputsSize } from './hfst-common.js';

export const hfstGenerate = defineTool({
  name: 'hfst_generate',
  group: 'HFST',
  title: 'Generate forms with an HFST transducer',
  description:
    "Generate surface forms with an HFST generator: give `inputs` (analysis strings in the model's tag convention, e.g. lemma plus tags as hfst_analyze returns them) " +
    'and either `model` (a generator name from hfst_list_models) or `language` (the first generator of that language). Each input comes back with its surface forms, ' +
    'best first for weighted models; empty `results` means the model generates nothing for that analysis. Optional: `n_best`, `beam`, `unique` (default true).',
  input: hfstLookupInputSchema,
  output: hfstLookupOutputSchema,
  generative: true,
  batchSize: lookupInputsSize,
  handler: (args, context) => hfstLookup(args, context, 'generate'),
  summary: (r) =>
    `${r.model}: ${r.items
      .map((i) => `${i.input} → ${i.results.map((x) => x.output).join(' | ') || '?'}`)
      .slice(0, 5)
      .join('; ')}`,
});
