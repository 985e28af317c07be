// A conjugation asked again over a socket is answered before Fastify (src/http/early-answer.ts)
// when the key is cached and counted at once. What the caller gets must not change: the same
// status, body and headers, in the same order, as the answer through Fastify; the request counted;
// the same log line; and every other request (a revoked key, a limited key, HEAD, an unknown
// query) answered by Fastify as before.
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

let app: FastifyInstance;
let services: Services;
let dataDir: string;
let origin: string;
/** Requests that went through Fastify (its onResponse hook ran). */
let throughFastify = 0;
const lines: Array<Record<string, unknown>> = [];

before(async () => {
  dataDir = tempDir();
  const config = loadConfig({ env: {}, flags: { dataDir, logLevel: 'info', corsOrigins: 'https://app.example' } });
  services = await openServices(config);
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  app = await buildApp(services, { logger: { level: 'info', stream } });
  app.addHook('onResponse', (_request, _reply, done) => {
    throughFastify++;
    done();
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening on a port');
  origin = `http://127.0.0.1:${address.port}`;
});
after(async () => {
  await app.close();
  await services.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function issue(tier: 'enterprise' | 'startup'): Promise<{ key: string; id: string }> {
  const issued = await services.keys.create({ tier, offer: 'full' });
  if (!issued.ok) throw new Error(issued.message);
  return { key: issued.value.key, id: issued.value.record.id };
}

/** One request over a socket; the response headers as written on the wire (names lower-cased), in order. */
async function get(key: string | undefined, url: string, headers: Record<string, string> = {}, method = 'GET') {
  const before = throughFastify;
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    request(`${origin}${url}`, { method, headers: { ...headers, ...(key === undefined ? {} : { authorization: `Bearer ${key}` }) } }, resolve)
      .on('error', reject)
      .end();
  });
  let body = '';
  for await (const chunk of response) body += String(chunk);
  const raw = response.rawHeaders;
  const pairs: Array<[string, string]> = [];
  for (let i = 0; i < raw.length; i += 2) pairs.push([raw[i]!.toLowerCase(), raw[i + 1]!]);
  return { status: response.statusCode ?? 0, body, headers: pairs, fastify: throughFastify > before };
}

/** Header names and values in order, the per-request ones (date, request id) by name only. */
const shape = (headers: Array<[string, string]>) => headers.map(([name, value]) => (name === 'date' || name === 'x-request-id' ? name : `${name}: ${value}`));
const header = (headers: Array<[string, string]>, name: string) => headers.find(([n]) => n === name)?.[1];

describe('kept conjugations answered before Fastify', () => {
  it('gives the same status, body and headers as the answer through Fastify, and counts every request', async () => {
    const { key, id } = await issue('enterprise');
    const first = await get(key, WORKED, { origin: 'https://app.example' });
    const second = await get(key, WORKED, { origin: 'https://app.example' });
    const third = await get(key, WORKED);
    assert.equal(first.status, 200, first.body);
    assert.ok(first.fastify, 'the first answer is conjugated by the route');
    assert.ok(!second.fastify && !third.fastify, 'a kept answer is sent before Fastify');
    assert.equal(second.status, 200);
    assert.equal(second.body, first.body);
    assert.deepEqual(shape(second.headers), shape(first.headers));
    assert.equal(header(second.headers, 'access-control-allow-origin'), 'https://app.example');
    assert.equal(header(third.headers, 'access-control-allow-origin'), undefined, 'an unlisted origin is not allowed');
    assert.equal(header(third.headers, 'vary'), 'Origin');
    assert.equal(JSON.parse(second.body).data[0].surface_form, 'hawatakipenda');
    assert.notEqual(header(second.headers, 'x-request-id'), header(first.headers, 'x-request-id'));
    // SIGTERM-free check of the count: the counter's own reading (group commit flushed first).
    assert.equal(await services.store.quota.used(id, utcDay(new Date())), 3);
  });

  it('writes the same log line as Fastify, with the id the caller sent when it looks like one', async () => {
    const { key } = await issue('enterprise');
    await get(key, WORKED);
    const sent = await get(key, WORKED, { 'x-request-id': 'trace-0123456789' });
    assert.ok(!sent.fastify);
    assert.equal(header(sent.headers, 'x-request-id'), 'trace-0123456789');
    const mine = lines.filter((line) => line.reqId === 'trace-0123456789');
    assert.equal(mine.length, 1);
    const line = mine[0]!;
    const through = lines.filter((l) => l.msg === 'request completed' && l.reqId !== 'trace-0123456789').at(-1)!;
    assert.deepEqual(Object.keys(line).sort(), Object.keys(through).sort());
    assert.equal(line.msg, 'request completed');
    assert.equal(line.method, 'GET');
    assert.equal(line.url, WORKED);
    assert.equal(line.statusCode, 200);
    assert.equal(typeof line.responseTime, 'number');
  });

  it('leaves to Fastify a revoked key, a missing key, a limited key, HEAD and a query never answered', async () => {
    const { key, id } = await issue('enterprise');
    assert.equal((await get(key, WORKED)).status, 200);
    assert.ok((await services.keys.revoke(id)).ok);
    const revoked = await get(key, WORKED);
    assert.equal(revoked.status, 401);
    assert.equal(JSON.parse(revoked.body).code, 'key_revoked');
    assert.equal(JSON.parse((await get(undefined, WORKED)).body).code, 'key_missing');

    const limited = await issue('startup');
    await get(limited.key, WORKED);
    const counted = await get(limited.key, WORKED);
    assert.ok(counted.fastify);
    assert.match(header(counted.headers, 'ratelimit') ?? '', /^"daily";r=\d+;t=\d+$/);

    const other = await issue('enterprise');
    const head = await get(other.key, WORKED, {}, 'HEAD');
    assert.equal(head.status, 200);
    assert.ok(head.fastify);
    const unseen = await get(other.key, '/api/v1/conjugate?language=swh&root=penda&subject=1sg&tense=yesterday');
    assert.equal(unseen.status, 400);
    assert.ok(unseen.fastify);
  });
});
