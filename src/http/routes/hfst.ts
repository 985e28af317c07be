/**
 * HFST over REST (linguistic API, metered): the models of the models folder, analysis and
 * generation through them, and downloads of Lugha's own transducers. Adapters over
 * HfstService (src/hfst/service.ts).
 */
import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { LughaError } from '../../errors.js';
import { hfstListModelsInputSchema, hfstLookupInputSchema, hfstLookupItemSchema, hfstModelSchema, type HfstFailure, type HfstLookupOutput } from '../../hfst/service.js';
import type { Result } from '../../result.js';
import type { Services } from '../../services.js';
import { assertBatchSize, meteredProblems, meteredRoute, principalOf } from '../auth.js';
import { requireJsonBody } from '../json-only.js';
import { envelopeSchema, paginate, pagingQuery, whole } from '../envelope.js';
import { parameterProblem, problemResponses } from '../problem.js';
import { bodyLimitOf } from './body-limits.js';

const lookupItem = hfstLookupItemSchema.extend({ model: z.string().describe('The model asked (when it had no analysis and its fallback answered, `fallback` names the fallback).') });

/** The value of a service call, or the HTTP error its failure names. */
function valueOf(outcome: Result<HfstLookupOutput, HfstFailure>): HfstLookupOutput {
  if (outcome.ok) return outcome.value;
  if (outcome.code === 'model_not_found') throw new LughaError('model_not_found', outcome.message);
  if (outcome.code === 'model_unreadable') throw new LughaError('model_unreadable', outcome.message);
  // The detail is the message alone (failureError would prefix "model: "), so the entry is mapped here.
  throw new LughaError('invalid_parameter', outcome.message, { errors: [parameterProblem('body', { parameter: 'model', message: outcome.message })] });
}

export async function hfstRoutes(app: FastifyInstance, opts: { services: Services }): Promise<void> {
  const { services } = opts;
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get(
    '/hfst/models',
    {
      schema: {
        ...meteredRoute,
        summary: 'List HFST models',
        description:
          "Every usable transducer of the models folder: Lugha's own (built from the cartridges, `origin: lugha`, downloadable) and those the operator installed " +
          '(`origin: third_party`), with language, direction, tag convention, licence and source.',
        querystring: hfstListModelsInputSchema.extend(pagingQuery),
        response: { 200: envelopeSchema(hfstModelSchema), ...meteredProblems },
      },
    },
    async (request) => {
      const { page, per_page, ...filter } = request.query;
      return paginate(services.hfst.listModels(filter), { page, per_page });
    },
  );

  for (const direction of ['analyze', 'generate'] as const) {
    typed.post(
      `/hfst/${direction}`,
      {
        bodyLimit: bodyLimitOf('hfstLookup', services.config.bodyLimit),
        schema: {
          ...meteredRoute,
          summary: direction === 'analyze' ? 'Analyse words with an HFST analyser' : 'Generate forms with an HFST generator',
          description:
            (direction === 'analyze'
              ? 'Looks each word up in an analyser (`model`, or the first analyser of `language`). '
              : "Looks each analysis string up in a generator (`model`, or the first generator of `language`), in the model's tag convention. ") +
            "Results of weighted models come best first. One request counts once; `inputs` is limited by the tier's batch size.",
          body: hfstLookupInputSchema,
          response: {
            200: envelopeSchema(lookupItem),
            ...meteredProblems,
            ...problemResponses('invalid_json', 'model_not_found', 'batch_too_large', 'payload_too_large', 'unsupported_media_type', 'model_unreadable'),
          },
        },
        // Refused by the length of `inputs` before validation: an oversized list costs no per-item work.
        preValidation: [
          requireJsonBody,
          async (request) => {
            const inputs = (request.body as { inputs?: unknown } | null)?.inputs;
            assertBatchSize(principalOf(request), Array.isArray(inputs) ? inputs.length : 0, 'inputs');
          },
        ],
      },
      async (request) => {
        assertBatchSize(principalOf(request), request.body.inputs.length, 'inputs');
        const out = valueOf(await (direction === 'analyze' ? services.hfst.analyze(request.body) : services.hfst.generate(request.body)));
        return whole(out.items.map((item) => ({ ...item, model: out.model })));
      },
    );
  }

  typed.get(
    '/hfst/models/:name/download',
    {
      schema: {
        ...meteredRoute,
        summary: "Download one of Lugha's transducers",
        description:
          'Answers 200 with `application/octet-stream`: the `.hfstol` file of a model built from a Lugha cartridge (`origin: lugha`), for use with hfst-optimized-lookup or any HFST runtime. ' +
          'Third-party models are not offered: fetch them from their source under their licence.',
        params: z.object({ name: z.string().min(1).max(100) }),
        response: { ...meteredProblems, ...problemResponses('model_not_found') },
      },
    },
    async (request, reply) => {
      const entry = services.hfst.model(request.params.name);
      if (!entry) throw new LughaError('model_not_found', `no model "${request.params.name}"`);
      if (entry.manifest.origin !== 'lugha') {
        throw new LughaError('model_not_found', `"${entry.name}" is a third-party model; only Lugha's own transducers can be downloaded (see its source: ${entry.manifest.source})`);
      }
      const bytes = await readFile(entry.path);
      return reply.type('application/octet-stream').header('Content-Disposition', `attachment; filename="${entry.name}.hfstol"`).send(bytes);
    },
  );
}
