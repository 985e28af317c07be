/** batch_conjugate: many conjugations and/or a paradigm in one call (Conjugation, generative). */
import { fail, ok } from '../../result.js';
import { z } from 'zod';
import { MAX_BATCH_FORMS, batchRefusal } from '../../access/plans.js';
import { planBatch, rawBatchSize, runBatchInSlices } from '../../batch-generation.js';
import { batchItemResultSchema, paradigmSchema } from '../../morphology-api.js';
import { conjugationArguments, languageArgument } from './common.js';
import { defineTool, fromService } from '../tool.js';
import { EXAMPLE_LANGUAGE } from '../argument-docs.js';

export const batchConjugate = defineTool({
  name: 'batch_conjugate',
  group: 'Conjugation',
  title: 'Conjugate many verb forms',
  description:
    'Generate many verb forms in one call. Give `language` and `items` (each with the arguments of ' +
    'conjugate_verb except language) and/or `paradigm` ({roots, tenses?, subjects?, polarity?}: the cross product, subjects varying fastest). ' +
    "The number of forms must fit the key's tier batch size (Academic 50, Startup 500). Results come in order; a bad item is reported in its place " +
    'with the parameter to fix and the other items are still generated. ' +
    'Example: {"language":"' +
    EXAMPLE_LANGUAGE +
    '","items":[{"root":"penda","subject":"1sg","tense":"past"}],"paradigm":{"roots":["soma"],"tenses":["future"]}}.',
  input: z
    .object({
      language: languageArgument,
      items: z
        .array(z.object(conjugationArguments).strict())
        .max(MAX_BATCH_FORMS)
        .optional()
        .describe('Conjugations, each with the arguments of conjugate_verb except `language`. Example: [{"root":"penda","subject":"3pl","tense":"future"}]'),
      paradigm: paradigmSchema.optional().describe('The cross product roots × tenses × polarity × subjects (subjects vary fastest). Example: {"roots":["penda"],"tenses":["past"]}'),
    })
    .strict()
    .refine((body) => (body.items?.length ?? 0) > 0 || body.paradigm !== undefined, { message: 'give items, a paradigm, or both', path: ['items'] }),
  output: z.object({
    language: z.string(),
    size: z.number().int().describe('Number of forms asked for.'),
    failed: z.number().int().describe('Items that failed (ok: false).'),
    results: z.array(batchItemResultSchema),
  }),
  generative: true,
  batchSize: (args) => ({ size: rawBatchSize(args), unit: 'forms' }),
  handler: async (args, { services, principal }) => {
    const planned = fromService(planBatch(services.morphology, args));
    if (!planned.ok) return planned;
    const plan = planned.value;
    const tooLarge = batchRefusal(principal.tier, principal.limits.batchSize, plan.size);
    if (tooLarge) return fail('batch_too_large', `${tooLarge.message}: split the items or narrow the paradigm's tenses/subjects`, { parameter: 'items' });
    const results = await runBatchInSlices(services.morphology, plan);
    return ok({ language: plan.language, size: plan.size, failed: results.filter((r) => !r.ok).length, results });
  },
  summary: (r) => `${r.size} forms of ${r.language}, ${r.failed} failed`,
});
