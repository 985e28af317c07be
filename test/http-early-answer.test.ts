// A conjugation or a page of the language catalogue asked again over a socket is answered before
// Fastify (src/http/early-answer.ts) when the key is cached and counted at once. What the caller
// gets must not change: the same status, body and headers, in the same order, as the answer
// through Fastify (ETag, 304, Vary and CORS included); the request counted; the same log line; and
// every other request (a revoked key, a limited key, a query never answered) answered by Fastify as
// before.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { request, type IncomingMessage } from 'node:http';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { utcDay } from '../src/access/quota-counter.js';
import { loadConfig } from '../src/config.js';
import { buildApp } from '../src/http/app.js';
import { openServices, type Services } from '../src/services.js';
import { tempDir } from './helpers.js';

const WORKED = '/api/v1/conjugate?language=swh&root=penda&subject=3pl&tense=future&polarity=negative&object=c7';

type Headers = Array<[string, string]>;
interface Answer {
  status: number;
  body: string;
  headers: Headers;
  /** Whether Fastify answered it (its onResponse hook ran). */
  fastify: boolean;
}

/** A listening app with CORS for `corsOrigins`, its log lines, and a client that tells which path answered. */
async function listening(corsOrigins: string) {
  const dataDir = tempDir();
  const config = loadConfig({ env: {}, flags: { dataDir, logLevel: 'info', corsOrigins } });
  const services: Services = await openServices(config);
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const app: FastifyInstance = await buildApp(services, { logger: { level: 'info', stream } });
  let throughFastify = 0;
  app.addHook('onResponse', (_request, _reply, done) => {
    throughFastify++;
    done();
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening on a port');
  const origin = `http://127.0.0.1:${address.port}`;

  /** One request over a socket; the response headers as written on the wire (names lower-cased), in order. */
  async function get(key: string | undefined, url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
    const before = throughFastify;
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      request(`${origin}${url}`, { method, headers: { ...headers, ...(key === undefined ? {} : { authorization: `Bearer ${key}` }) } }, resolve)
        .on('error', reject)
        .end();
    });
    let body = '';
    for await (const chunk of response) body += String(chunk);
    const raw = response.rawHeaders;
    const pairs: Headers = [];
    for (let i = 0; i < raw.length; i += 2) pairs.push([raw[i]!.toLowerCase(), raw[i + 1]!]);
    return { status: response.statusCode ?? 0, body, headers: pairs, fastify: throughFastify > before };
  }

  async function issue(tier: 'enterprise' | 'startup'): Promise<{ key: string; id: string }> {
    const issued = await services.keys.create({ tier, offer: 'full' });
    if (!issued.ok) throw new Error(issued.message);
    return { key: issued.value.key, id: issued.value.record.id };
  }

  /** Requests counted today for key `id` (the counts held for group commit written first). */
  const used = (id: string) => services.store.quota.used(id, utcDay(new Date()));

  async function close(): Promise<void> {
    await app.close();
    await services.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return { services, lines, get, issue, used, close };
}

/** Header names and values in order, the per-request ones (date, request id) by name only. */
const shape = (headers: Headers) => headers.map(([name, value]) => (name === 'date' || name === 'x-request-id' ? name : `${name}: ${value}`));
const header = (headers: Headers, name: string) => headers.find(([n]) => n === name)?.[1];

/** Asserts that `early` was sent before Fastify and says what `through` (Fastify's answer to the same request) says. */
function sameAnswer(early: Answer, through: Answer, what: string): void {
  assert.ok(through.fastify, `${what}: the first answer is the route's`);
  assert.ok(!early.fastify, `${what}: the answer asked again is sent before Fastify`);
  assert.equal(early.status, through.status, what);
  assert.equal(early.body, through.body, what);
  assert.deepEqual(shape(early.headers), shape(through.headers), what);
  assert.notEqual(header(early.headers, 'x-request-id'), header(through.headers, 'x-request-id'), what);
}

describe('kept conjugations answered before Fastify', () => {
  let s: Awaited<ReturnType<typeof listening>>;
  before(async () => {
    s = await listening('https://app.example');
  });
  after(() => s.close());

  it('gives the same status, body and headers as the answer through Fastify, and counts every request', async () => {
    const { key, id } = await s.issue('enterprise');
    const first = await s.get(key, WORKED, { origin: 'https://app.example' });
    const second = await s.get(key, WORKED, { origin: 'https://app.example' });
    const third = await s.get(key, WORKED);
    assert.equal(first.status, 200, first.body);
    sameAnswer(second, first, 'GET');
    assert.ok(!third.fastify, 'a kept answer is sent before Fastify');
    assert.equal(header(second.headers, 'access-control-allow-origin'), 'https://app.example');
    assert.equal(header(third.headers, 'access-control-allow-origin'), undefined, 'an unlisted origin is not allowed');
    assert.equal(header(third.headers, 'vary'), 'Origin');
    assert.equal(JSON.parse(second.body).data[0].surface_form, 'hawatakipenda');
    assert.equal(await s.used(id), 3);
  });

  it('writes the same log line as Fastify, with the id the caller sent when it looks like one', async () => {
    const { key } = await s.issue('enterprise');
    await s.get(key, WORKED);
    const sent = await s.get(key, WORKED, { 'x-request-id': 'trace-0123456789' });
    assert.ok(!sent.fastify);
    assert.equal(header(sent.headers, 'x-request-id'), 'trace-0123456789');
    const mine = s.lines.filter((line) => line.reqId === 'trace-0123456789');
    assert.equal(mine.length, 1);
    const line = mine[0]!;
    const through = s.lines.filter((l) => l.msg === 'request completed' && l.reqId !== 'trace-0123456789').at(-1)!;
    assert.deepEqual(Object.keys(line).sort(), Object.keys(through).sort());
    assert.equal(line.msg, 'request completed');
    assert.equal(line.method, 'GET');
    assert.equal(line.url, WORKED);
    assert.equal(line.statusCode, 200);
    assert.equal(typeof line.responseTime, 'number');
  });

  it('answers HEAD of a kept conjugation as Fastify does: the headers of the GET, no body', async () => {
    const { key, id } = await s.issue('enterprise');
    const url = '/api/v1/conjugate?language=swh&root=soma&subject=1pl&tense=past';
    const through = await s.get(key, url, {}, 'HEAD');
    const early = await s.get(key, url, {}, 'HEAD');
    assert.equal(through.status, 200);
    sameAnswer(early, through, 'HEAD');
    assert.equal(early.body, '');
    const got = await s.get(key, url);
    assert.equal(header(early.headers, 'content-length'), String(Buffer.byteLength(got.body)));
    assert.equal(await s.used(id), 3);
  });

  it('leaves to Fastify a revoked key, a missing key, a limited key and a query never answered', async () => {
    const { key, id } = await s.issue('enterprise');
    assert.equal((await s.get(key, WORKED)).status, 200);
    assert.ok((await s.services.keys.revoke(id)).ok);
    const revoked = await s.get(key, WORKED);
    assert.equal(revoked.status, 401);
    assert.equal(JSON.parse(revoked.body).code, 'key_revoked');
    assert.equal(JSON.parse((await s.get(undefined, WORKED)).body).code, 'key_missing');

    const limited = await s.issue('startup');
    await s.get(limited.key, WORKED);
    const counted = await s.get(limited.key, WORKED);
    assert.ok(counted.fastify);
    assert.match(header(counted.headers, 'ratelimit') ?? '', /^"daily";r=\d+;t=\d+$/);

    const other = await s.issue('enterprise');
    const unseen = await s.get(other.key, '/api/v1/conjugate?language=swh&root=penda&subject=1sg&tense=yesterday');
    assert.equal(unseen.status, 400);
    assert.ok(unseen.fastify);
  });
});

describe('pages of /languages answered before Fastify, origins listed', () => {
  let s: Awaited<ReturnType<typeof listening>>;
  before(async () => {
    s = await listening('https://app.example');
  });
  after(() => s.close());

  it('gives the same status, body and headers (ETag, Cache-Control, Vary, CORS) as Fastify, for each page and prefix, and counts every request', async () => {
    const { key, id } = await s.issue('enterprise');
    let requests = 0;
    for (const url of ['/api/v1/languages', '/api/v1/languages?per_page=3', '/api/v1/languages?per_page=3&page=2', '/v1/languages?has_cartridge=true&q=swa']) {
      const through = await s.get(key, url, { origin: 'https://app.example' });
      const early = await s.get(key, url, { origin: 'https://app.example' });
      const other = await s.get(key, url, { origin: 'https://evil.example' });
      requests += 3;
      assert.equal(through.status, 200, through.body);
      sameAnswer(early, through, url);
      assert.ok(!other.fastify, url);
      assert.match(header(early.headers, 'etag') ?? '', /^"[A-Za-z0-9_-]{32}"$/, url);
      assert.equal(header(early.headers, 'cache-control'), 'no-cache', url);
      // The allowed origin varies with Origin and the RateLimit headers with the key: a cache must keep both apart.
      assert.equal(header(early.headers, 'vary'), 'Origin, Authorization', url);
      assert.equal(header(early.headers, 'access-control-allow-origin'), 'https://app.example', url);
      assert.equal(header(other.headers, 'access-control-allow-origin'), undefined, url);
      assert.equal(header(other.headers, 'vary'), 'Origin, Authorization', url);
      assert.equal(other.body, through.body, url);
    }
    const second = JSON.parse((await s.get(key, '/api/v1/languages?per_page=3&page=2')).body);
    requests++;
    assert.equal(second.meta.page, 2);
    assert.equal(second.data.length, 3);
    assert.equal(await s.used(id), requests);
  });

  it('answers 304 with no body to If-None-Match naming the ETag, counted, as Fastify does; another ETag gets the page', async () => {
    const { key, id } = await s.issue('enterprise');
    const page = await s.get(key, '/api/v1/languages?per_page=4');
    const etag = header(page.headers, 'etag')!;
    // The same page spelled another way: answered by Fastify the first time (its 304), early after.
    const url = '/api/v1/languages?page=1&per_page=4';
    const through = await s.get(key, url, { 'if-none-match': etag, origin: 'https://app.example' });
    assert.equal(through.status, 304);
    assert.equal(header(through.headers, 'content-length'), undefined);
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const early = await s.get(key, url, { 'if-none-match': ifNoneMatch, origin: 'https://app.example' });
      sameAnswer(early, through, ifNoneMatch);
    }
    const stale = await s.get(key, url, { 'if-none-match': '"stale"' });
    assert.ok(!stale.fastify);
    assert.equal(stale.status, 200);
    assert.equal(stale.body, page.body);
    const line = s.lines.find((l) => l.reqId === header(through.headers, 'x-request-id'));
    const earlyLine = s.lines.filter((l) => l.url === url && l.statusCode === 304).at(-1);
    assert.ok(line && earlyLine && earlyLine !== line);
    assert.deepEqual(Object.keys(earlyLine).sort(), Object.keys(line).sort());
    // Counted like any answer (docs/api.md): the page, Fastify's 304, four early 304s and the stale one.
    assert.equal(await s.used(id), 7);
  });

  it('answers HEAD as Fastify does: the headers of the GET with its length, no body; logged as HEAD', async () => {
    const { key, id } = await s.issue('enterprise');
    const url = '/api/v1/languages?per_page=5';
    const through = await s.get(key, url, {}, 'HEAD');
    const early = await s.get(key, url, { 'x-request-id': 'head-0123456789' }, 'HEAD');
    assert.equal(through.status, 200);
    sameAnswer(early, through, 'HEAD');
    assert.equal(early.body, '');
    const got = await s.get(key, url);
    assert.equal(header(early.headers, 'content-length'), String(Buffer.byteLength(got.body)));
    const line = s.lines.find((l) => l.reqId === 'head-0123456789');
    assert.equal(line?.method, 'HEAD');
    assert.equal(line?.statusCode, 200);
    assert.equal(await s.used(id), 3);
  });

  it('leaves to Fastify a revoked key, a limited key (its RateLimit headers, on 304 too), a bad query and a path spelled otherwise', async () => {
    const { key, id } = await s.issue('enterprise');
    const url = '/api/v1/languages?per_page=6';
    const page = await s.get(key, url);
    assert.ok(page.fastify);
    assert.ok(!(await s.get(key, url)).fastify);
    assert.ok((await s.services.keys.revoke(id)).ok);
    const revoked = await s.get(key, url);
    assert.ok(revoked.fastify);
    assert.equal(revoked.status, 401);
    assert.equal(JSON.parse(revoked.body).code, 'key_revoked');
    assert.equal(header(revoked.headers, 'etag'), undefined);

    const limited = await s.issue('startup');
    const counted = await s.get(limited.key, url);
    assert.ok(counted.fastify);
    assert.equal(counted.body, page.body);
    assert.match(header(counted.headers, 'ratelimit') ?? '', /^"daily";r=\d+;t=\d+$/);
    const revalidated = await s.get(limited.key, url, { 'if-none-match': header(page.headers, 'etag')! });
    assert.ok(revalidated.fastify);
    assert.equal(revalidated.status, 304);
    assert.match(header(revalidated.headers, 'ratelimit') ?? '', /^"daily";r=\d+;t=\d+$/);
    assert.equal(await s.used(limited.id), 2);

    const other = await s.issue('enterprise');
    for (const bad of ['/api/v1/languages?per_page=0', '/api/v1/languages?per_page=0']) {
      const refused = await s.get(other.key, bad);
      assert.ok(refused.fastify);
      assert.equal(refused.status, 400);
    }
    await s.get(other.key, '/api/v1/languages');
    const slash = await s.get(other.key, '/api/v1/languages/');
    assert.ok(slash.fastify);
    assert.equal(slash.status, 200);
  });
});

