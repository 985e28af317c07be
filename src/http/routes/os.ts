/**
 * The product status API under /api/os: public, read-only, declarative. Service status
 * with storage kind and health, the layer stack and its rules, the declared cartridges
 * with computed coverage, and the template families. Bodies carry an ETag and
 * Cache-Control; a matching If-None-Match gets 304.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { packageRoot, packageVersion } from '../../config.js';
import { COVERAGE_LEVELS, TEMPLATE_FAMILIES, type CoverageLevel } from '../../coverage/capabilities.js';
import { ARCHITECTURE_RULES, architectureRuleSchema, LAYERS, layerSchema } from '../../coverage/layers.js';
import { measuredLanguageSchema } from '../../coverage/measured-accuracy.js';
import { loadRoadmap, milestoneStatuses, nextMilestone } from '../../coverage/roadmap.js';
import { templateFamilies } from '../../coverage/templates.js';
import { LughaError } from '../../errors.js';
import type { Services } from '../../services.js';
import { problemResponses } from '../problem.js';

const ROADMAP_FILE = path.join(packageRoot, 'docs', 'roadmap.yaml');
const MAX_AGE_SECONDS = 60;

const level = z.enum(COVERAGE_LEVELS);
const family = z.enum(TEMPLATE_FAMILIES);
const count = z.object({ total: z.number().int(), passing: z.number().int() });

const milestoneSchema = z.object({
  id: z.string(),
  title: z.string(),
  family: family.nullable(),
  done: z.boolean(),
  basis: z.enum(['computed', 'declared']).describe('computed from cartridge coverage, or declared in docs/roadmap.yaml'),
  evidence: z.string(),
});

const storageHealth = z.object({ kind: z.string(), healthy: z.boolean() });

const statusSchema = z.object({
  service: z.object({ name: z.literal('lugha'), version: z.string(), status: z.enum(['ok', 'degraded']) }),
  storage: z.object({ database: storageHealth, blobs: storageHealth }).describe('Kind and health only: never a path, bucket or URL.'),
  cartridges: z.object({ installed: z.number().int(), by_level: z.record(level, z.number().int()) }),
  roadmap: z.object({ done: z.number().int(), total: z.number().int(), next_milestone: milestoneSchema.nullable(), milestones: z.array(milestoneSchema) }),
});

const layersSchema = z.object({ layers: z.array(layerSchema), rules: z.array(architectureRuleSchema) });

const capabilitySchema = z.object({ level, evidence: z.string(), golden: count.optional() });

const cartridgeSchema = z.object({
  iso: z.string(),
  iso639_1: z.string().nullable(),
  name: z.string(),
  endonym: z.string().nullable(),
  glottocode: z.string().nullable(),
  guthrie: z.string().nullable(),
  foundational: z.boolean(),
  level: level.describe('The strongest level any capability beyond metadata reaches.'),
  capabilities: z.record(z.string(), capabilitySchema),
  golden_tests: count,
  measured_accuracy: measuredLanguageSchema.nullable().describe('Latest UniMorph development-set figures from reference/measured-accuracy.json, or null.'),
  files: z.array(z.string()),
  sources: z.array(z.object({ id: z.string(), citation: z.string() })),
});

const capabilityInfo = z.object({ id: z.string(), family, label: z.string() });

const cartridgesSchema = z.object({ count: z.number().int(), capabilities: z.array(capabilityInfo), cartridges: z.array(cartridgeSchema) });

const templatesSchema = z.object({
  families: z.array(
    z.object({
      family,
      order: z.number().int(),
      state: z.enum(['built', 'in_progress', 'planned']),
      capabilities: z.array(z.string()),
      milestones: z.array(z.object({ id: z.string(), title: z.string(), done: z.boolean() })),
      cartridges: z.record(level, z.number().int()),
      parts: z.array(z.string()).describe('Verb slots, syllable types or noun classes as the cartridges declare them.'),
    }),
  ),
});

const osRoute = { tags: ['status'] };
const notModified = { 304: z.null().describe('Not modified (If-None-Match matched the ETag).') };

/** Sends `body` with an ETag and Cache-Control, or 304 when the caller already has it. */
function cached<T>(request: FastifyRequest, reply: FastifyReply, body: T): T | FastifyReply {
  const etag = `"${createHash('sha256').update(JSON.stringify(body)).digest('base64url').slice(0, 27)}"`;
  reply.header('ETag', etag).header('Cache-Control', `public, max-age=${MAX_AGE_SECONDS}`);
  const match = request.headers['if-none-match'];
  if (typeof match === 'string' && match.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) return reply.code(304).send();
  return body;
}

