/**
 * GET /languages: every Narrow Bantu language Glottolog knows, each flagged with whether
 * a cartridge is installed and what it covers; filterable and paged (linguistic API, metered).
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { COVERAGE_LEVELS } from '../../coverage/capabilities.js';
import { filterCatalogue } from '../../coverage/catalogue.js';
import { languageSummarySchema } from '../../morphology-api.js';
import type { Services } from '../../services.js';
import { meteredProblems, meteredRoute } from '../auth.js';
import { AnswerCache, keepFor, keptBody } from '../answer-cache.js';
import type { EarlyAnswers } from '../early-answer.js';
import { envelopeSchema, paginate, pagingQuery } from '../envelope.js';
import { sendStatic, StaticBodies } from '../static-response.js';

const levelSchema = z.enum(COVERAGE_LEVELS);

export const languageEntrySchema = languageSummarySchema.extend({
  iso: z.string().nullable().describe('ISO 639-3 code; null for a Glottolog languoid without one.'),
  glottolog_name: z.string().nullable().describe("Glottolog's name where it differs from `name`."),
  guthrie_group: z.string().nullable().describe('Guthrie group from the Glottolog classification.'),
  countries: z.array(z.string()).describe('ISO 3166-1 alpha-2 codes (Glottolog).'),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  has_cartridge: z.boolean().describe('A language cartridge is installed.'),
  coverage: z
    .object({ level: levelSchema, capabilities: z.record(z.string(), levelSchema) })
    .nullable()
    .describe('Computed coverage per capability (none, declared, partial, complete); see /api/os/cartridges for the evidence.'),
});

const booleanQuery = z.enum(['true', 'false']).transform((v) => v === 'true');

/** Raw query strings kept per registration of the route, each naming the key of the page the route gave for it. */
export const LANGUAGE_QUERIES_KEPT = 512;

export async function languageRoutes(app: FastifyInstance, opts: { services: Services; early?: EarlyAnswers }): Promise<void> {
  const { services } = opts;
  const capabilityIds = services.coverage.evaluators.map((e) => e.id) as [string, ...string[]];
  const pages = new StaticBodies();
  // Each raw query string the route answered (validated) names its page's key in `pages`: that page
  // is sent again before Fastify when the request needs nothing else (src/http/early-answer.ts).
  // Only `pages` holds bodies, so memory stays bounded by its size; a page it dropped goes to Fastify.
  const answered = new AnswerCache<string>(LANGUAGE_QUERIES_KEPT);
  opts.early?.servePages(`${app.prefix}/languages`, (url) => {
    const key = keptBody(answered, url);
    return key === undefined ? undefined : pages.peek(key);
  });
  app.withTypeProvider<ZodTypeProvider>().get(
    '/languages',
    {
      schema: {
        ...meteredRoute,
        summary: 'Narrow Bantu languages, with the installed cartridges and what they cover',
        description:
          'Every Narrow Bantu language of Glottolog 5.1 (plus installed cartridges Glottolog lists under no ISO code of their own), ' +
          'sorted by ISO code. Installed cartridges carry their capabilities, tenses, subjects, lexicon size, golden-test coverage and computed coverage level per capability.',
        querystring: z
          .object({
            ...pagingQuery,
            has_cartridge: booleanQuery.optional().describe('true: only languages with a cartridge; false: only those without.'),
            capability: z.enum(capabilityIds).optional().describe('Only cartridges whose coverage of this capability is at least `min_level`.'),
            min_level: levelSchema.optional().describe('Least coverage level (default declared): of `capability`, or of the cartridge overall.'),
            q: z.string().min(1).max(100).optional().describe('Case-insensitive part of the name, endonym, ISO code or glottocode.'),
            country: z
              .string()
              .regex(/^[A-Za-z]{2}$/)
              .optional()
              .describe('ISO 3166-1 alpha-2 country code, e.g. TZ.'),
            guthrie: z
              .string()
              .regex(/^[A-Za-z]{1,2}(\.?\d{1,3}[a-z]?)?$/)
              .optional()
              .describe('Guthrie zone (S), group (S.40) or code (S.41).'),
          })
          .strict(),
        response: { 200: envelopeSchema(languageEntrySchema), ...meteredProblems },
      },
    },
    async (request, reply) => {
      const { page, per_page, ...filter } = request.query;
      // Cartridges, coverage and the Glottolog table do not change while the process runs: the
      // catalogue is built once (services.catalogue), and each distinct page is serialised once and sent with an ETag.
      const key = JSON.stringify(request.query);
      const entry = pages.get(key, () => {
        return String(reply.serialize(paginate(filterCatalogue(services.catalogue(), filter), { page, per_page })));
      });
      keepFor(answered, request.url, key);
      return sendStatic(request, reply, entry);
    },
  );
}
