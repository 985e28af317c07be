// Pins `lugha mcp` as MCP clients start it (command + LUGHA_API_KEY): a local store, a remote service through LUGHA_API_URL, and refusals that end the process instead of hanging.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { utcDay } from '../src/access/quota-counter.js';
import { packageRoot } from '../src/config.js';
import { harness, type Harness } from './helpers.js';
import { textOf } from './mcp-support.js';

const bin = path.join(packageRoot, 'bin', 'lugha.js');
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([k, v]) => !k.startsWith('LUGHA_') && v !== undefined)) as Record<string, string>;
const initialize = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`;

/** Runs `lugha mcp` to completion with `input` on stdin (for refusals: the process must end by itself). */
function runMcp(args: string[], env: Record<string, string>) {
  const result = spawnSync(process.execPath, [bin, 'mcp', ...args], { input: initialize, encoding: 'utf8', env: { ...cleanEnv, ...env }, timeout: 20_000 });
  return { code: result.status, signal: result.signal, stdout: result.stdout, stderr: result.stderr };
}

/** As runMcp, without blocking this process (whose event loop serves the remote in the bridge tests). */
function runMcpAsync(args: string[], env: Record<string, string>): Promise<ReturnType<typeof runMcp>> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, 'mcp', ...args], { env: { ...cleanEnv, ...env }, timeout: 20_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    child.stdin.end(initialize);
  });
}

async function stdioClient(args: string[], env: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'lugha-stdio-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp', ...args], env: { ...cleanEnv, ...env }, stderr: 'pipe' }));
  return client;
}

/** Requests counted for key `id` on `day` (the child process meters by the system clock, the harness by its manual one). */
async function usedToday(h: Harness, id: string, day = utcDay(h.clock.now())): Promise<number> {
  return h.services.store.quota.used(id, day);
}

describe('lugha mcp over stdio, local store', () => {
  let h: Harness;
  before(async () => {
    h = await harness();
  });
  after(async () => h.close());

  it('serves the tools to a Startup key from LUGHA_API_KEY and meters each call in the store', async () => {
    const { key, id } = await h.issue('startup');
    const client = await stdioClient(['--data-dir', h.dataDir], { LUGHA_API_KEY: key });
    const { tools } = await client.listTools();
    assert.ok(tools.some((t) => t.name === 'conjugate_verb'));
    const result = await client.callTool({ name: 'conjugate_verb', arguments: { language: 'sw', root: 'kupenda', subject: '3pl', tense: 'future', polarity: 'negative' } });
    assert.equal((result.structuredContent as { surface_form: string }).surface_form, 'hawatapenda');
    assert.match(textOf(result), /^hawatapenda — they will not love/);
    const bad = await client.callTool({ name: 'get_language_info', arguments: { language: 'xyz' } });
    assert.equal(bad.isError, true);
    assert.match(textOf(bad), /language_not_found/);
    await client.close();
    assert.equal(await usedToday(h, id, utcDay(new Date())), 2);
  });

  it('ends with an error naming the tier for an Evaluation key, without serving', async () => {
    const { key } = await h.issue('evaluation', 'evaluation');
    const out = runMcp(['--data-dir', h.dataDir], { LUGHA_API_KEY: key });
    assert.equal(out.signal, null, 'the process ends by itself');
    assert.equal(out.code, 1);
    assert.equal(out.stdout, '', 'nothing is served on stdout');
    assert.match(out.stderr, /not_in_tier: MCP is not part of the Evaluation tier of this key; Academic keys may use the read-only tools/);
  });

  it('ends with an error for a missing or unknown key', async () => {
    const missing = runMcp(['--data-dir', h.dataDir], {});
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /set LUGHA_API_KEY/);
    const unknown = runMcp(['--data-dir', h.dataDir], { LUGHA_API_KEY: `lugha_${'A'.repeat(43)}` });
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /LUGHA_API_KEY is not usable here \(key_unknown\)/);
  });
});

/**
 * A `lugha mcp` driven line by line: `initialize`, then `calls` conjugate_verb calls one after
 * another (each answered before the next is sent); returns the running child.
 */
async function mcpAfterCalls(dataDir: string, key: string, calls: number, env: Record<string, string> = {}): Promise<ChildProcessWithoutNullStreams> {
  const child = spawn(process.execPath, [bin, 'mcp', '--data-dir', dataDir], { env: { ...cleanEnv, LUGHA_API_KEY: key, ...env } });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const gone = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`lugha mcp exited ${code}: ${stderr}`))));
  gone.catch(() => undefined);
  const answers = createInterface({ input: child.stdout });
  const waiting = new Map<number, (line: string) => void>();
  answers.on('line', (line) => {
    const id = (JSON.parse(line) as { id?: number }).id;
    if (id !== undefined) waiting.get(id)?.(line);
  });
  const request = (id: number, method: string, params: unknown) =>
    Promise.race([
      gone,
      new Promise<string>((resolve) => {
        waiting.set(id, resolve);
        child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
      }),
    ]);
  await request(1, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } });
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  for (let i = 0; i < calls; i++) {
    const answer = await request(2 + i, 'tools/call', { name: 'conjugate_verb', arguments: { language: 'swh', root: 'penda', subject: '1sg', tense: 'present' } });
    assert.match(answer, /ninapenda/);
  }
  return child;
}

function exited(child: ChildProcessWithoutNullStreams): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

// An Enterprise key has no daily limit: its calls are counted in memory and written together
// (group commit). A window of 10 s (the longest allowed) keeps them all in memory until the
// process ends, so only what the process does on its way out can put them in the database.
describe('lugha mcp over stdio, counts held for group commit', () => {
  let h: Harness;
  before(async () => {
    h = await harness();
  });
  after(async () => h.close());
  const held = { LUGHA_QUOTA_FLUSH_MS: '10000' };

  it('writes every call of an Enterprise key when the client closes stdin', async () => {
    const { key, id } = await h.issue('enterprise');
    const child = await mcpAfterCalls(h.dataDir, key, 5, held);
    child.stdin.end();
    assert.deepEqual(await exited(child), { code: 0, signal: null });
    assert.equal(await usedToday(h, id, utcDay(new Date())), 5);
  });

  it('writes every call of an Enterprise key when the process is sent SIGTERM or SIGINT, and exits 0', async () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const { key, id } = await h.issue('enterprise');
      const child = await mcpAfterCalls(h.dataDir, key, 4, held);
      child.kill(signal);
      const end = await exited(child);
      assert.equal(await usedToday(h, id, utcDay(new Date())), 4, `${signal}: every answered call is counted`);
      assert.deepEqual(end, { code: 0, signal: null }, `${signal} ends the process by itself`);
    }
  });

  it('keeps, after a kill -9, every call answered well before it (the default window is 250 ms)', async () => {
    const { key, id } = await h.issue('enterprise');
    const child = await mcpAfterCalls(h.dataDir, key, 3);
    // Six windows: ample time for the group commit to run even on a loaded machine.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    child.kill('SIGKILL');
    assert.deepEqual(await exited(child), { code: null, signal: 'SIGKILL' });
    assert.equal(await usedToday(h, id, utcDay(new Date())), 3);
  });
});

describe('lugha mcp over stdio, bridged to a remote service with LUGHA_API_URL', () => {
  let h: Harness;
  let base: string;
  before(async () => {
    h = await harness();
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
  });
  after(async () => h.close());

  it("forwards tool calls to the remote /mcp with the key, which meters them and applies the key's tier", async () => {
    const { key, id } = await h.issue('academic');
    const client = await stdioClient([], { LUGHA_API_KEY: key, LUGHA_API_URL: base });
    const { tools } = await client.listTools();
    assert.match(tools.find((t) => t.name === 'batch_conjugate')!.description ?? '', /^\[Not available to this key/);
    const result = await client.callTool({ name: 'decompose_morphemes', arguments: { language: 'swh', form: 'ninakupenda' } });
    assert.equal((result.structuredContent as { decompositions: Array<{ segmentation: string }> }).decompositions[0]!.segmentation, 'ni-na-ku-pend-a');
    const refused = await client.callTool({ name: 'batch_conjugate', arguments: { language: 'swh', items: [{ root: 'penda', subject: '1sg' }] } });
    assert.equal(refused.isError, true);
    assert.match(textOf(refused), /^not_in_tier: batch_conjugate generates new forms/);
    await client.close();
    assert.equal(await usedToday(h, id), 1);
  });

  it('forwards resources, prompts and completions to the remote, which counts each read', async () => {
    const { key, id } = await h.issue('academic');
    const client = await stdioClient([], { LUGHA_API_KEY: key, LUGHA_API_URL: base });
    const { resources } = await client.listResources();
    assert.ok(resources.some((r) => r.uri === 'lugha://languages/swh/grammar'));
    const grammar = await client.readResource({ uri: 'lugha://languages/swh/grammar' });
    assert.match((grammar.contents[0] as { text: string }).text, /^# Swahili \(swh\)/);
    const { prompts } = await client.listPrompts();
    assert.match(prompts.find((p) => p.name === 'conjugation_table')!.description ?? '', /^\[Not available to this key/);
    const explain = await client.getPrompt({ name: 'explain_word', arguments: { language: 'swh', form: 'ninakupenda' } });
    assert.match((explain.messages[0]!.content as { text: string }).text, /decompose_morphemes/);
    const completed = await client.complete({ ref: { type: 'ref/prompt', name: 'explain_word' }, argument: { name: 'language', value: 'zu' } });
    assert.ok(completed.completion.values.includes('zul'));
    await assert.rejects(client.readResource({ uri: 'lugha://docs/nothing' }), /no document "nothing"/);
    await client.close();
    assert.equal(await usedToday(h, id), 1, 'the one successful read');
  });

  it('ends with the remote refusal for an Evaluation key', async () => {
    const { key } = await h.issue('evaluation', 'evaluation');
    const out = await runMcpAsync([], { LUGHA_API_KEY: key, LUGHA_API_URL: base });
    assert.equal(out.signal, null);
    assert.equal(out.code, 1);
    assert.equal(out.stdout, '');
    assert.ok(out.stderr.includes(`cannot use the Lugha service at ${base}: 403 not_in_tier: MCP is not part of the Evaluation tier`), out.stderr);
  });
});
