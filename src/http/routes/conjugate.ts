/** GET /conjugate: one verb form with its slots, tonal analysis and English gloss (linguistic API, metered). */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { conjugationParameters, conjugationResultSchema, languageCode } from '../../morphology-api.js';
import type { Services } from '../../services.js';
import type { EarlyAnswers } from '../early-answer.js';
import { AnswerCache, answeredFrom, sendKept } from '../answer-cache.js';
import { meteredProblems, meteredRoute } from '../auth.js';
import { envelopeSchema, whole } from '../envelope.js';
import { valueOr } from '../morphology-problem.js';
import { problemResponses } from '../problem.js';

export const conjugateQuery = z.object({ language: languageCode.describe('Language code: swh (or sw, swa).'), ...conjugationParameters }).strict();

/**
 * Conjugations kept, by query string, per registration of the route: a conjugation depends only
 * on its query and the cartridges, loaded once at start. About 1 KB each.
 */
export const CONJUGATION_CACHE_ENTRIES = 2048;

export async function conjugateRoutes(app: FastifyInstance, opts: { services: Services; early?: EarlyAnswers }): Promise<void> {
  const { morphology } = opts.services;
  const answers = new AnswerCache(CONJUGATION_CACHE_ENTRIES);
  // The same kept answers, sent before Fastify when the request needs nothing else (src/http/early-answer.ts).
  opts.early?.serve(`${app.prefix}/conjugate`, answers);
  app.withTypeProvider<ZodTypeProvider>().get(
    '/conjugate',
    {
      onRequest: answeredFrom(answers),
      schema: {
        ...meteredRoute,
        summary: 'Conjugate a verb',
        description:
          'One form of a verb: the surface form, every filled slot of the verb template, the tonal analysis and an English gloss. ' +
          'Give tense/subject/object/polarity, or a UniMorph bundle in `features`. Unknown values are a 400 naming the parameter and listing the allowed values.',
        querystring: conjugateQuery,
        response: { 200: envelopeSchema(conjugationResultSchema), ...meteredProblems, ...problemResponses('language_not_found') },
      },
    },
    async (request, reply) => sendKept(answers, request, reply, whole([valueOr(morphology.conjugate(request.query), 'query')])),
  );
}
