/** GET /tonal-pairs: lexical items identical in segments and different in tone, from sourced tone-marked data (linguistic API, metered). */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Services } from '../../services.js';
import { tonalPairSchema, tonalPairsQuerySchema } from '../../tone/api.js';
import { meteredProblems, meteredRoute } from '../auth.js';
import { envelopeSchema, paginate, pagingQuery } from '../envelope.js';
import { valueOr } from '../morphology-problem.js';
import { problemResponses } from '../problem.js';

export async function tonalPairRoutes(app: FastifyInstance, opts: { services: Services }): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/tonal-pairs',
    {
      schema: {
        ...meteredRoute,
        summary: 'Tonal pairs',
        description:
          'Words of one language (and variety) written with the same segments but different tones, each with its gloss and source: ' +
          "computed once (while the service warms up, or on the first request that needs them) from the Bantu Basic Vocabulary Database, Chan's tone-marked numerals and the tone-marked " +
          'entries of the cartridges. Sorted by language, variety and segments. A known language without tone-marked data is a 400 listing the languages that have some.',
        querystring: z.object({ ...tonalPairsQuerySchema.shape, ...pagingQuery }).strict(),
        response: { 200: envelopeSchema(tonalPairSchema), ...meteredProblems, ...problemResponses('language_not_found') },
      },
    },
    async (request) => {
      const { language, ...paging } = request.query;
      // The tone data read in slices if the warm-up has not read it yet, not at once on this request.
      await opts.services.tone.loadInBackground();
      return paginate(valueOr(opts.services.tone.tonalPairs({ language }), 'query'), paging);
    },
  );
}
