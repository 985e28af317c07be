// Pins /mcp over Streamable HTTP as clients meet it: bearer auth, Origin validation, tier gating (evaluation, academic, startup) and per-call metering.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Tier } from '../src/access/plans.js';
import { tools } from '../src/mcp/registry.js';
import { harness, problemOf, type Harness } from './helpers.js';
import { textOf } from './mcp-support.js';

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
};
const post = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST' as const,
  url: '/mcp',
  headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
  payload: JSON.stringify(body),
});

describe('/mcp over Streamable HTTP', () => {
  let h: Harness;
  let url: URL;
  before(async () => {
    h = await harness({ flags: { mcpOrigins: 'https://app.example.org' } });
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    url = new URL(`http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}/mcp`);
  });
  after(async () => h.close());

  async function connect(key: string, mode: 'legacy' | 'auto' = 'legacy'): Promise<Client> {
    const client = new Client({ name: 'lugha-http-test', version: '1.0.0' }, { versionNegotiation: { mode } });
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
    return client;
  }

  async function usedToday(keyId: string, tier: Tier): Promise<number> {
    const keys = await h.services.keys.list();
    const key = keys.find((k) => k.id === keyId)!;
    assert.equal(key.tier, tier);
    return key.usedToday;
  }

  it('answers 401 problem+json with WWW-Authenticate without a key', async () => {
    const response = await h.call(undefined, post(initialize));
    assert.equal(response.statusCode, 401);
    assert.equal(problemOf(response).code, 'key_missing');
    assert.match(String(response.headers['www-authenticate']), /^Bearer/);
  });

  it('refuses an Evaluation key at initialize with 403 not_in_tier, naming the tiers that have MCP', async () => {
    const { key } = await h.issue('evaluation', 'evaluation');
    const response = await h.call(key, post(initialize));
    assert.equal(response.statusCode, 403);
    const problem = problemOf(response);
    assert.equal(problem.code, 'not_in_tier');
    assert.match(String(problem.detail), /Academic/);
    const client = new Client({ name: 'lugha-http-test', version: '1.0.0' });
    await assert.rejects(client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { Authorization: `Bearer ${key}` } } })), /403/);
  });

  it('refuses a cross-origin request whose Origin is not listed, before looking at the key', async () => {
    const { key } = await h.issue('startup');
    const foreign = await h.call(key, post(initialize, { origin: 'https://evil.example' }));
    assert.equal(foreign.statusCode, 403);
    assert.equal(problemOf(foreign).code, 'origin_not_allowed');
    const noKey = await h.call(undefined, post(initialize, { origin: 'http://127.0.0.1.nip.io' }));
    assert.equal(problemOf(noKey).code, 'origin_not_allowed');
    const listed = await h.call(key, post(initialize, { origin: 'https://app.example.org' }));
    assert.equal(listed.statusCode, 200, listed.body);
    assert.equal(JSON.parse(listed.body.replace(/^[\s\S]*?data: /, '').trim() || listed.body).result.serverInfo.name, 'lugha');
  });

  it('lets a browser client on a listed origin send every header the SDK sends (CORS preflight)', async () => {
    const { key } = await h.issue('startup');
    // Record the request headers real SDK clients send, for both protocol generations and a tool call.
    const sent = new Set<string>();
    const recording = (input: string | URL | Request, init?: RequestInit) => {
      new Headers(init?.headers).forEach((_value, name) => sent.add(name));
      return fetch(input, init);
    };
    for (const mode of ['legacy', 'auto'] as const) {
      const client = new Client({ name: 'lugha-cors-test', version: '1.0.0' }, { versionNegotiation: { mode } });
      await client.connect(new StreamableHTTPClientTransport(url, { fetch: recording, requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
      await client.callTool({ name: 'list_languages', arguments: {} });
      await client.close();
    }
    // Headers a browser may send without asking; every other one must be allowed by the preflight.
    const safelisted = new Set(['accept', 'accept-language', 'content-language']);
    const needed = [...sent].filter((name) => !safelisted.has(name)).sort();
    assert.ok(needed.includes('authorization') && needed.includes('mcp-protocol-version'), `recorded: ${needed.join(', ')}`);
    const preflight = await h.call(undefined, {
      method: 'OPTIONS',
      url: '/mcp',
      headers: { origin: 'https://app.example.org', 'access-control-request-method': 'POST', 'access-control-request-headers': needed.join(', ') },
    });
    assert.equal(preflight.statusCode, 204);
    const allowed = String(preflight.headers['access-control-allow-headers'])
      .toLowerCase()
      .split(/\s*,\s*/);
    assert.deepEqual(
      needed.filter((name) => !allowed.includes(name)),
      [],
      'headers a browser would be refused',
    );
    const answer = await h.call(key, post(initialize, { origin: 'https://app.example.org' }));
    assert.match(String(answer.headers['access-control-expose-headers']), /Mcp-Protocol-Version/);
  });

  it('serves every tool to a Startup key and counts one request per tool call, not per list', async () => {
    const { key, id } = await h.issue('startup');
    const client = await connect(key);
    assert.equal(client.getNegotiatedProtocolVersion(), '2025-11-25');
    const listed = await client.listTools();
    assert.deepEqual(listed.tools.map((t) => t.name).sort(), tools.map((t) => t.name).sort());
    assert.equal(await usedToday(id, 'startup'), 0, 'initialize and tools/list are not metered');
    const result = await client.callTool({ name: 'conjugate_verb', arguments: { language: 'swh', root: 'penda', subject: '1sg', tense: 'present' } });
    assert.equal(result.isError, undefined);
    assert.equal((result.structuredContent as { surface_form: string }).surface_form, 'ninapenda');
    await client.callTool({ name: 'list_languages', arguments: {} });
    assert.equal(await usedToday(id, 'startup'), 2);
    await client.close();
  });

  it('speaks the 2026-07-28 revision to a client that negotiates it', async () => {
    const { key } = await h.issue('startup');
    const client = await connect(key, 'auto');
    assert.equal(client.getNegotiatedProtocolVersion(), '2026-07-28');
    const result = await client.callTool({ name: 'analyze_form', arguments: { form: 'ninapenda', language: 'swh' } });
    assert.equal((result.structuredContent as { analyses: Array<{ lemma: string }> }).analyses[0]!.lemma, 'penda');
    await client.close();
  });

  it('gives an Academic key the read-only tools and refuses generative ones with an explanation, uncounted', async () => {
    const { key, id } = await h.issue('academic');
    const client = await connect(key);
    const listed = await client.listTools();
    const conjugate = listed.tools.find((t) => t.name === 'conjugate_verb')!;
    assert.match(conjugate.description ?? '', /^\[Not available to this key/);
    assert.doesNotMatch(listed.tools.find((t) => t.name === 'analyze_form')!.description ?? '', /Not available/);
    const refused = await client.callTool({ name: 'conjugate_verb', arguments: { language: 'swh', root: 'penda', subject: '1sg' } });
    assert.equal(refused.isError, true);
    assert.match(textOf(refused), /^not_in_tier: conjugate_verb generates new forms, which needs a Startup or Enterprise key/);
    const allowed = await client.callTool({ name: 'validate_form', arguments: { language: 'swh', form: 'ninapenda' } });
    assert.equal(allowed.isError, undefined);
    assert.equal(await usedToday(id, 'academic'), 1, 'only the served call counts');
    await client.close();
  });

  it('turns a spent daily quota into a tool error that says when it resets', async () => {
    const { key, id } = await h.issue('academic');
    const auth = await h.services.keys.authenticate(`Bearer ${key}`);
    assert.ok(auth.ok);
    for (let i = 0; i < 499; i++) await h.services.meter.consume(auth.value);
    const client = await connect(key);
    const last = await client.callTool({ name: 'list_languages', arguments: {} });
    assert.equal(last.isError, undefined, 'the 500th request of the day is served');
    const spent = await client.callTool({ name: 'list_languages', arguments: {} });
    assert.equal(spent.isError, true);
    assert.match(textOf(spent), /^quota_exceeded: this key's 500 requests for today are spent; the count resets at 00:00 UTC, in 43200 s/);
    assert.equal(await usedToday(id, 'academic'), 500);
    await client.close();
  });
});
