/** Liveness and readiness probes for orchestrators and load balancers; public. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { LughaError } from '../../errors.js';
import type { Services } from '../../services.js';
import { problemResponses } from '../problem.js';

const healthSchema = z.object({ status: z.literal('ok') });
const readySchema = z.object({ status: z.literal('ready'), store: z.object({ kind: z.string(), ok: z.boolean() }) });

export async function healthRoutes(app: FastifyInstance, opts: { services: Services }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/healthz', { schema: { tags: ['operations'], summary: 'Liveness: the process answers', response: { 200: healthSchema } } }, async () => ({ status: 'ok' as const }));
  r.get(
    '/readyz',
    {
      schema: {
        tags: ['operations'],
        summary: 'Readiness: the store answers, every analyser is loaded, and the service is not shutting down',
        response: { 200: readySchema, ...problemResponses('service_unavailable') },
      },
    },
    async () => {
      try {
        await opts.services.store.ping();
      } catch (error) {
        app.log.warn({ err: error }, 'store ping failed');
        throw new LughaError('service_unavailable', 'the store does not answer');
      }
      // An analysis arriving while the analysers warm up would wait on a build: not ready yet.
      const analysis = opts.services.analysisReadiness();
      if (analysis.warming) {
        throw new LughaError('service_unavailable', `the analysers are loading (${analysis.ready} of ${analysis.total} languages ready)`, {}, { 'Retry-After': '5' });
      }
      return { status: 'ready' as const, store: { kind: opts.services.store.kind, ok: true } };
    },
  );
}
