/**
 * POST /batch-generate: many conjugations and/or whole paradigms in one request
 * (linguistic API, metered as one request). The size in forms is checked against
 * the tier and a hard cap before anything is generated; each item succeeds or fails on its own.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { MAX_BATCH_FORMS } from '../../access/plans.js';
import { planBatch, rawBatchSize, runBatchInSlices } from '../../batch-generation.js';
import { batchItemResultSchema, batchRequestSchema } from '../../morphology-api.js';
import type { Services } from '../../services.js';
import { assertBatchSize, meteredProblems, meteredRoute, principalOf } from '../auth.js';
import { envelopeSchema, whole } from '../envelope.js';
import { requireJsonBody } from '../json-only.js';
import { valueOr } from '../morphology-problem.js';
import { problemResponses } from '../problem.js';
import { bodyLimitOf } from './body-limits.js';

export async function batchGenerateRoutes(app: FastifyInstance, opts: { services: Services }): Promise<void> {
  const { morphology } = opts.services;
  app.withTypeProvider<ZodTypeProvider>().post(
    '/batch-generate',
    {
      bodyLimit: bodyLimitOf('batchGenerate', opts.services.config.bodyLimit),
      schema: {
        ...meteredRoute,
        summary: 'Generate many forms or whole paradigms',
        description:
          '`items` (conjugations) and/or `paradigm` (roots × tenses × polarity × subjects). Results come in order: the items, then the paradigm. ' +
          `The size is the number of forms; over the tier's batch size, or over ${MAX_BATCH_FORMS} for any tier, the answer is 413 batch_too_large. ` +
          'The size is checked on the raw body, before any item is validated. A failed item is reported in its place (`ok: false` with the parameter to fix); the other items are still generated.',
        body: batchRequestSchema,
        response: {
          200: envelopeSchema(batchItemResultSchema),
          ...meteredProblems,
          ...problemResponses('invalid_json', 'language_not_found', 'batch_too_large', 'payload_too_large', 'unsupported_media_type'),
        },
      },
      // Refused by its array lengths before validation: a huge batch costs no per-item work.
      preValidation: [requireJsonBody, async (request) => assertBatchSize(principalOf(request), rawBatchSize(request.body), 'forms')],
    },
    async (request) => {
      const plan = valueOr(planBatch(morphology, request.body), 'body');
      assertBatchSize(principalOf(request), plan.size, 'forms');
      return whole(await runBatchInSlices(morphology, plan));
    },
  );
}
