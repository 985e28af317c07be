/**
 * GET /problems/{type}: the documentation of each problem type, so the `type`
 * URI of every error body resolves. Text comes from docs/errors.md.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { packageRoot } from '../../config.js';
import { errorCatalogue, LughaError, problemType, type ErrorCode } from '../../errors.js';
import { problemResponses } from '../problem.js';

/** The sections of docs/errors.md, keyed by error code (`## code` headings). */
export function readErrorDocs(file = path.join(packageRoot, 'docs', 'errors.md')): Map<string, string> {
  const sections = new Map<string, string>();
  const text = readFileSync(file, 'utf8');
  for (const match of text.matchAll(/^## `?([a-z_]+)`?\s*\n([\s\S]*?)(?=^## |(?![\s\S]))/gm)) {
    sections.set(match[1]!, match[2]!.trim());
  }
  return sections;
}

const problemDocSchema = z.object({
  type: z.string(),
  code: z.string(),
  status: z.number().int(),
  title: z.string(),
  description: z.string(),
});

export async function problemRoutes(app: FastifyInstance): Promise<void> {
  const docs = readErrorDocs();
  const byType = new Map(
    (Object.keys(errorCatalogue) as ErrorCode[]).map((code) => {
      const type = problemType(code);
      const entry = { type, code, ...errorCatalogue[code], description: docs.get(code) ?? '' };
      return [type.split('/').pop()!, entry] as const;
    }),
  );
  app.withTypeProvider<ZodTypeProvider>().get(
    '/problems/:type',
    {
      schema: {
        tags: ['operations'],
        summary: 'Documentation of one problem type',
        params: z.object({ type: z.string().max(64) }),
        response: { 200: problemDocSchema, ...problemResponses('route_not_found') },
      },
    },
    async (request) => {
      const entry = byType.get(request.params.type);
      if (!entry) throw new LughaError('route_not_found', 'no such problem type; see /problems/invalid-parameter and its siblings');
      return entry;
    },
  );
}
