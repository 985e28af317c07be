// One conformance suite for blob storage, run with the same cases against the filesystem
// store and the S3 store (on a real S3-compatible server, s3rver, started by this test run).
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { after, before, describe, it } from 'node:test';
import type { BlobStore } from '../src/audio/blob-store.js';
import { FsBlobStore } from '../src/audio/fs-blob-store.js';
import { S3BlobStore } from '../src/audio/s3-blob-store.js';
import { startS3Server, type S3Server } from './backends.js';
import { tempDir } from './helpers.js';

function blob(bytes: Buffer): { file: string; sha: string; bytes: Buffer } {
  const file = path.join(tempDir('lugha-blob-src-'), 'clip.bin');
  writeFileSync(file, bytes);
  return { file, sha: createHash('sha256').update(bytes).digest('hex'), bytes };
}

function conformance(name: string, open: () => Promise<{ store: BlobStore; close(): Promise<void> }>) {
  describe(`blob store: ${name}`, () => {
    let store: BlobStore;
    let close: () => Promise<void>;
    before(async () => {
      ({ store, close } = await open());
    });
    after(async () => close?.());

    const small = blob(Buffer.from('abcdefghijklmnopqrstuvwxyz'.repeat(100)));
    // Larger than one read buffer, so a range crosses chunk boundaries.
    const large = blob(randomBytes(3 * 1024 * 1024 + 17));

    it('stores by checksum, idempotently, and reads the whole blob back', async () => {
      assert.equal(await store.has(small.sha), false);
      assert.equal(await store.size(small.sha), undefined);
      await store.putFile(small.file, small.sha);
      await store.putFile(small.file, small.sha);
      assert.equal(await store.has(small.sha), true);
      assert.equal(await store.size(small.sha), small.bytes.length);
      assert.deepEqual(await buffer(store.read(small.sha)), small.bytes);
    });

    it('reads byte ranges (inclusive), at the start, the middle and the end', async () => {
      await store.putFile(large.file, large.sha);
      const n = large.bytes.length;
      for (const [start, end] of [
        [0, 0],
        [26, 30],
        [1024 * 1024 - 3, 2 * 1024 * 1024 + 5],
        [n - 10, n - 1],
      ] as const) {
        assert.deepEqual(await buffer(store.read(large.sha, { start, end })), large.bytes.subarray(start, end + 1), `${start}-${end}`);
      }
    });

    it('lists every stored key, and forgets a deleted one', async () => {
      assert.deepEqual((await store.list()).sort(), [small.sha, large.sha].sort());
      await store.delete(large.sha);
      await store.delete(large.sha);
      assert.equal(await store.has(large.sha), false);
      assert.deepEqual(await store.list(), [small.sha]);
    });

    it('fails a read of a missing blob with an error, not an empty stream', async () => {
      await assert.rejects(buffer(store.read('e'.repeat(64))));
    });

    it('leaves nothing behind when the source cannot be read', async () => {
      const missing = 'd'.repeat(64);
      await assert.rejects(store.putFile(path.join(tempDir(), 'no-such-file'), missing));
      assert.equal(await store.has(missing), false);
      await store.cleanTemporary();
      assert.deepEqual(await store.list(), [small.sha]);
    });

    it('answers ping while the storage is there', async () => {
      await store.ping();
    });

    it('refuses a key that is not a SHA-256 (no path tricks)', async () => {
      await assert.rejects(store.putFile(small.file, '../../etc/passwd'));
      assert.throws(() => store.read('../x'));
    });
  });
}

conformance('filesystem', async () => {
  const root = tempDir('lugha-blobs-');
  return { store: new FsBlobStore(root), close: async () => rmSync(root, { recursive: true, force: true }) };
});

let server: S3Server;
conformance('S3 (s3rver)', async () => {
  server = await startS3Server();
  const store = new S3BlobStore({
    bucket: server.bucket,
    endpoint: server.endpoint,
    region: server.region,
    credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
    forcePathStyle: true,
    prefix: 'clips/',
  });
  return {
    store,
    async close() {
      store.close();
      await server.stop();
    },
  };
});

describe('blob store: S3 errors', () => {
  it('name neither the bucket, the endpoint nor the credentials', async () => {
    const s3 = await startS3Server();
    try {
      const wrongKeys = new S3BlobStore({
        bucket: s3.bucket,
        endpoint: s3.endpoint,
        region: s3.region,
        credentials: { accessKeyId: 'NOTTHEKEYID', secretAccessKey: 'not-the-secret' },
        forcePathStyle: true,
      });
      const missingBucket = new S3BlobStore({
        bucket: 'no-such-lugha-bucket',
        endpoint: s3.endpoint,
        region: s3.region,
        credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
        forcePathStyle: true,
      });
      const src = blob(Buffer.from('x'));
      const messages: string[] = [];
      const attempts = [() => wrongKeys.putFile(src.file, src.sha), () => missingBucket.putFile(src.file, src.sha), () => missingBucket.ping(), () => buffer(missingBucket.read(src.sha))];
      for (const attempt of attempts) {
        await attempt().then(
          () => assert.fail('expected a failure'),
          (error: Error) => messages.push(`${error.name}: ${error.message} ${error.stack ?? ''}`),
        );
      }
      const port = new URL(s3.endpoint).port;
      for (const message of messages) {
        assert.match(message, /object store (write|check|read|lookup) failed/);
        for (const secretish of [s3.bucket, 'no-such-lugha-bucket', port, 'NOTTHEKEYID', 'not-the-secret', s3.secretAccessKey]) {
          assert.ok(!message.includes(secretish), `"${message}" names ${secretish}`);
        }
      }
      wrongKeys.close();
      missingBucket.close();
    } finally {
      await s3.stop();
    }
  });
});
