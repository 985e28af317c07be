/** hfst_list_models: the HFST transducers this service can look words up in (HFST, read-only). */
import { z } from 'zod';
import { hfstListModelsInputSchema, hfstModelSchema } from '../../hfst/service.js';
import { defineTool, success } from '../tool.js';

export const hfstListModels = defineTool({
  name: 'hfst_list_models',
  group: 'HFST',
  title: 'List HFST models',
  description:
    "The HFST transducers hfst_analyze and hfst_generate can use: Lugha's own (built from the language cartridges, `origin: lugha`) and those the operator installed " +
    '(`origin: third_party`), each with its name, language, direction (analyse or generate), tag convention, licence, source and the tags it uses. ' +
    'Filter with `language` and `direction`. An empty list means no model is installed on this service.',
  input: hfstListModelsInputSchema,
  output: z.object({ count: z.number().int(), models: z.array(hfstModelSchema) }),
  generative: false,
  handler: (args, { services }) => {
    const models = services.hfst.listModels(args);
    return success({ count: models.length, models });
  },
  summary: (r) => `${r.count} models${r.models.length ? `: ${r.models.map((m) => `${m.name} (${m.language}, ${m.direction})`).slice(0, 10).join(', ')}` : ''}`,
});
