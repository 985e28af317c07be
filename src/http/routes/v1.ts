/**
 * The linguistic API, version 1: every route here needs a bearer key and is
 * metered. Registered twice, under /api/v1 and /v1.
 */
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.js';
import type { EarlyAnswers } from '../early-answer.js';
import { protect } from '../auth.js';
import { analyzeRoutes } from './analyze.js';
import { analyzeTextRoutes } from './analyze-text.js';
import { batchGenerateRoutes } from './batch-generate.js';
import { conjugateRoutes } from './conjugate.js';
import { hfstRoutes } from './hfst.js';
import { languageRoutes } from './languages.js';
import { numeralRoutes } from './numerals.js';
import { syllableRoutes } from './syllables.js';
import { tonalPairRoutes } from './tonal-pairs.js';

export async function v1Routes(app: FastifyInstance, opts: { services: Services; early?: EarlyAnswers }): Promise<void> {
  protect(app, { keys: opts.services.keys, meter: opts.services.meter });
  for (const routes of [languageRoutes, conjugateRoutes, analyzeRoutes, analyzeTextRoutes, syllableRoutes, batchGenerateRoutes, tonalPairRoutes]) {
    await app.register(routes, { services: opts.services, early: opts.early });
  }
  await app.register(numeralRoutes, { services: opts.services });
  await app.register(hfstRoutes, { services: opts.services });
}