describe('pages of /languages kept no longer than the route keeps them', () => {
  let s: Awaited<ReturnType<typeof listening>>;
  before(async () => {
    s = await listening('*');
  });
  after(() => s.close());

  it('sends a page the route has dropped (512 other queries later) through Fastify again, the same page', async () => {
    const { key } = await s.issue('enterprise');
    const url = '/api/v1/languages?per_page=7';
    const first = await s.get(key, url);
    assert.ok(!(await s.get(key, url)).fastify);
    for (let i = 0; i < 512; i++) assert.equal((await s.get(key, `/api/v1/languages?q=zz${i}`)).status, 200);
    const again = await s.get(key, url);
    assert.ok(again.fastify, 'the page was dropped: Fastify makes it again');
    assert.equal(again.body, first.body);
    assert.equal(header(again.headers, 'etag'), header(first.headers, 'etag'));
    assert.ok(!(await s.get(key, url)).fastify);
  });
});

describe('pages of /languages answered before Fastify, any origin', () => {
  let s: Awaited<ReturnType<typeof listening>>;
  before(async () => {
    s = await listening('*');
  });
  after(() => s.close());

  it('gives the headers Fastify gives, Vary: Authorization after Cache-Control, on 200 and 304', async () => {
    const { key } = await s.issue('enterprise');
    const through = await s.get(key, '/api/v1/languages?per_page=2', { origin: 'https://anywhere.example' });
    const early = await s.get(key, '/api/v1/languages?per_page=2', { origin: 'https://anywhere.example' });
    sameAnswer(early, through, '200');
    assert.equal(header(early.headers, 'vary'), 'Authorization');
    assert.equal(header(early.headers, 'access-control-allow-origin'), '*');
    const names = early.headers.map(([name]) => name);
    assert.ok(names.indexOf('cache-control') < names.indexOf('vary'));
    const etag = header(through.headers, 'etag')!;
    const notModified = await s.get(key, '/api/v1/languages?page=1&per_page=2', { 'if-none-match': etag });
    const earlyNotModified = await s.get(key, '/api/v1/languages?page=1&per_page=2', { 'if-none-match': etag });
    assert.equal(notModified.status, 304);
    sameAnswer(earlyNotModified, notModified, '304');
  });
});
