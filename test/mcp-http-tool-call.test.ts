// Pins the direct answer to a lone tools/call on /mcp (src/mcp/http-tool-call.ts): for every listed tool, on both
// protocol revisions, for a key that may call it and one that may not, with good and bad arguments, the route's
// answer is the one the SDK's own handler gives for the same request, byte for byte; requests it must not answer
// go to the SDK; and a call answered from the conjugation cache is still metered.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, createMcpHandler, LOG_LEVEL_META_KEY, PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';
import type { Principal } from '../src/access/key-service.js';
import { directToolCall } from '../src/mcp/http-tool-call.js';
import { tools } from '../src/mcp/registry.js';
import { createLughaMcpServer } from '../src/mcp/server.js';
import { harness, type Harness } from './helpers.js';

type Era = 'legacy' | 'modern';
const toolsByName = new Map(tools.map((tool) => [tool.name, tool]));
const envelope = { [PROTOCOL_VERSION_META_KEY]: '2026-07-28', [CLIENT_INFO_META_KEY]: { name: 'lugha-test', version: '1' }, [CLIENT_CAPABILITIES_META_KEY]: {} };

/** A tools/call as the SDK clients send it on each revision: headers and JSON-RPC body. */
function toolCall(era: Era, name: string, args: Record<string, unknown> | undefined, id: string | number): { headers: Record<string, string>; body: Record<string, unknown> } {
  const params = { name, ...(args === undefined ? {} : { arguments: args }), ...(era === 'modern' ? { _meta: envelope } : {}) };
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  if (era === 'legacy') headers['mcp-protocol-version'] = '2025-11-25';
  else Object.assign(headers, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name });
  return { headers, body: { method: 'tools/call', params, jsonrpc: '2.0', id } };
}

