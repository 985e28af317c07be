/**
 * The try-it page: the static front end in web/ (served at `/` and under `/web/`),
 * the Narrow Bantu languoids it maps, the demo Evaluation key on a `--demo`
 * install, and `GET /api/v1/me` (also `/v1/me`): the caller's key, tier, offer
 * and quota left, without spending a request.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { offerTerms } from '../../access/plans.js';
import { packageRoot } from '../../config.js';
import { DEMO_KEYS_FILE, type DemoKey } from '../../demo.js';
import { LughaError } from '../../errors.js';
import { readTsv } from '../../language-codes.js';
import type { Services } from '../../services.js';
import { principalOf, protect, setRateLimitHeaders } from '../auth.js';
import { envelopeSchema, whole } from '../envelope.js';
import { problemResponses } from '../problem.js';

/** The folder of the front end's files. */
export const WEB_ROOT = path.join(packageRoot, 'web');

export async function webRoutes(app: FastifyInstance, opts: { services: Services }): Promise<void> {
  await app.register(pageRoutes, { services: opts.services });
  for (const prefix of ['/api/v1', '/v1']) await app.register(meRoutes, { services: opts.services, prefix });
}

async function pageRoutes(app: FastifyInstance, opts: { services: Services }): Promise<void> {
  const { config } = opts.services;
  // One route per file found at start (no wildcard), so unknown paths keep the API's problem+json 404.
  await app.register(fastifyStatic, { root: WEB_ROOT, prefix: '/web/', wildcard: false, index: false, cacheControl: false, decorateReply: true });
  // Revalidated on every load (ETag/Last-Modified), so an upgraded service never runs a stale page.
  app.addHook('onSend', async (_request, reply) => {
    if (!reply.hasHeader('Cache-Control')) reply.header('Cache-Control', 'no-cache');
  });

  app.get('/', { schema: { hide: true } }, async (_request, reply) => reply.type('text/html; charset=utf-8').sendFile('index.html'));

  const languoids = narrowBantuLanguoids();
  app.get('/web/narrow-bantu.json', { schema: { hide: true } }, async () => languoids);
  // Tells the page whether to ask for the demo key, so a plain install logs no failed request.
  app.get('/web/config.json', { schema: { hide: true } }, async () => ({ demo_key: config.demo, audio_base: config.audioBase }));

  if (!config.demo) return;
  // Only with --demo: the Evaluation demo key (never the other tiers' keys), so a visitor can try the page
  // at once. It is the key `lugha serve --demo` prints; it meters 100 requests a day shared by every visitor.
  app.withTypeProvider<ZodTypeProvider>().get(
    '/web/demo-key',
    {
      schema: {
        tags: ['operations'],
        summary: 'The demo Evaluation key (only on a --demo install)',
        description:
          'Served only when the service runs with `--demo`: the Evaluation key that `lugha serve --demo` created, for the try-it page at `/`. ' +
          'No other key is ever served. Without `--demo` this route does not exist (404).',
        response: {
          200: z.object({ key: z.string(), tier: z.string(), offer: z.string(), note: z.string() }),
          ...problemResponses('route_not_found'),
        },
      },
    },
    async (_request, reply) => {
      reply.header('Cache-Control', 'no-store');
      const key = readEvaluationDemoKey(path.join(config.dataDir, DEMO_KEYS_FILE));
      if (!key || !(await opts.services.keys.authenticate(`Bearer ${key.key}`)).ok) {
        throw new LughaError('route_not_found', 'this demo install has no working Evaluation demo key');
      }
      return {
        key: key.key,
        tier: key.tier,
        offer: key.offer,
        note: 'Demo Evaluation key, shared by every visitor of this demo install: 100 requests per UTC day.',
      };
    },
  );
}

/** The Evaluation/evaluation entry of the demo keys file, if there is one. */
function readEvaluationDemoKey(file: string): DemoKey | undefined {
  if (!existsSync(file)) return undefined;
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { keys?: DemoKey[] };
    return parsed.keys?.find((k) => k.tier === 'evaluation' && k.offer === 'evaluation' && typeof k.key === 'string');
  } catch {
    return undefined;
  }
}

/** Glottolog's Narrow Bantu languoids with coordinates, for the coverage map (reference/, CC-BY-4.0). */
function narrowBantuLanguoids() {
  const rows = readTsv(path.join(packageRoot, 'reference', 'glottolog-narrow-bantu.tsv'));
  return {
    source: 'Glottolog 5.1 (glottolog/glottolog-cldf), CC-BY-4.0: Hammarström, Forkel, Haspelmath & Bank. https://glottolog.org',
    languoids: rows
      .filter((r) => r.latitude && r.longitude)
      .map((r) => ({
        glottocode: r.glottocode ?? '',
        name: r.name ?? '',
        iso: r.iso639_3 || null,
        lat: Number(r.latitude),
        lon: Number(r.longitude),
        countries: r.countries ?? '',
        guthrie: r.guthrie_group_from_glottolog_path || null,
      })),
  };
}

const meSchema = z
  .object({
    key_id: z.string().describe('The key id (as `lugha keys list` shows it), not the secret.'),
    tier: z.string(),
    offer: z.string(),
    languages: z.array(z.string()).nullable().describe('Audio languages named by the plan (pilot); null when the offer decides.'),
    audio_languages: z.string().describe('foundational, chosen or all: which languages the offer plays.'),
    sample_capped: z.boolean().describe('Whether clip lists are capped to the fixed sample.'),
    expires_at: z.string().nullable(),
    limits: z.object({
      requests_per_day: z.number().int().nullable().describe('null = unlimited'),
      batch_size: z.number().int().nullable().describe('Forms per batch-generate request; null = unlimited.'),
      mcp: z.string(),
    }),
    quota: z.object({
      limit: z.number().int().nullable(),
      remaining: z.number().int().nullable().describe('Requests left today; null = unlimited.'),
      reset_seconds: z.number().int().describe('Seconds until the count resets at 00:00 UTC.'),
    }),
  })
  .describe('The calling key');

async function meRoutes(scope: FastifyInstance, opts: { services: Services }): Promise<void> {
  const { keys, meter } = opts.services;
  protect(scope, { keys }); // authenticated, not metered: looking at the quota does not spend it
  scope.withTypeProvider<ZodTypeProvider>().get(
    '/me',
    {
      schema: {
        tags: ['linguistic'],
        security: [{ bearerAuth: [] }],
        summary: 'The calling key: tier, offer, limits and quota left (not metered)',
        description: 'Authenticated but not counted against the daily quota. Carries the RateLimit headers of a limited key.',
        response: {
          200: envelopeSchema(meSchema),
          ...problemResponses('key_missing', 'key_malformed', 'key_unknown', 'key_revoked', 'key_rotated', 'key_expired'),
        },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const reading = await meter.peek(principal);
      setRateLimitHeaders(reply, reading);
      const terms = offerTerms[principal.offer];
      return whole([
        {
          key_id: principal.keyId,
          tier: principal.tier,
          offer: principal.offer,
          languages: principal.languages,
          audio_languages: terms.languages,
          sample_capped: terms.sampleCapped,
          expires_at: principal.expiresAt,
          limits: { requests_per_day: principal.limits.dailyQuota, batch_size: principal.limits.batchSize, mcp: principal.limits.mcp },
          quota: { limit: reading.limit, remaining: reading.remaining, reset_seconds: reading.resetSeconds },
        },
      ]);
    },
  );
}
