/**
 * The filesystem blob store: `<data-dir>/blobs/<aa>/<sha256>`. A write goes to a
 * temporary file in the same folder, is fsynced, then renamed into place, so a
 * crash leaves either the whole blob or only a temporary file (cleaned up later).
 */
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { BlobStore } from './blob-store.js';

const SHA = /^[0-9a-f]{64}$/;
const TMP_PREFIX = '.tmp-';

export class FsBlobStore implements BlobStore {
  readonly kind = 'filesystem';
  constructor(private readonly root: string) {}

  #path(sha256: string): string {
    if (!SHA.test(sha256)) throw new Error('blob key must be a SHA-256 in hex');
    return path.join(this.root, sha256.slice(0, 2), sha256);
  }

  async putFile(file: string, sha256: string): Promise<void> {
    const target = this.#path(sha256);
    if (await this.has(sha256)) return;
    const dir = path.dirname(target);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const tmp = path.join(dir, `${TMP_PREFIX}${randomBytes(8).toString('hex')}`);
    const source = await open(file, 'r');
    const out = await open(tmp, 'wx', 0o600);
    try {
      const buffer = Buffer.allocUnsafe(1 << 20);
      for (;;) {
        const { bytesRead } = await source.read(buffer, 0, buffer.length, null);
        if (bytesRead === 0) break;
        // A write may take fewer bytes than offered (a volume filling up takes what fits); the
        // rest is written again, which then fails with ENOSPC instead of keeping a truncated blob.
        for (let written = 0; written < bytesRead;) {
          written += (await out.write(buffer, written, bytesRead - written)).bytesWritten;
        }
      }
      await out.sync();
    } catch (error) {
      await out.close();
      await source.close();
      await rm(tmp, { force: true });
      throw error;
    }
    await out.close();
    await source.close();
    await rename(tmp, target);
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } catch {
      // Some filesystems refuse fsync on a directory; the rename is still atomic.
    } finally {
      await handle.close();
    }
  }

  async ping(): Promise<void> {
    let isDirectory = false;
    try {
      isDirectory = (await stat(this.root)).isDirectory();
    } catch (error) {
      throw new Error(`blob storage folder not readable (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    }
    if (!isDirectory) throw new Error('blob storage folder is not a folder');
  }

  async has(sha256: string): Promise<boolean> {
    return (await this.size(sha256)) !== undefined;
  }

  async size(sha256: string): Promise<number | undefined> {
    try {
      return (await stat(this.#path(sha256))).size;
    } catch {
      return undefined;
    }
  }

  read(sha256: string, range?: { start: number; end: number }): Readable {
    return createReadStream(this.#path(sha256), { highWaterMark: 256 * 1024, ...(range ? { start: range.start, end: range.end } : {}) });
  }

  async delete(sha256: string): Promise<void> {
    await rm(this.#path(sha256), { force: true });
  }

  async list(): Promise<string[]> {
    const keys: string[] = [];
    for (const dir of await readdirOrEmpty(this.root)) {
      for (const name of await readdirOrEmpty(path.join(this.root, dir))) if (SHA.test(name)) keys.push(name);
    }
    return keys;
  }

  async cleanTemporary(): Promise<number> {
    let removed = 0;
    for (const dir of await readdirOrEmpty(this.root)) {
      for (const name of await readdirOrEmpty(path.join(this.root, dir))) {
        if (name.startsWith(TMP_PREFIX)) {
          await rm(path.join(this.root, dir, name), { force: true });
          removed++;
        }
      }
    }
    return removed;
  }
}

async function readdirOrEmpty(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch {
    return [];
  }
}
