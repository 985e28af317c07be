/** GET /analyze: every analysis of a surface form, most plausible first (linguistic API, metered). */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { languageCode, rankedAnalysisSchema } from '../../morphology-api.js';
import type { Services } from '../../services.js';
import { meteredProblems, meteredRoute } from '../auth.js';
import { wordText } from '../../word-text.js';
import { envelopeSchema, paginate, pagingQuery } from '../envelope.js';
import { valueOr } from '../morphology-problem.js';
import { problemResponses } from '../problem.js';

export const analyzeQuery = z
  .object({
    form: wordText(100).describe('The word to analyse, e.g. hawatakipenda (a periphrastic form is two words).'),
    language: languageCode.optional().describe('Language code; omit to analyse in every installed language.'),
    ...pagingQuery,
  })
  .strict();

export async function analyzeRoutes(app: FastifyInstance, opts: { services: Services }): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/analyze',
    {
      schema: {
        ...meteredRoute,
        summary: 'Analyse a form',
        description:
          'Every analysis of a surface form (lemma, tense, polarity, subject, object, slots, gloss), roots outside the lexicon included, ' +
          'most plausible first, each with its probability, part of speech, word class, morphemes and whether the stem is a guess. ' +
          'An empty list means no analysis. Running text goes to POST /analyze-text.',
        querystring: analyzeQuery,
        response: { 200: envelopeSchema(rankedAnalysisSchema), ...meteredProblems, ...problemResponses('language_not_found') },
      },
    },
    async (request) => {
      const { form, language, ...paging } = request.query;
      await opts.services.text.prepare(language);
      return paginate(valueOr(await opts.services.text.analyzeFormInSlices(form, language), 'query'), paging);
    },
  );
}
