/**
 * POST /analyze-text: running text tokenised and analysed in context (linguistic API, metered as
 * one request whatever the text's length). JSON `{language, text, all?}` or a text/plain body with
 * `language` in the query; at most 20,000 characters (413 text_too_long past it).
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { LughaError } from '../../errors.js';
import type { Services } from '../../services.js';
import { analyzeTextBody, analyzeTextQuery, analyzeTextResponse, tokenViews } from '../../text/api.js';
import type { TextResult } from '../../text/service.js';
import { meteredProblems, meteredRoute } from '../auth.js';
import { whole } from '../envelope.js';
import { problem } from '../../result.js';
import { failureError } from '../morphology-problem.js';
import { parameterProblem, problemResponses, type ParameterLocation } from '../problem.js';
import { bodyLimitOf, routeBodyLimits } from './body-limits.js';

/**
 * Bytes a body may have: the character cap in the worst encoding (a JSON `\uXXXX` escape is 6
 * bytes a character) plus the envelope; longer bodies are refused before they are read (413
 * payload_too_large), shorter ones over the character cap after (413 text_too_long).
 */
export const ANALYZE_TEXT_BODY_LIMIT = routeBodyLimits.analyzeText;

/** A failed text analysis as an HTTP problem naming the text. */
export function textProblem(outcome: Extract<TextResult<unknown>, { ok: false }>, where: ParameterLocation, parameter: string): LughaError {
  const place = { ...(outcome.offset !== undefined ? { offset: outcome.offset } : {}), ...(outcome.limit !== undefined ? { limit: outcome.limit, size: outcome.size } : {}) };
  if (outcome.code === 'language_not_found' || outcome.code === 'service_unavailable' || outcome.code === 'text_too_long') {
    return new LughaError(outcome.code, outcome.message, place);
  }
  // invalid_text and token_too_long keep their own code with the entry, so not failureError (which lists entries for invalid_parameter only).
  const entry = parameterProblem(where, { parameter, message: outcome.message });
  return new LughaError(outcome.code, `${parameter}: ${outcome.message}`, { errors: [entry], ...place });
}

export async function analyzeTextRoutes(app: FastifyInstance, opts: { services: Services }): Promise<void> {
  // In this route's scope a text/plain body is the text itself: it reaches validation as {text},
  // so both media types meet one schema and every problem names its parameter.
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('text/plain', { parseAs: 'string' }, (_request, body, done) => done(null, { text: body }));
  app.withTypeProvider<ZodTypeProvider>().post(
    '/analyze-text',
    {
      bodyLimit: bodyLimitOf('analyzeText', opts.services.config.bodyLimit),
      schema: {
        ...meteredRoute,
        summary: 'Analyse running text',
        description:
          'Tokenises the text (words, punctuation, numbers, symbols, with UTF-16 offsets, sentences and paragraphs) and analyses every token in context: ' +
          'readings most probable first, each with lemma, part of speech, word class, morphemes, probability and whether the stem is a guess. ' +
          'Send JSON `{"language": <code>, "text": "..."}` or the text itself with `Content-Type: text/plain` and `?language=<code>`. ' +
          'One request whatever the length; at most 20,000 characters (413 `text_too_long`), tokens at most 100 characters (400 `token_too_long`), ' +
          'no control characters or undecodable bytes (400 `invalid_text`); other media types 415.',
        querystring: analyzeTextQuery,
        consumes: ['application/json', 'text/plain'],
        body: analyzeTextBody,
        response: {
          200: analyzeTextResponse,
          ...meteredProblems,
          ...problemResponses('invalid_json', 'invalid_text', 'token_too_long', 'language_not_found', 'text_too_long', 'payload_too_large', 'unsupported_media_type', 'service_unavailable'),
        },
      },
    },
    async (request) => {
      const { body, query } = request;
      const plain = String(request.headers['content-type'] ?? '').startsWith('text/plain');
      const language = body.language ?? query.language;
      if (!language) {
        const message = plain ? 'with a text/plain body, give the language in the query (?language=<code>)' : 'give the language of the text (a code such as the ones GET /languages lists)';
        throw failureError(problem('invalid_parameter', 'language', message), plain ? 'query' : 'body');
      }
      const outcome = await opts.services.text.analyzeText(language, body.text, body.all || query.all ? { all: true } : {});
      if (!outcome.ok) throw textProblem(outcome, 'body', plain ? 'body' : 'text');
      const analysis = outcome.value;
      return { ...whole(tokenViews(analysis)), language: analysis.language, analyzer: analysis.analyzer };
    },
  );
}
