// Responses written by the compiled serialisers (src/http/serializer.ts) are the same JSON as the
// zod serialiser (encode, then JSON.stringify) writes for the same handler result (members may come
// in the schema's order rather than the handler's), on the success answers of the routes with a
// zod response schema; and a member a handler adds beyond its schema never reaches the caller.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { pendingSerializerSteps } from '../src/http/app.js';
import { harness, type Harness } from './helpers.js';

const captured = new Map<string, { payload: unknown; schema: unknown }>();

describe('compiled response serialisers', () => {
  let h: Harness;
  let key: string;
  before(async () => {
    h = await harness({
      extraRoutes: (app: FastifyInstance) => {
        app.addHook('preSerialization', async (request, reply, payload) => {
          const responses = (request.routeOptions.schema as { response?: Record<string, unknown> } | undefined)?.response;
          captured.set(String(request.id), { payload, schema: responses?.[String(reply.statusCode)] });
          return payload;
        });
        // Routes that serialise a body once and keep it (the language catalogue) call reply.serialize.
        app.addHook('onRequest', async (request, reply) => {
          const serialize = reply.serialize.bind(reply);
          reply.serialize = (payload: unknown) => {
            const responses = (request.routeOptions.schema as { response?: Record<string, unknown> } | undefined)?.response;
            captured.set(String(request.id), { payload, schema: responses?.[String(reply.statusCode)] });
            return serialize(payload);
          };
        });
        app.get('/test/leaky', { schema: { response: { 200: z.object({ shown: z.string(), nested: z.object({ kept: z.number() }) }) } } }, async () => ({
          shown: 'yes',
          secret: 'speaker-17',
          nested: { kept: 1, path: '/var/lugha/blobs' },
        }));
      },
    });
    key = (await h.issue('enterprise')).key;
  });
  after(() => h.close());

  it('compiles no success serialiser that needs a validator (ajv compiling one on a first answer after /readyz)', async () => {
    // First, before any request below compiles a route's serialiser.
    // fast-json-stringify registers a schema with its ajv Validator only when the generated code
    // picks a union branch (or an if/then/else) by validating the value.
    const Validator = createRequire(import.meta.url)('fast-json-stringify/lib/validator.js') as { prototype: { addSchema: (schema: unknown, name: string) => unknown } };
    const original = Validator.prototype.addSchema;
    const needing: string[] = [];
    Validator.prototype.addSchema = function (this: unknown, schema: unknown, name: string) {
      needing.push(JSON.stringify(schema).slice(0, 200));
      return original.call(this, schema, name);
    };
    try {
      const steps = pendingSerializerSteps(h.app);
      assert.ok(steps.length > 10, `the success serialisers not compiled yet: ${steps.length}`);
      for (const step of steps) step();
    } finally {
      Validator.prototype.addSchema = original;
    }
    assert.deepEqual(needing, []);
  });

  const paths = [
    '/api/v1/languages',
    '/api/v1/languages?per_page=200&page=2',
    '/api/v1/languages?has_cartridge=true',
    '/api/v1/languages?q=swa',
    '/api/v1/conjugate?language=swh&root=penda&subject=3pl&tense=future&polarity=negative&object=c7',
    '/api/v1/conjugate?language=nya&root=pita&subject=1sg&tense=habitual&include_tones=true',
    // A periphrastic form: slots.auxiliary is a whole word beside the other slots' morphs.
    '/api/v1/conjugate?language=swh&root=penda&subject=1sg&tense=past_progressive',
    '/api/v1/analyze?form=hawatakipenda&language=swh',
    '/api/v1/analyze?form=ngiyabonga&language=zul',
    '/api/v1/syllables/swh',
    '/api/v1/tonal-pairs?language=bem',
    '/api/os/status',
    '/api/os/layers',
    '/api/os/cartridges',
    '/api/os/cartridges/swh',
    '/api/os/templates',
    '/healthz',
    '/readyz',
  ];

  for (const path of paths) {
    it(`writes ${path} as the zod serialiser would`, async () => {
      const response = await h.call(key, path);
      if (response.statusCode !== 200) return assert.fail(`${path}: ${response.statusCode} ${response.body.slice(0, 300)}`);
      const requestId = String(response.headers['x-request-id']);
      const { payload, schema } = captured.get(requestId) ?? {};
      assert.ok(payload !== undefined, 'the handler result was captured');
      assert.ok(schema instanceof z.ZodType, `${path} declares a zod 200 schema`);
      assert.deepStrictEqual(JSON.parse(response.body), JSON.parse(JSON.stringify(z.encode(schema, payload as never))));
    });
  }

  it('writes POST /api/v1/batch-generate (an item that worked and one that failed) as the zod serialiser would', async () => {
    const response = await h.call(key, {
      method: 'POST',
      url: '/api/v1/batch-generate',
      payload: {
        language: 'swh',
        items: [
          { root: 'penda', subject: '3pl', tense: 'past' },
          { root: 'penda', subject: '9zz' },
        ],
      },
    });
    if (response.statusCode !== 200) return assert.fail(`${response.statusCode} ${response.body.slice(0, 300)}`);
    const { payload, schema } = captured.get(String(response.headers['x-request-id'])) ?? {};
    assert.ok(schema instanceof z.ZodType);
    const body = JSON.parse(response.body);
    assert.deepEqual(
      body.data.map((item: { ok: boolean }) => item.ok),
      [true, false],
    );
    assert.deepStrictEqual(body, JSON.parse(JSON.stringify(z.encode(schema, payload as never))));
  });

  it('never writes a member the schema does not declare', async () => {
    const response = await h.call(undefined, '/test/leaky');
    assert.equal(response.statusCode, 200);
    assert.deepEqual(JSON.parse(response.body), { shown: 'yes', nested: { kept: 1 } });
  });
});

describe('static responses with ETag', () => {
  let h: Harness;
  let key: string;
  before(async () => {
    h = await harness();
    key = (await h.issue('startup')).key; // 5,000 a day: each answer, 304 included, is counted
  });
  after(() => h.close());

  for (const [path, auth] of [
    ['/api/v1/languages?has_cartridge=true&per_page=5', true],
    ['/openapi.json', false],
  ] as const) {
    it(`${path}: the same body and ETag each time, 304 without a body for a caller holding it`, async () => {
      const first = await h.call(auth ? key : undefined, path);
      assert.equal(first.statusCode, 200);
      const etag = String(first.headers.etag);
      assert.match(etag, /^"[A-Za-z0-9_-]{32}"$/);
      assert.equal(first.headers['content-type'], 'application/json; charset=utf-8');
      const again = await h.call(auth ? key : undefined, path);
      assert.equal(again.body, first.body);
      assert.equal(again.headers.etag, etag);

      const cached = await h.call(auth ? key : undefined, { method: 'GET', url: path, headers: { 'if-none-match': `"other", W/${etag}` } });
      assert.equal(cached.statusCode, 304);
      assert.equal(cached.body, '');
      assert.equal(cached.headers.etag, etag);
      const stale = await h.call(auth ? key : undefined, { method: 'GET', url: path, headers: { 'if-none-match': '"other"' } });
      assert.equal(stale.statusCode, 200);
      assert.equal(stale.body, first.body);
      if (auth) {
        assert.match(String(cached.headers.ratelimit), /r=4997;/, 'a 304 of a metered route is counted like any answer');
        const other = await h.call(key, '/api/v1/languages?has_cartridge=true&per_page=5&page=2');
        assert.notEqual(other.headers.etag, etag, 'another page, another version');
      }
    });
  }
});