export async function osRoutes(app: FastifyInstance, opts: { services: Services }): Promise<void> {
  const { services } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const serviceVersion = packageVersion();
  const roadmap = loadRoadmap(ROADMAP_FILE);
  const milestones = () => milestoneStatuses(roadmap, services.coverage.all());

  r.get(
    '/status',
    {
      schema: {
        ...osRoute,
        summary: 'Service status, storage kind and health, next build milestone',
        response: { 200: statusSchema, ...notModified },
      },
    },
    async (request, reply) => {
      const probe = async (check: () => Promise<unknown>) => {
        try {
          await check();
          return true;
        } catch (error) {
          request.log.warn({ err: error }, 'storage probe failed');
          return false;
        }
      };
      const database = { kind: services.store.kind, healthy: await probe(() => services.store.ping()) };
      const blobs = { kind: services.blobs.kind ?? 'unknown', healthy: await probe(() => services.blobs.ping()) };
      const coverage = services.coverage.all();
      const byLevel = Object.fromEntries(COVERAGE_LEVELS.map((l) => [l, coverage.filter((c) => c.level === l).length])) as Record<CoverageLevel, number>;
      const all = milestones();
      return cached(request, reply, {
        service: { name: 'lugha' as const, version: serviceVersion, status: database.healthy && blobs.healthy ? ('ok' as const) : ('degraded' as const) },
        storage: { database, blobs },
        cartridges: { installed: coverage.length, by_level: byLevel },
        roadmap: { done: all.filter((m) => m.done).length, total: all.length, next_milestone: nextMilestone(all), milestones: all },
      });
    },
  );

  r.get('/layers', { schema: { ...osRoute, summary: 'The layer stack and its architecture rules, each with the test that enforces it', response: { 200: layersSchema, ...notModified } } }, async (request, reply) =>
    cached(request, reply, { layers: LAYERS, rules: ARCHITECTURE_RULES }),
  );

  const capabilities = () => services.coverage.evaluators.map((e) => ({ id: e.id, family: e.family, label: e.label }));

  r.get(
    '/cartridges',
    {
      schema: {
        ...osRoute,
        summary: 'Declared language cartridges with computed coverage per capability and measured accuracy',
        response: { 200: cartridgesSchema, ...notModified },
      },
    },
    async (request, reply) => {
      const cartridges = services.coverage.all();
      return cached(request, reply, { count: cartridges.length, capabilities: capabilities(), cartridges });
    },
  );

  r.get(
    '/cartridges/:iso',
    {
      schema: {
        ...osRoute,
        summary: 'One cartridge by ISO 639-1 or 639-3 code (aliases accepted)',
        params: z.object({ iso: z.string().min(1).max(32).describe('Language code, e.g. sna, sn or swa.') }),
        response: { 200: cartridgeSchema, ...notModified, ...problemResponses('language_not_found') },
      },
    },
    async (request, reply) => {
      const found = services.coverage.find(request.params.iso);
      if (!found) {
        const installed = services.coverage
          .all()
          .map((c) => c.iso)
          .join(', ');
        throw new LughaError('language_not_found', `no cartridge for "${request.params.iso}"; installed: ${installed}`);
      }
      return cached(request, reply, found);
    },
  );

  // The same for the life of the process (cartridges, coverage and the roadmap are read once), and it
  // derives every language's syllable inventory (~30 ms in the HTTP fuzz at load 3): built once.
  let templates: { families: ReturnType<typeof templateFamilies> } | undefined;
  r.get('/templates', { schema: { ...osRoute, summary: 'Template families and their implementation order', response: { 200: templatesSchema, ...notModified } } }, async (request, reply) =>
    cached(request, reply, (templates ??= { families: templateFamilies(services.coverage.evaluators, milestones(), services.coverage.all(), services.morphology) })),
  );
}
