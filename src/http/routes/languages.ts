/** GET /languages: the installed language cartridges (linguistic API, metered). */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Services } from '../../services.js';
import { envelopeSchema, paginate, pagingQuery } from '../envelope.js';
import { meteredProblems } from '../auth.js';

export const languageSchema = z.object({
  iso: z.string().describe('ISO 639-3 code'),
  iso639_1: z.string().nullable(),
  name: z.string(),
  glottocode: z.string().nullable(),
  guthrie: z.string().nullable(),
  foundational: z.boolean().describe('Part of the foundational layer (Evaluation audio).'),
});

export async function languageRoutes(app: FastifyInstance, opts: { services: Services }): Promise<void> {
  const languages = opts.services.cartridges.map((c) => ({
    iso: c.iso639_3,
    iso639_1: c.iso639_1 ?? null,
    name: c.name,
    glottocode: c.glottocode ?? null,
    guthrie: c.guthrie ?? null,
    foundational: c.foundational,
  }));
  app.withTypeProvider<ZodTypeProvider>().get(
    '/languages',
    {
      schema: {
        tags: ['linguistic'],
        summary: 'Languages with an installed cartridge',
        security: [{ bearerAuth: [] }],
        querystring: z.object(pagingQuery).strict(),
        response: { 200: envelopeSchema(languageSchema), ...meteredProblems },
      },
    },
    async (request) => paginate(languages, request.query),
  );
}
