/**
 * Blob storage in an S3-compatible object store (AWS S3, MinIO, Ceph, …): one object per
 * clip under `<prefix><aa>/<sha256>`. A PUT is atomic in S3, so a crash leaves either the
 * whole object or none. Errors raised here name neither the bucket, the endpoint nor the
 * credentials: they may end up in a log line that a caller's request id points to.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { PassThrough, Transform, type Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, HeadBucketCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { BlobStore } from './blob-store.js';
import { silenceAwsSdkNodeWarning } from '../config.js';

const SHA = /^[0-9a-f]{64}$/;

export interface S3BlobStoreOptions {
  bucket: string;
  /** An S3-compatible endpoint URL; omitted = AWS for `region`. */
  endpoint?: string;
  region: string;
  /** Omitted = the AWS SDK's default credential chain (environment, profile, instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Address the bucket in the path (most self-hosted servers), not in the host name. */
  forcePathStyle?: boolean;
  /** Prepended to every key: empty or ending with "/". */
  prefix?: string;
}

/** An object-store failure, described without bucket, endpoint, key or credentials. */
export class BlobStoreError extends Error {
  constructor(
    readonly operation: string,
    readonly status: number | undefined,
    readonly reason: string,
  ) {
    super(`object store ${operation} failed: ${reason}${status ? ` (HTTP ${status})` : ''}`);
    this.name = 'BlobStoreError';
  }
}

export class S3BlobStore implements BlobStore {
  readonly kind = 's3';
  readonly #client: S3Client;
  readonly #bucket: string;
  readonly #prefix: string;

