// Pins the operator's command line as later tooling calls it: keys, config and serve --demo, run as `lugha` from the built package.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { packageRoot } from '../src/config.js';
import { tempDir } from './helpers.js';

const bin = path.join(packageRoot, 'bin', 'lugha.js');
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('LUGHA_')));

function lugha(args: string[], env: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: { ...cleanEnv, ...env }, timeout: 30_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('lugha keys', () => {
  const dataDir = tempDir();
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('creates a key and prints it once as JSON with the documented fields', () => {
    const out = lugha(['keys', 'create', '--tier', 'startup', '--offer', 'pilot', '--languages', 'swh,zul,sna', '--name', 'acme pilot', '--data-dir', dataDir, '--json']);
    assert.equal(out.code, 0, out.stderr);
    const created = JSON.parse(out.stdout);
    assert.deepEqual(Object.keys(created).sort(), ['expires_at', 'id', 'key', 'languages', 'offer', 'tier']);
    assert.match(created.key, /^lugha_[0-9A-Za-z]{43}$/);
    assert.deepEqual(created.languages, ['swh', 'zul', 'sna']);
    const days = (Date.parse(created.expires_at) - Date.now()) / 86_400_000;
    assert.ok(days > 74.9 && days <= 75, `pilot expires in 75 days, got ${days}`);
    const list = lugha(['keys', 'list', '--data-dir', dataDir, '--json']);
    const listed = JSON.parse(list.stdout);
    assert.equal(listed.length, 1);
    assert.equal(listed[0].id, created.id);
    assert.equal(listed[0].name, 'acme pilot');
    assert.equal(listed[0].status, 'active');
    assert.equal(list.stdout.includes(created.key), false, 'a listing never shows the key');
  });

  it('refuses a pilot with two languages, with a clear message and exit code 2', () => {
    const out = lugha(['keys', 'create', '--tier', 'startup', '--offer', 'pilot', '--languages', 'swh,zul', '--data-dir', dataDir]);
    assert.equal(out.code, 2);
    assert.match(out.stderr, /exactly 3 languages/);
    const bad = lugha(['keys', 'create', '--tier', 'platinum', '--offer', 'full', '--data-dir', dataDir]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /unknown tier "platinum"/);
  });

  it('rotates with a grace period and revokes', () => {
    const created = JSON.parse(lugha(['keys', 'create', '--tier', 'academic', '--offer', 'full', '--data-dir', dataDir, '--json']).stdout);
    const rotated = lugha(['keys', 'rotate', created.id, '--grace', '2h', '--data-dir', dataDir, '--json']);
    assert.equal(rotated.code, 0, rotated.stderr);
    const r = JSON.parse(rotated.stdout);
    assert.notEqual(r.key, created.key);
    const graceHours = (Date.parse(r.previous_key_retires_at) - Date.now()) / 3_600_000;
    assert.ok(graceHours > 1.9 && graceHours <= 2);
    const listed = JSON.parse(lugha(['keys', 'list', '--data-dir', dataDir, '--json']).stdout);
    assert.equal(listed.find((k: { id: string }) => k.id === created.id).active_prefixes.length, 2);
    assert.equal(lugha(['keys', 'rotate', created.id, '--grace', 'soon', '--data-dir', dataDir]).code, 2);
    const revoked = lugha(['keys', 'revoke', created.id, '--data-dir', dataDir]);
    assert.equal(revoked.code, 0);
    assert.match(revoked.stdout, /revoked key_/);
    const again = lugha(['keys', 'revoke', created.id, '--data-dir', dataDir]);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /already revoked/);
  });
});

describe('lugha config', () => {
  it('prints the resolved configuration', () => {
    const out = lugha(['config', '--json'], { LUGHA_PORT: '9999' });
    assert.equal(out.code, 0, out.stderr);
    assert.equal(JSON.parse(out.stdout).port, 9999);
  });

  it('names each bad value and exits 2', () => {
    const out = lugha(['config'], { LUGHA_PORT: 'x', LUGHA_BODY_LIMIT: '-1' });
    assert.equal(out.code, 2);
    assert.match(out.stderr, /LUGHA_PORT \(--port\)/);
    assert.match(out.stderr, /LUGHA_BODY_LIMIT \(--body-limit\)/);
  });
});

describe('lugha --version', () => {
  it('prints the package version and exits 0, and --help still lists every command', () => {
    const version = lugha(['--version']);
    assert.equal(version.code, 0, version.stderr);
    assert.equal(version.stdout.trim(), (JSON.parse(readFileSync(path.join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version);
    const help = lugha(['--help']);
    assert.equal(help.code, 0, help.stderr);
    for (const command of ['serve', 'keys', 'conjugate', 'analyze', 'mcp', 'hfst', 'cartridge']) assert.match(help.stdout, new RegExp(`^\\s+${command}\\b`, 'm'));
  });
});

describe('lugha serve --demo', () => {
  it('creates one demo key per tier, serves them, reuses them on restart and stops cleanly on SIGTERM', async () => {
    const dataDir = tempDir();
    try {
      const first = await runServer(dataDir);
      const file = path.join(dataDir, 'demo-keys.json');
      const demo = JSON.parse(readFileSync(file, 'utf8')).keys as Array<{ tier: string; key: string }>;
      assert.deepEqual(
        demo.map((k) => k.tier),
        ['evaluation', 'academic', 'startup', 'enterprise'],
      );
      assert.equal(statSync(file).mode & 0o077, 0, 'demo-keys.json is private to its owner');
      for (const k of demo) assert.ok(first.stdout.includes(k.key), 'the demo keys are printed');
      const res = await fetch(`${first.url}/api/v1/languages`, { headers: { authorization: `Bearer ${demo[0]!.key}` } });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('ratelimit-policy'), '"daily";q=100;w=86400');
      assert.equal(await first.stop(), 0);
      const second = await runServer(dataDir);
      assert.match(second.stdout, /reused/);
      assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')).keys, JSON.parse(JSON.stringify(demo)));
      assert.equal(await second.stop(), 0);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

/** Starts `lugha serve --demo` on a free port; resolves once it listens. */
function runServer(dataDir: string): Promise<{ url: string; stdout: string; stop(): Promise<number | null> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, 'serve', '--demo', '--port', '0', '--data-dir', dataDir, '--log-level', 'warn'], {
      env: cleanEnv,
    });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start: ${stdout} ${stderr}`));
    }, 20_000);
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.on('data', (d) => {
      stdout += d;
      const match = /listening on (http:\/\/[^\s]+)/.exec(stdout);
      if (!match) return;
      clearTimeout(timer);
      resolve({
        url: match[1]!,
        stdout,
        stop: () =>
          new Promise((done) => {
            child.once('exit', (code) => done(code));
            child.kill('SIGTERM');
          }),
      });
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${stderr}`)));
  });
}
