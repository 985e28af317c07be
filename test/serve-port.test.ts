// Pins what `lugha serve` (and so `npm start`) says when its port is taken: one line naming the port and how to choose another.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { packageRoot } from '../src/config.js';
import { tempDir } from './helpers.js';

const bin = path.join(packageRoot, 'bin', 'lugha.js');
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('LUGHA_')));

describe('lugha serve on a busy port', () => {
  let busy: Server;
  let port: number;
  const dataDir = tempDir();
  before(async () => {
    busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    port = (busy.address() as { port: number }).port;
  });
  after(() => {
    busy.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  for (const how of ['--port', 'LUGHA_PORT'] as const) {
    it(`exits 1 with one line naming the port and --port / LUGHA_PORT (port given by ${how})`, () => {
      const args = [bin, 'serve', '--demo', '--data-dir', dataDir, '--log-level', 'warn', ...(how === '--port' ? ['--port', String(port)] : [])];
      const env = { ...cleanEnv, ...(how === 'LUGHA_PORT' ? { LUGHA_PORT: String(port) } : {}) };
      const result = spawnSync(process.execPath, args, { encoding: 'utf8', env, timeout: 60_000 });
      assert.equal(result.status, 1, result.stderr);
      const lines = result.stderr.trim().split('\n');
      assert.equal(lines.length, 1, `one line, got:\n${result.stderr}`);
      assert.equal(lines[0], `lugha: port ${port} on 127.0.0.1 is already in use; choose another with --port <n> or LUGHA_PORT (npm start -- --port 8081)`);
      assert.doesNotMatch(result.stderr, /EADDRINUSE|\n\s+at /);
    });
  }
});