describe('/mcp answers a lone tools/call directly, as the SDK would', () => {
  let h: Harness;
  const sdk = createMcpHandler((context) => createLughaMcpServer({ services: h.services, principal: context.authInfo?.extra?.principal as Principal }));
  const keys: Record<string, { key: string; principal: Principal }> = {};
  /** Each tool's arguments from the examples its tool list advertises: the required ones, and all of them. */
  const argumentSets = new Map<string, Array<Record<string, unknown> | undefined>>();

  before(async () => {
    h = await harness();
    for (const tier of ['enterprise', 'academic'] as const) {
      const { key } = await h.issue(tier);
      const auth = await h.services.keys.authenticate(`Bearer ${key}`);
      assert.ok(auth.ok);
      keys[tier] = { key, principal: auth.value };
    }
    const listed = await h.call(keys.enterprise!.key, { method: 'POST', url: '/mcp', ...payload(toolList()) });
    const list = JSON.parse(listed.body.replace(/^event: message\ndata: /, '')) as {
      result: { tools: Array<{ name: string; inputSchema: { properties?: Record<string, { examples?: unknown[] }>; required?: string[] } }> };
    };
    assert.equal(list.result.tools.length, tools.length);
    for (const tool of list.result.tools) {
      const properties = Object.entries(tool.inputSchema.properties ?? {});
      const example = (names: string[]) => Object.fromEntries(properties.filter(([name]) => names.includes(name)).map(([name, schema]) => [name, schema.examples?.[0]]));
      argumentSets.set(tool.name, [example(tool.inputSchema.required ?? []), example(properties.map(([name]) => name)), undefined, { unknown_argument: 1 }]);
    }
  });
  after(async () => {
    await sdk.close();
    await h.close();
  });

  function toolList() {
    return { headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: { method: 'tools/list', params: {}, jsonrpc: '2.0', id: 1 } };
  }
  function payload(request: { headers: Record<string, string>; body: unknown }) {
    return { headers: request.headers, payload: JSON.stringify(request.body) };
  }

  /** The route's answer and the SDK handler's answer to the same request: status, the headers the SDK sets, body. */
  async function bothWays(tier: string, request: { headers: Record<string, string>; body: Record<string, unknown> }) {
    const { key, principal } = keys[tier]!;
    const route = await h.call(key, { method: 'POST', url: '/mcp', ...payload(request) });
    const reference = await sdk.fetch(new Request('http://127.0.0.1/mcp', { method: 'POST', headers: request.headers, body: JSON.stringify(request.body) }), {
      authInfo: { token: '', clientId: principal.keyId, scopes: [], extra: { principal } },
      parsedBody: request.body,
    });
    const sdkHeaders: Record<string, string> = {};
    reference.headers.forEach((value, name) => (sdkHeaders[name] = value));
    const routeHeaders = Object.fromEntries(Object.keys(sdkHeaders).map((name) => [name, route.headers[name]]));
    return { route: { status: route.statusCode, headers: routeHeaders, body: route.body }, sdk: { status: reference.status, headers: sdkHeaders, body: await reference.text() } };
  }

  for (const era of ['legacy', 'modern'] as const) {
    it(`gives every tool's answer byte for byte as the SDK does (${era} revision, both tiers, good and bad arguments)`, async () => {
      let compared = 0;
      let successes = 0;
      let refusals = 0;
      for (const tool of tools) {
        for (const tier of ['enterprise', 'academic']) {
          for (const [n, args] of argumentSets.get(tool.name)!.entries()) {
            const request = toolCall(era, tool.name, args, n % 2 === 0 ? compared : `call-${compared}`);
            assert.ok(directToolCall(request.headers, request.body, toolsByName), `${tool.name} ${JSON.stringify(args)} would go to the SDK`);
            const { route, sdk: reference } = await bothWays(tier, request);
            assert.deepEqual(route, reference, `${era} ${tier} ${tool.name} ${JSON.stringify(args)}`);
            assert.equal(route.status, 200);
            if (route.body.includes('"isError":true')) refusals++;
            else successes++;
            compared++;
          }
        }
      }
      // Both kinds of answer were compared, for every tool.
      assert.equal(compared, tools.length * 2 * 4);
      assert.ok(successes >= tools.length, `only ${successes} successful answers compared`);
      assert.ok(refusals >= tools.length, `only ${refusals} refusals compared`);
    });
  }

  it('answers the same call sent again with new ids as the SDK does (the kept classification and result text)', async () => {
    const args = { language: 'swh', root: 'lima', subject: '1pl', tense: 'future', polarity: 'negative' };
    for (const era of ['legacy', 'modern'] as const) {
      for (const id of [1, 2, 'two', '', 0, 9_007_199_254_740_991, 'a "quoted" id']) {
        const request = toolCall(era, 'conjugate_verb', args, id);
        assert.ok(directToolCall(request.headers, request.body, toolsByName), `${era} ${JSON.stringify(id)}`);
        const { route, sdk: reference } = await bothWays('enterprise', request);
        assert.deepEqual(route, reference, `${era} id ${JSON.stringify(id)}`);
        assert.ok(route.body.includes(`"id":${JSON.stringify(id)}}`), `${era}: the answer names id ${JSON.stringify(id)}`);
        // Negative future, 1pl: ha-tu-ta-lima (the regular Swahili paradigm, as hamkusoma in the test below).
        assert.match(route.body, /"surface_form":"hatutalima"/);
      }
      // The same message with headers that no longer agree with it, after it was answered directly: the SDK's.
      const request = toolCall(era, 'conjugate_verb', args, 3);
      const headers = era === 'modern' ? { ...request.headers, 'mcp-name': 'analyze_form' } : { ...request.headers, 'mcp-protocol-version': '2026-07-28' };
      assert.equal(directToolCall(headers, request.body, toolsByName), undefined, era);
    }
  });

  it('leaves to the SDK every request it cannot answer exactly as the SDK would', () => {
    const args = { language: 'swh', root: 'penda', subject: '1sg', tense: 'present' };
    const legacy = toolCall('legacy', 'conjugate_verb', args, 7);
    const modern = toolCall('modern', 'conjugate_verb', args, 7);
    assert.ok(directToolCall(legacy.headers, legacy.body, toolsByName));
    assert.ok(directToolCall(modern.headers, modern.body, toolsByName));
    const withParams = (request: typeof legacy, params: Record<string, unknown>) => ({ ...request.body, params: { ...(request.body.params as object), ...params } });
    const declined: Array<[string, Record<string, string>, unknown]> = [
      ['a batch', legacy.headers, [legacy.body]],
      ['another method', legacy.headers, { ...legacy.body, method: 'tools/list' }],
      ['a notification', legacy.headers, { jsonrpc: '2.0', method: 'tools/call', params: legacy.body.params }],
      ['an unknown tool', legacy.headers, withParams(legacy, { name: 'no_such_tool' })],
      ['arguments that are not an object', legacy.headers, withParams(legacy, { arguments: ['penda'] })],
      ['a fractional id', legacy.headers, { ...legacy.body, id: 1.5 }],
      ['an extra member', legacy.headers, { ...legacy.body, extra: true }],
      ['a progress token (2025-11-25)', legacy.headers, withParams(legacy, { _meta: { progressToken: 1 } })],
      ['an unsupported version header', { ...legacy.headers, 'mcp-protocol-version': '1999-01-01' }, legacy.body],
      ['no event-stream in Accept', { ...legacy.headers, accept: 'application/json' }, legacy.body],
      ['another content type', { ...legacy.headers, 'content-type': 'text/plain' }, legacy.body],
      ['a log level (2026-07-28)', modern.headers, withParams(modern, { _meta: { ...envelope, [LOG_LEVEL_META_KEY]: 'debug' } })],
      ['a tool name header naming another tool', { ...modern.headers, 'mcp-name': 'analyze_form' }, modern.body],
      ['no method header (2026-07-28)', Object.fromEntries(Object.entries(modern.headers).filter(([name]) => name !== 'mcp-method')), modern.body],
      ['a 2025 version header on a 2026 envelope', { ...modern.headers, 'mcp-protocol-version': '2025-11-25' }, modern.body],
      ['an envelope naming another revision', modern.headers, withParams(modern, { _meta: { ...envelope, [PROTOCOL_VERSION_META_KEY]: '2027-01-01' } })],
    ];
    for (const [what, headers, body] of declined) assert.equal(directToolCall(headers, body, toolsByName), undefined, what);
  });

  it('meters a conjugation answered from the cache like any other call', async () => {
    const { key, id } = await h.issue('startup');
    const used = async () => (await h.services.keys.list()).find((k) => k.id === id)!.usedToday;
    const before = await used();
    const request = toolCall('legacy', 'conjugate_verb', { language: 'swh', root: 'soma', subject: '2pl', tense: 'past', polarity: 'negative' }, 1);
    const answers = new Set<string>();
    for (let i = 0; i < 3; i++) answers.add((await h.call(key, { method: 'POST', url: '/mcp', ...payload(request) })).body);
    assert.equal(answers.size, 1);
    assert.match([...answers][0]!, /"surface_form":"hamkusoma"/);
    assert.equal((await used()) - before, 3);
  });
});
