// Pins the blob store contract (run against every implementation; the filesystem one now): content-addressed puts, ranges, listing, deletion and cleanup of interrupted writes.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { describe, it } from 'node:test';
import type { BlobStore } from '../src/audio/blob-store.js';
import { FsBlobStore } from '../src/audio/fs-blob-store.js';
import { tempDir } from './helpers.js';

function conformance(name: string, make: () => { store: BlobStore; leaveTemporary: () => void }) {
  describe(`blob store: ${name}`, () => {
    const source = path.join(tempDir('lugha-blob-src-'), 'clip.bin');
    const bytes = 'abcdefghijklmnopqrstuvwxyz'.repeat(100);
    writeFileSync(source, bytes);
    const sha = createHash('sha256').update(bytes).digest('hex');

    it('stores by checksum, idempotently, and reads whole or a range', async () => {
      const { store } = make();
      assert.equal(await store.has(sha), false);
      await store.putFile(source, sha);
      await store.putFile(source, sha);
      assert.equal(await store.size(sha), bytes.length);
      assert.equal(await text(store.read(sha)), bytes);
      assert.equal(await text(store.read(sha, { start: 26, end: 30 })), 'abcde');
      assert.deepEqual(await store.list(), [sha]);
      await store.delete(sha);
      assert.equal(await store.has(sha), false);
      assert.deepEqual(await store.list(), []);
    });

    it('refuses a key that is not a SHA-256 (no path tricks)', async () => {
      const { store } = make();
      await assert.rejects(store.putFile(source, '../../etc/passwd'));
      assert.throws(() => store.read('../x'));
    });

    it('removes temporary files left by an interrupted write, and never lists them', async () => {
      const { store, leaveTemporary } = make();
      await store.putFile(source, sha);
      leaveTemporary();
      assert.deepEqual(await store.list(), [sha]);
      assert.equal(await store.cleanTemporary(), 1);
      assert.equal(await store.cleanTemporary(), 0);
      assert.equal(await store.size(sha), bytes.length);
    });
  });
}

conformance('filesystem', () => {
  const root = tempDir('lugha-blobs-');
  return {
    store: new FsBlobStore(root),
    leaveTemporary: () => {
      const dir = path.join(root, 'ab');
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, '.tmp-0123456789abcdef'), 'half a blob');
      assert.ok(readdirSync(dir).length === 1);
    },
  };
});
