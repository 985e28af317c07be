/**
 * The linguistic API, version 1: every route here needs a bearer key and is
 * metered. Registered twice, under /api/v1 and /v1.
 */
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.js';
import { protect } from '../auth.js';
import { languageRoutes } from './languages.js';

export async function v1Routes(app: FastifyInstance, opts: { services: Services }): Promise<void> {
  protect(app, { keys: opts.services.keys, meter: opts.services.meter });
  await app.register(languageRoutes, { services: opts.services });
}
