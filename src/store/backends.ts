/**
 * Chooses the backends from the configuration: the embedded defaults (SQLite file,
 * counters in it, blobs on the filesystem) or, for several instances, PostgreSQL,
 * Redis and an S3-compatible object store, each independently.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { RedisQuotaCounter } from '../access/redis-quota-counter.js';
import type { KeyChangeFeed } from '../access/key-service.js';
import type { QuotaCounter } from '../access/quota-counter.js';
import type { BlobStore } from '../audio/blob-store.js';
import { FsBlobStore } from '../audio/fs-blob-store.js';
import type { Config } from '../config.js';
import { openSqliteStore } from './sqlite-store.js';
import type { Store } from './store.js';

export interface Backends {
  /** The store, with `quota` replaced by the Redis counter when one is configured. */
  store: Store;
  blobs: BlobStore;
  /** Where each part lives, in words without URL, path or bucket (for doctor and logs). */
  kinds: { store: 'sqlite' | 'postgres'; quota: 'store' | 'redis'; blobs: 'filesystem' | 's3' };
  /** Key revocations and rotations told to every instance (Redis pub/sub), when Redis is configured. */
  keyChanges?: KeyChangeFeed;
  close(): Promise<void>;
}

type BackendConfig = Pick<
  Config,
  'dataDir' | 'databaseUrl' | 'databasePoolSize' | 'redisUrl' | 'redisPrefix' | 'quotaFlushMs' | 's3Bucket' | 's3Endpoint' | 's3Region' | 's3AccessKeyId' | 's3SecretAccessKey' | 's3ForcePathStyle' | 's3Prefix'
>;

/**
 * The PostgreSQL, Redis and S3 clients are imported only when configured: the embedded
 * defaults (every CLI command, `lugha mcp` on a laptop) do not pay for loading them.
 */
export async function openBackends(config: BackendConfig, options: { migrate?: boolean } = {}): Promise<Backends> {
  const base = config.databaseUrl
    ? await (await import('./postgres-store.js')).openPostgresStore({ url: config.databaseUrl, poolSize: config.databasePoolSize, migrate: options.migrate, quotaFlushMs: config.quotaFlushMs })
    : await openSqliteStore({ dataDir: config.dataDir, quotaFlushMs: config.quotaFlushMs });
  let redis: RedisQuotaCounter | undefined;
  try {
    if (config.redisUrl) redis = await (await import('../access/redis-quota-counter.js')).RedisQuotaCounter.open({ url: config.redisUrl, prefix: config.redisPrefix, flushMs: config.quotaFlushMs });
  } catch (error) {
    await base.close();
    throw error;
  }
  let blobs: BlobStore;
  let s3: { close(): void } | undefined;
  try {
    blobs = config.s3Bucket ? (s3 = new (await import('../audio/s3-blob-store.js')).S3BlobStore(s3Options(config))) : openFsBlobs(path.join(config.dataDir, 'blobs'));
  } catch (error) {
    await redis?.close();
    await base.close();
    throw error;
  }
  const store = redis ? withQuota(base, redis) : base;
  return {
    store,
    blobs,
    kinds: { store: base.kind, quota: redis ? 'redis' : 'store', blobs: config.s3Bucket ? 's3' : 'filesystem' },
    ...(redis ? { keyChanges: redis.keyChanges() } : {}),
    async close() {
      s3?.close();
      await redis?.close();
      await base.close();
    },
  };
}

/**
 * The blob folder is made when the store opens, not on the first ingest, so that a folder that
 * disappears later (a volume unmounted, a directory deleted) is seen as storage gone.
 */
function openFsBlobs(root: string): FsBlobStore {
  mkdirSync(root, { recursive: true, mode: 0o700 });
  return new FsBlobStore(root);
}

export function s3Options(config: BackendConfig) {
  return {
    bucket: config.s3Bucket!,
    endpoint: config.s3Endpoint,
    region: config.s3Region,
    credentials: config.s3AccessKeyId && config.s3SecretAccessKey ? { accessKeyId: config.s3AccessKeyId, secretAccessKey: config.s3SecretAccessKey } : undefined,
    forcePathStyle: config.s3ForcePathStyle,
    prefix: config.s3Prefix,
  };
}

/** The store with another quota counter; `ping` checks both. */
function withQuota(store: Store, counter: QuotaCounter & { ping(): Promise<void> }): Store {
  return {
    kind: store.kind,
    keys: store.keys,
    audio: store.audio,
    quota: counter,
    async ping() {
      await store.ping();
      await counter.ping();
    },
    close: () => store.close(),
  };
}
