// Pins that the data directory is 0700 and the database files 0600 whatever made the directory (an operator's mkdir with a 022 umask, or a database file from before).
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { openSqliteStore, SQLITE_FILE } from '../src/store/sqlite-store.js';
import { tempDir } from './helpers.js';

const modeOf = (p: string) => statSync(p).mode & 0o777;

describe('data directory permissions', () => {
  it('tightens an operator-made 0755 directory to 0700 and creates lugha.db 0600', async () => {
    const root = tempDir('lugha-perm-');
    const dataDir = path.join(root, 'data');
    mkdirSync(dataDir, { mode: 0o755 });
    chmodSync(dataDir, 0o755);
    const store = await openSqliteStore({ dataDir });
    try {
      await store.keys.list();
      assert.equal(modeOf(dataDir), 0o700);
      assert.equal(modeOf(path.join(dataDir, SQLITE_FILE)), 0o600);
      for (const suffix of ['-wal', '-shm']) {
        const file = path.join(dataDir, SQLITE_FILE + suffix);
        try {
          assert.equal(modeOf(file), 0o600, `${SQLITE_FILE}${suffix}`);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        }
      }
    } finally {
      await store.close();
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('tightens a world-readable database file left by an earlier version', async () => {
    const dataDir = tempDir('lugha-perm-');
    const file = path.join(dataDir, SQLITE_FILE);
    writeFileSync(file, '');
    chmodSync(file, 0o644);
    const store = await openSqliteStore({ dataDir });
    try {
      assert.equal(modeOf(file), 0o600);
    } finally {
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
