/** GET /numerals: a whole number 0..10^12 in words, with noun-class agreement (linguistic API, metered). */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { spellInputSchema, spellResultSchema } from '../../numerals/service.js';
import type { Services } from '../../services.js';
import { meteredProblems, meteredRoute } from '../auth.js';
import { envelopeSchema, whole } from '../envelope.js';
import { valueOr } from '../morphology-problem.js';
import { problemResponses } from '../problem.js';

export async function numeralRoutes(app: FastifyInstance, opts: { services: Services }): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/numerals',
    {
      schema: {
        ...meteredRoute,
        summary: 'A number in words',
        description:
          'A whole number from 0 to 10^12 in words, built by the language’s numeral grammar. With `class`, the digits that agree take the concord of that noun class ' +
          '(the allowed classes are listed in every answer and in the 400 for an unknown class). A language without a numeral grammar is a 404.',
        querystring: spellInputSchema,
        response: { 200: envelopeSchema(spellResultSchema), ...meteredProblems, ...problemResponses('language_not_found') },
      },
    },
    async (request) => whole([valueOr(opts.services.numerals.spell(request.query), 'query')]),
  );
}
