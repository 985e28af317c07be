/**
 * The media-type check of routes whose body is JSON only. Fastify parses `text/plain` too (a
 * route such as analyze-text accepts it), so a JSON route refuses any other type itself, with
 * 415, before validation would report the string body as a 400.
 */
import type { FastifyRequest } from 'fastify';
import { LughaError } from '../errors.js';

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json$/i;

/** preValidation hook: 415 unsupported_media_type unless the body is sent as JSON. */
export async function requireJsonBody(request: FastifyRequest): Promise<void> {
  const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim();
  if (!JSON_TYPE.test(type)) {
    throw new LughaError('unsupported_media_type', `this route takes a JSON body: send it with Content-Type: application/json (got ${type ? JSON.stringify(type.slice(0, 80)) : 'none'})`);
  }
}
