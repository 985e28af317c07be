/** hfst_list_models: the HFST transducers this service can look words up in (HFST, read-only). */
import { ok } from '../../result.js';
import { z } from 'zod';
import { hfstListModelsInputSchema, hfstModelSchema } from '../../hfst/service.js';
import { defineTool } from '../tool.js';
import { EXAMPLE_LANGUAGE } from '../argument-docs.js';

/** Tags listed per model unless `max_tags` asks for more: a model has up to 500, which a model rarely needs to read. */
const DEFAULT_TAGS = 25;

export const hfstListModels = defineTool({
  name: 'hfst_list_models',
  group: 'HFST',
  title: 'List HFST models',
  description:
    "The HFST transducers hfst_analyze and hfst_generate can use: Lugha's own (built from the language cartridges, `origin: lugha`) and those the operator installed " +
    '(`origin: third_party`), each with its name, language, direction (analyse or generate), tag convention, licence, source and the first `max_tags` tags it uses ' +
    `(default ${DEFAULT_TAGS}; \`tags_total\` says how many it has). Filter with \`language\` and \`direction\`. An empty list means no model is installed on this service. ` +
    'Example: {"language":"' +
    EXAMPLE_LANGUAGE +
    '","direction":"generate","max_tags":100}.',
  input: hfstListModelsInputSchema
    .extend({
      language: hfstListModelsInputSchema.shape.language.describe('Only models of this language (ISO 639-3 or 639-1). Example: swh'),
      direction: hfstListModelsInputSchema.shape.direction.describe('Only analysers (`analyse`: word -> analyses) or generators (`generate`: analysis -> word). Example: analyse'),
      max_tags: z.number().int().min(0).max(500).optional().describe(`Most tags listed per model (default ${DEFAULT_TAGS}, at most 500). Example: 100`),
    })
    .strict(),
  output: z.object({
    count: z.number().int(),
    models: z.array(hfstModelSchema.extend({ tags_total: z.number().int().describe('Tags the model has; `tags` lists the first `max_tags`.') })),
  }),
  generative: false,
  handler: ({ max_tags = DEFAULT_TAGS, ...filter }, { services }) => {
    const models = services.hfst.listModels(filter).map((m) => ({ ...m, tags: m.tags.slice(0, max_tags), tags_total: m.tags.length }));
    return ok({ count: models.length, models });
  },
  summary: (r) =>
    `${r.count} models${
      r.models.length
        ? `: ${r.models
            .map((m) => `${m.name} (${m.language}, ${m.direction})`)
            .slice(0, 10)
            .join(', ')}`
        : ''
    }`,
});