  constructor(options: S3BlobStoreOptions) {
    silenceAwsSdkNodeWarning();
    this.#client = new S3Client({
      region: options.region,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      ...(options.credentials ? { credentials: options.credentials } : {}),
      forcePathStyle: options.forcePathStyle ?? false,
      maxAttempts: 3,
      // Checksums only where S3 requires them: the SDK's default streams uploads as aws-chunked
      // with a trailing checksum, which many S3-compatible servers store verbatim or refuse.
      // Integrity is checked by Lugha itself: every blob is named by its SHA-256, taken at ingest.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // Failures reach the caller as BlobStoreError; the SDK's own console lines would only repeat them.
      logger: { trace() {}, debug() {}, info() {}, warn() {}, error() {} },
    });
    this.#bucket = options.bucket;
    this.#prefix = options.prefix ?? '';
  }

  #key(sha256: string): string {
    if (!SHA.test(sha256)) throw new Error('blob key must be a SHA-256 in hex');
    return `${this.#prefix}${sha256.slice(0, 2)}/${sha256}`;
  }

  /** Resolves when the bucket exists and the credentials may use it. */
  async ping(): Promise<void> {
    try {
      await this.#client.send(new HeadBucketCommand({ Bucket: this.#bucket }));
    } catch (error) {
      throw sanitise('check', error);
    }
  }

  async putFile(file: string, sha256: string): Promise<void> {
    const key = this.#key(sha256);
    if (await this.has(sha256)) return;
    const { size } = await stat(file);
    try {
      await this.#client.send(new PutObjectCommand({ Bucket: this.#bucket, Key: key, Body: createReadStream(file), ContentLength: size, ContentType: 'application/octet-stream' }));
    } catch (error) {
      throw sanitise('write', error);
    }
  }

  async has(sha256: string): Promise<boolean> {
    return (await this.size(sha256)) !== undefined;
  }

  async size(sha256: string): Promise<number | undefined> {
    try {
      const head = await this.#client.send(new HeadObjectCommand({ Bucket: this.#bucket, Key: this.#key(sha256) }));
      return head.ContentLength;
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw sanitise('lookup', error);
    }
  }

  read(sha256: string, range?: { start: number; end: number }): Readable {
    const out = new PassThrough({ highWaterMark: 256 * 1024 });
    const key = this.#key(sha256);
    const abort = new AbortController();
    // A caller that goes away mid-stream stops the download from the object store too.
    out.on('close', () => abort.abort());
    this.#client
      .send(new GetObjectCommand({ Bucket: this.#bucket, Key: key, ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }), {
        abortSignal: abort.signal,
      })
      .then((response) => {
        const body = response.Body as Readable | undefined;
        if (!body) throw new BlobStoreError('read', undefined, 'empty response');
        body.on('error', (error) => out.destroy(sanitise('read', error)));
        if (!range) return void body.pipe(out);
        // Some S3-compatible servers answer a range with a wider one (s3rver reads "bytes=0-0" as
        // "bytes=0-"); their Content-Range says so. Serve exactly the bytes asked for.
        const served = /^bytes (\d+)-(\d+)\//.exec(response.ContentRange ?? '');
        const servedStart = served ? Number(served[1]) : 0;
        const servedEnd = served ? Number(served[2]) : Number.POSITIVE_INFINITY;
        if (servedStart > range.start || servedEnd < range.end) throw new BlobStoreError('read', undefined, 'range not served');
        if (servedStart === range.start && servedEnd === range.end) return void body.pipe(out);
        body.pipe(slice(range.start - servedStart, range.end - range.start + 1)).pipe(out);
      })
      .catch((error: unknown) => {
        if (!out.destroyed) out.destroy(sanitise('read', error));
      });
    return out;
  }

  async delete(sha256: string): Promise<void> {
    try {
      await this.#client.send(new DeleteObjectCommand({ Bucket: this.#bucket, Key: this.#key(sha256) }));
    } catch (error) {
      if (!isNotFound(error)) throw sanitise('delete', error);
    }
  }

  async list(): Promise<string[]> {
    const keys: string[] = [];
    let token: string | undefined;
    do {
      let page;
      try {
        page = await this.#client.send(new ListObjectsV2Command({ Bucket: this.#bucket, Prefix: this.#prefix, ContinuationToken: token }));
      } catch (error) {
        throw sanitise('list', error);
      }
      for (const object of page.Contents ?? []) {
        const name = (object.Key ?? '').slice(this.#prefix.length).split('/')[1];
        if (name && SHA.test(name)) keys.push(name);
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return keys;
  }

  /** Nothing to clean: each blob is one PUT, which S3 applies whole or not at all. */
  async cleanTemporary(): Promise<number> {
    return 0;
  }

  close(): void {
    this.#client.destroy();
  }
}

/** Passes `length` bytes after skipping `skip`, then ends. */
function slice(skip: number, length: number): Transform {
  let toSkip = skip;
  let left = length;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      let part = chunk;
      if (toSkip > 0) {
        const n = Math.min(toSkip, part.length);
        part = part.subarray(n);
        toSkip -= n;
      }
      if (left > 0 && part.length > 0) {
        const take = part.subarray(0, Math.min(left, part.length));
        left -= take.length;
        this.push(take);
      }
      done();
    },
  });
}

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
}

/** The SDK's errors carry the bucket, key and endpoint; keep only what the failure was. */
function sanitise(operation: string, error: unknown): BlobStoreError {
  if (error instanceof BlobStoreError) return error;
  const e = error as { name?: string; code?: string; $metadata?: { httpStatusCode?: number } };
  const status = e?.$metadata?.httpStatusCode;
  let reason = 'request failed';
  if (e?.name === 'AbortError') reason = 'aborted';
  else if (isNotFound(error)) reason = 'not found';
  else if (e?.name === 'NoSuchBucket') reason = 'bucket not found';
  else if (e?.name === 'AccessDenied' || e?.name === 'InvalidAccessKeyId' || e?.name === 'SignatureDoesNotMatch' || status === 403) reason = 'access denied';
  else if (e?.code === 'ECONNREFUSED') reason = 'connection refused';
  else if (e?.code === 'ENOTFOUND') reason = 'host not found';
  else if (e?.code === 'ECONNRESET' || e?.code === 'EPIPE') reason = 'connection reset';
  else if (e?.name === 'TimeoutError' || e?.code === 'ETIMEDOUT') reason = 'timed out';
  return new BlobStoreError(operation, status, reason);
}
