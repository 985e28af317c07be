/** GET /syllables/{lang}: the syllable inventory implied by a language's phonology (linguistic API, metered). */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { languageCode, syllableInventorySchema } from '../../morphology-api.js';
import type { Services } from '../../services.js';
import { meteredProblems, meteredRoute } from '../auth.js';
import { envelopeSchema, whole } from '../envelope.js';
import { valueOr } from '../morphology-problem.js';
import { problemResponses } from '../problem.js';

export async function syllableRoutes(app: FastifyInstance, opts: { services: Services }): Promise<void> {
  const { morphology } = opts.services;
  app.withTypeProvider<ZodTypeProvider>().get(
    '/syllables/:lang',
    {
      schema: {
        ...meteredRoute,
        summary: 'Syllable inventory of a language',
        description: 'Onsets by kind, nuclei, syllabic nasals, codas and syllable types with counts and examples, with their sources.',
        params: z.object({ lang: languageCode.describe('Language code, e.g. swh.') }),
        querystring: z.object({}).strict(),
        response: { 200: envelopeSchema(syllableInventorySchema), ...meteredProblems, ...problemResponses('language_not_found') },
      },
    },
    async (request) => whole([valueOr(morphology.syllables(request.params.lang), 'path')]),
  );
}
