/**
 * The audio API under the configured audio base: public coverage, consent
 * manifest and dataset card; the bearer-gated, metered clip listing and the
 * opaque streaming proxy, which re-checks key, offer, plan, sample and consent
 * on every request and never names a path, blob or speaker.
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { stringify } from 'yaml';
import { z } from 'zod';
import type { Principal } from '../../access/key-service.js';
import { utcDay } from '../../access/quota-counter.js';
import { LughaError } from '../../errors.js';
import type { Services } from '../../services.js';
import type { Result } from '../../result.js';
import { audioModes } from '../../store/store.js';
import { clipSchema, consentManifestSchema, coverageSchema, datasetCardSchema, voicesSchema } from '../../audio/api.js';
import { meteredProblems, protect, principalOf, quotaExceeded, setRateLimitHeaders } from '../auth.js';
import { metaSchema, queryInteger } from '../envelope.js';
import { problemResponses, sendProblem } from '../problem.js';

const publicRoute = { tags: ['audio'] };
const gatedRoute = { tags: ['audio'], security: [{ bearerAuth: [] }] };
/** The clip listing: the envelope, its `meta` saying whether the caller's list is sample-capped. */
const clipListSchema = z.object({
  status: z.literal('ok'),
  data: z.array(clipSchema),
  meta: metaSchema.extend({
    sample_capped: z.boolean().describe("Whether the caller's offer plays only a fixed sample per language and mode."),
    sample_cap: z.number().int().nullable().describe('The sample size, or null when uncapped.'),
  }),
});
const isoParams = z.object({ iso: z.string().min(1).max(16).describe('Language code (ISO 639-3, 639-1 or macrolanguage).') }).strict();

/** Unwraps a service result or throws it as a problem. */
function orThrow<T>(result: Result<T>): T {
  if (result.ok) return result.value;
  throw new LughaError(result.code, result.message);
}

export async function audioRoutes(app: FastifyInstance, opts: { services: Services }): Promise<void> {
  await app.register(publicAudioRoutes, { services: opts.services });
  await app.register(gatedAudioRoutes, { services: opts.services });
}

async function publicAudioRoutes(scope: FastifyInstance, opts: { services: Services }): Promise<void> {
  const { audio, keys } = opts.services;
  const app = scope.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/voices',
    {
      schema: {
        ...publicRoute,
        summary: 'Languages with audio and their live coverage',
        description: 'Public. With a key, also says which languages the key may play.',
        response: { 200: voicesSchema, ...problemResponses('key_malformed', 'key_unknown', 'key_revoked', 'key_rotated', 'key_expired') },
      },
    },
    async (request, reply) => {
      let principal: Principal | undefined;
      if (request.headers.authorization !== undefined) {
        const auth = await keys.authenticate(request.headers.authorization);
        if (!auth.ok) return sendProblem(request, reply, new LughaError(auth.code, auth.message, {}, { 'WWW-Authenticate': 'Bearer realm="lugha"' }));
        principal = auth.value;
      }
      return audio.voices(principal);
    },
  );

  app.get(
    '/:iso/audio-summary',
    { schema: { ...publicRoute, summary: 'Live coverage counts for one language', params: isoParams, response: { 200: coverageSchema, ...problemResponses('language_not_found') } } },
    async (request) => {
      const iso = orThrow(audio.language(request.params.iso));
      return (await audio.coverage(iso))[0];
    },
  );

  app.get(
    '/:iso/consent-manifest',
    { schema: { ...publicRoute, summary: 'Non-PII consent provenance for one language', params: isoParams, response: { 200: consentManifestSchema, ...problemResponses('language_not_found') } } },
    async (request) => audio.consentManifest(orThrow(audio.language(request.params.iso))),
  );

  app.get(
    '/:iso/dataset-card',
    {
      schema: {
        ...publicRoute,
        summary: 'Hugging Face dataset card for one language',
        description: 'Markdown with YAML front matter by default; JSON (`metadata` and `prose`) with `Accept: application/json`.',
        params: isoParams,
        response: {
          200: z.union([datasetCardSchema.describe('With `Accept: application/json`.'), z.string().describe('Markdown (the default): the metadata as YAML front matter over the prose.')]),
          ...problemResponses('language_not_found'),
        },
      },
    },
    async (request, reply) => {
      const card = await audio.datasetCard(orThrow(audio.language(request.params.iso)));
      reply.header('Vary', 'Accept');
      if (/application\/json/i.test(request.headers.accept ?? '')) return reply.type('application/json; charset=utf-8').send(JSON.stringify(card));
      return reply.type('text/markdown; charset=utf-8').send(`---\n${stringify(card.metadata)}---\n\n${card.prose}\n`);
    },
  );
}

