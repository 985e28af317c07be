// Runs the generic server scenarios of the official MCP conformance suite (@modelcontextprotocol/conformance) against /mcp; scenarios that need the reference server's fixture tools, resources or prompts are listed in fixtures/mcp-conformance-expected-failures.yaml.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { packageRoot } from '../src/config.js';
import { skipOrFailInCi } from './environment.js';
import { harness, type Harness } from './helpers.js';

const cli = path.join(packageRoot, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const baseline = path.join(packageRoot, 'test', 'fixtures', 'mcp-conformance-expected-failures.yaml');
// The suite is a devDependency: missing means `npm ci` was not run, which CI must not hide.
const skip = existsSync(cli) ? false : skipOrFailInCi('@modelcontextprotocol/conformance is not installed (npm ci installs it)');

/** Listens on a free port first, so its origin can be allowed before the app is built. */
async function listening(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

describe('MCP conformance suite against /mcp', { skip }, () => {
  let h: Harness;
  let proxy: Server;
  let port: number;
  before(async () => {
    // The suite sends no credentials: a local proxy adds a Startup key, as a configured client would.
    let target = 0;
    let key = '';
    proxy = createServer((req, res) => {
      const upstream = httpRequest({ host: '127.0.0.1', port: target, method: req.method, path: req.url, headers: { ...req.headers, authorization: `Bearer ${key}` } }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    });
    port = await listening(proxy);
    // The suite's DNS-rebinding scenario expects its localhost origin accepted and a foreign one refused.
    h = await harness({ flags: { mcpOrigins: `http://localhost:${port}` } });
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    target = (h.app.server.address() as AddressInfo).port;
    key = (await h.issue('startup')).key;
  });
  after(async () => {
    await new Promise((resolve) => proxy.close(resolve));
    await h.close();
  });

  it('passes every scenario outside the expected-failures baseline, and fails every one in it', async () => {
    assert.ok(existsSync(cli), 'npm ci installs @modelcontextprotocol/conformance');
    const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = spawn(process.execPath, [cli, 'server', '--url', `http://localhost:${port}/mcp`, '--expected-failures', baseline], { timeout: 600_000 });
      let output = '';
      child.stdout.on('data', (d: Buffer) => (output += d.toString()));
      child.stderr.on('data', (d: Buffer) => (output += d.toString()));
      child.on('close', (exit) => resolve({ code: exit, output }));
    });
    assert.equal(code, 0, output.slice(-4000));
    assert.match(output, /Baseline check passed/);
    for (const scenario of ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection', 'resources-list', 'prompts-list', 'logging-set-level']) {
      assert.match(output, new RegExp(`✓ ${scenario}: [1-9]\\d* passed, 0 failed`), `${scenario} passes`);
    }
  });
});
