// Runs what the README tells a newcomer to run on a fresh clone: its MCP client configuration, exactly as written (only the placeholders filled in), and its eval example on the gold file in the repository.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { loadConfig, packageRoot } from '../src/config.js';
import { ensureDemoKeys } from '../src/demo.js';
import { openServices } from '../src/services.js';
import { tempDir } from './helpers.js';

const readme = readFileSync(path.join(packageRoot, 'README.md'), 'utf8');
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([k, v]) => !k.startsWith('LUGHA_') && v !== undefined)) as Record<string, string>;

interface ServerEntry {
  command: string;
  args: string[];
  env: Record<string, string>;
}

describe("the README's MCP client configuration", () => {
  const dataDir = tempDir('lugha-readme-');
  const cwd = tempDir('lugha-readme-cwd-');
  let startupKey: string;
  before(async () => {
    // The key the README points at: the startup line of the demo keys `npm start` writes.
    const services = await openServices(loadConfig({ env: {}, flags: { dataDir, logLevel: 'silent' } }));
    try {
      startupKey = (await ensureDemoKeys(services)).keys.find((k) => k.tier === 'startup')!.key;
    } finally {
      await services.close();
    }
  });
  after(() => {
    for (const dir of [dataDir, cwd]) rmSync(dir, { recursive: true, force: true });
  });

  it('starts the server as written and answers initialize and tools/list over stdio', async () => {
    const block = /## AI assistants \(MCP\)[\s\S]*?```json\n([\s\S]*?)\n```/.exec(readme);
    assert.ok(block, 'README.md has a JSON block in its MCP section');
    const config = JSON.parse(block[1]!) as { mcpServers: Record<string, ServerEntry> };
    const entry = config.mcpServers.lugha;
    assert.ok(entry, 'an mcpServers.lugha entry');
    // Only the documented placeholders change: the clone's folder, and the key (its data folder a fresh one here).
    const fill = (s: string) => s.replace('/path/to/lugha/data', dataDir).replace('/path/to/lugha', packageRoot).replace('lugha_…', startupKey);
    const args = entry.args.map(fill);
    const env = Object.fromEntries(Object.entries(entry.env).map(([k, v]) => [k, fill(v)]));
    assert.equal(env.LUGHA_API_KEY, startupKey, 'the key goes in LUGHA_API_KEY');
    // A client finds `command` on its PATH; the Node running these tests comes first there.
    const PATH = `${path.dirname(process.execPath)}${path.delimiter}${cleanEnv.PATH ?? ''}`;
    const client = new Client({ name: 'readme-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: entry.command, args, env: { ...cleanEnv, PATH, ...env }, cwd, stderr: 'pipe' }));
    try {
      assert.equal(client.getServerVersion()?.name, 'lugha');
      const { tools } = await client.listTools();
      for (const name of ['conjugate_verb', 'get_noun_classes', 'syllabify', 'spell_number'])
        assert.ok(
          tools.some((t) => t.name === name),
          name,
        );
      const result = await client.callTool({ name: 'conjugate_verb', arguments: { language: 'swh', root: 'penda', subject: '3pl', tense: 'future', polarity: 'negative', object: 'c7' } });
      assert.notEqual(result.isError, true, JSON.stringify(result));
      assert.match(JSON.stringify(result.content), /hawatakipenda/);
    } finally {
      await client.close();
    }
  });
});

describe("the README's eval example", () => {
  it('runs as written on the gold file in the repository and ends with the accuracy line', () => {
    const line = /^npx lugha (eval inflection [^#\n]*?)\s+#/m.exec(readme);
    assert.ok(line, 'README.md has an `npx lugha eval inflection` example');
    const args = line[1]!.trim().split(/\s+/);
    const result = spawnSync(process.execPath, [path.join(packageRoot, 'bin', 'lugha.js'), ...args], { cwd: packageRoot, encoding: 'utf8', env: cleanEnv, timeout: 120_000 });
    assert.equal(result.status, 0, result.stderr);
    const last = result.stdout.trim().split('\n').at(-1) ?? '';
    assert.match(last, /^accuracy: \d+\.\d\d% \((\d+)\/(\d+)\)$/);
    const [, right, cells] = /\((\d+)\/(\d+)\)/.exec(last)!;
    assert.ok(Number(cells) > 150 && Number(right) <= Number(cells), last);
  });
});