async function gatedAudioRoutes(scope: FastifyInstance, opts: { services: Services }): Promise<void> {
  const { audio, blobs } = opts.services;
  const { store, clock } = opts.services;
  /** The clip a Range request asks for: Range requests for one clip count once per key and UTC day. */
  const rangedClip = (request: FastifyRequest): string | undefined => {
    if (request.headers.range === undefined || request.routeOptions.url === undefined || !request.routeOptions.url.endsWith('/audio/:recording_id')) return undefined;
    const id = (request.params as { recording_id?: unknown }).recording_id;
    return typeof id === 'string' && id.length <= 64 ? id : undefined;
  };
  /**
   * Requests let through uncounted as a repeat Range request: counted after all (in the
   * handler) when the range turns out not to be honoured and the whole clip is sent.
   */
  const uncounted = new WeakSet<FastifyRequest>();
  protect(scope, {
    keys: opts.services.keys,
    meter: opts.services.meter,
    counting: {
      async repeat(request, principal) {
        const id = rangedClip(request);
        const seen = id !== undefined && (await store.audio.rangeSeen(principal.keyId, id, utcDay(clock.now())));
        if (seen) uncounted.add(request);
        return seen;
      },
      async afterCount(request, principal) {
        const id = rangedClip(request);
        if (id !== undefined) await store.audio.markRangeSeen(principal.keyId, id, utcDay(clock.now()));
      },
    },
  });
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const gatedProblems = { ...meteredProblems, ...problemResponses('not_in_tier', 'language_not_in_plan', 'language_not_found') };

  app.get(
    '/:iso/audio',
    {
      schema: {
        ...gatedRoute,
        summary: 'Consented clips of one language, with proxy URLs',
        description: 'Sample-capped for Evaluation and Pilot keys, uncapped for Full. `mode` omitted = both modes.',
        params: isoParams,
        querystring: z
          .object({
            n: queryInteger(1, 100, 10).describe('Clips per page, 1..100.'),
            page: queryInteger(1, 1_000_000, 1).describe('Page number, from 1.'),
            mode: z.enum(audioModes).optional().describe('bantu_only or bantu_english; omitted = both.'),
          })
          .strict(),
        response: { 200: clipListSchema, ...gatedProblems },
      },
    },
    async (request) => orThrow(await audio.list(principalOf(request), request.params.iso, request.query)),
  );

  app.get(
    '/audio/:recording_id',
    {
      schema: {
        ...gatedRoute,
        summary: 'The bytes of one clip (opaque proxy; Range, ETag)',
        description: 'Re-checks key, offer, plan, sample membership and consent on every request. One byte range per request.',
        params: z.object({ recording_id: z.string().min(1).max(64) }).strict(),
        response: { ...gatedProblems, ...problemResponses('recording_not_found', 'consent_withdrawn', 'range_not_satisfiable', 'storage_unavailable') },
      },
    },
    async (request, reply) => {
      const clip = orThrow(await audio.authorizeClip(principalOf(request), request.params.recording_id));
      const size = await blobSize(request, clip);
      // Derived from the content but not the storage key itself.
      const etag = `"${createHash('sha256').update(`etag\n${clip.recordingId}\n${clip.sha256}`).digest('base64url').slice(0, 27)}"`;
      reply.header('ETag', etag);
      reply.header('Accept-Ranges', 'bytes');
      reply.header('Cache-Control', 'private, no-cache');
      reply.header('Vary', 'Authorization');
      if (matchesEtag(request.headers['if-none-match'], etag)) return reply.code(304).send();
      const range = parseRange(request, etag, size);
      if (range === 'unsatisfiable') {
        throw new LughaError('range_not_satisfiable', `the clip has ${size} bytes; send one range inside 0-${size - 1}`, { size }, { 'Content-Range': `bytes */${size}` });
      }
      reply.type(clip.contentType);
      if (range) {
        reply.code(206);
        reply.header('Content-Range', `bytes ${range.start}-${range.end}/${size}`);
        reply.header('Content-Length', String(range.end - range.start + 1));
        return sendStream(reply, request, clip.sha256, range);
      }
      // A malformed Range or a stale If-Range gets the whole clip: that counts, whatever the headers said.
      if (uncounted.has(request)) {
        const reading = await opts.services.meter.consume(principalOf(request));
        setRateLimitHeaders(reply, reading);
        if (!reading.allowed) throw quotaExceeded(reading);
      }
      reply.header('Content-Length', String(size));
      return sendStream(reply, request, clip.sha256, undefined);
    },
  );

  /**
   * The clip's size in storage. Storage that does not answer, or is gone (folder removed, bucket
   * deleted), is a 503 storage_unavailable; one blob missing from storage that is there is damage
   * to the corpus, an internal error. Neither names a path, bucket or key.
   */
  async function blobSize(request: FastifyRequest, clip: { recordingId: string; sha256: string }): Promise<number> {
    const unavailable = (error: unknown) => {
      request.log.error({ recording: clip.recordingId, reason: (error as Error)?.message }, 'audio storage unavailable');
      return new LughaError('storage_unavailable', 'the audio storage does not answer; the clip cannot be served right now, retry later', {}, { 'Retry-After': '30' });
    };
    let size: number | undefined;
    try {
      size = await blobs.size(clip.sha256);
    } catch (error) {
      throw unavailable(error);
    }
    if (size !== undefined) return size;
    try {
      await blobs.ping();
    } catch (error) {
      throw unavailable(error);
    }
    request.log.error({ recording: clip.recordingId }, 'audio blob missing');
    throw new LughaError('internal_error', 'this clip cannot be served right now');
  }

  function sendStream(reply: FastifyReply, request: FastifyRequest, sha256: string, range: { start: number; end: number } | undefined) {
    // Fastify's HEAD handling keeps Content-Length for a stream body; an empty one reads nothing.
    if (request.method === 'HEAD') return reply.send(Readable.from([]));
    const stream = blobs.read(sha256, range);
    // A read error must not leak the blob's path into a log line a caller could see.
    stream.on('error', (error: NodeJS.ErrnoException) => request.log.error({ code: error.code }, 'audio stream failed'));
    return reply.send(stream);
  }
}

function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

/**
 * The byte range asked for: undefined = whole clip (no Range, a Range in another unit, a
 * malformed one, or an If-Range that no longer matches), or 'unsatisfiable' (outside the
 * clip, or several ranges, which this proxy does not serve as multipart).
 */
function parseRange(request: FastifyRequest, etag: string, size: number): { start: number; end: number } | 'unsatisfiable' | undefined {
  const header = request.headers.range;
  if (!header) return undefined;
  const ifRange = request.headers['if-range'];
  if (ifRange !== undefined && ifRange !== etag) return undefined;
  const match = /^bytes=(.+)$/i.exec(header.trim());
  if (!match) return undefined;
  const specs = match[1]!.split(',').map((s) => s.trim());
  if (specs.length > 1) return 'unsatisfiable';
  const spec = /^(\d*)-(\d*)$/.exec(specs[0]!);
  if (!spec || (spec[1] === '' && spec[2] === '')) return undefined;
  if (spec[1] === '') {
    const suffix = Number(spec[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(spec[1]);
  const end = spec[2] === '' ? size - 1 : Math.min(Number(spec[2]), size - 1);
  if (start >= size) return 'unsatisfiable';
  if (end < start) return undefined;
  return { start, end };
}
