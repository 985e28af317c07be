/** GET /languages: every installed language cartridge with what the engine can do in it (linguistic API, metered). */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { languageSummarySchema } from '../../morphology-api.js';
import type { Services } from '../../services.js';
import { meteredProblems, meteredRoute } from '../auth.js';
import { envelopeSchema, paginate, pagingQuery } from '../envelope.js';

export async function languageRoutes(app: FastifyInstance, opts: { services: Services }): Promise<void> {
  const { morphology } = opts.services;
  app.withTypeProvider<ZodTypeProvider>().get(
    '/languages',
    {
      schema: {
        ...meteredRoute,
        summary: 'Languages with an installed cartridge',
        description: 'Each language with its capabilities, tenses, subjects, lexicon size and golden-test coverage, sorted by code.',
        querystring: z.object(pagingQuery).strict(),
        response: { 200: envelopeSchema(languageSummarySchema), ...meteredProblems },
      },
    },
    async (request) => paginate(morphology.languages(), request.query),
  );
}
