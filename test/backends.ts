/**
 * The scale-out backends for tests: a fresh PostgreSQL database per run (dropped after),
 * a fresh Redis key prefix per run (deleted after), and a real S3-compatible server
 * (s3rver, from the npm registry) started on a free loopback port with a fresh bucket.
 *
 * PostgreSQL and Redis run on developer machines and in CI. With CI=true a missing one
 * fails the test file loudly; elsewhere the suites that need it are skipped with a message.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { skipOrFailInCi } from './environment.js';

/** The server the test databases are created on (trust auth on loopback). */
export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const REDIS_TEST_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0';

/** Tries a few times: on a loaded machine a first connection can take seconds; a missing server refuses at once. */
async function reachable(probe: () => Promise<void>): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    try {
      await probe();
      return true;
    } catch (error) {
      if ((error as { code?: string }).code === 'ECONNREFUSED' || attempt === 3) return false;
    }
  }
}

export const postgresUp = await reachable(async () => {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 10_000 });
  await client.connect();
  await client.end();
});

export const redisUp = await reachable(async () => {
  const redis = new Redis(REDIS_TEST_URL, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 10_000, retryStrategy: () => null });
  redis.on('error', () => {});
  try {
    await redis.connect();
    await redis.ping();
  } finally {
    redis.disconnect();
  }
});

/**
 * Undefined when the backend is there; otherwise the skip message. With CI=true a missing
 * backend throws, which fails the test file before any test runs.
 */
export function skipUnless(name: 'PostgreSQL' | 'Redis', up: boolean): string | undefined {
  if (up) return undefined;
  const where = name === 'PostgreSQL' ? POSTGRES_ADMIN_URL.replace(/\/\/[^@]*@/, '//') : REDIS_TEST_URL;
  return skipOrFailInCi(`${name} is not reachable at ${where}`);
}

export interface FreshDatabase {
  url: string;
  drop(): Promise<void>;
}

/** Creates an empty database with a random name on the test server. */
export async function freshPostgresDatabase(): Promise<FreshDatabase> {
  const name = `lugha_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}

export interface FreshRedisPrefix {
  url: string;
  prefix: string;
  /** Deletes every key under the prefix. */
  clean(): Promise<void>;
}

export function freshRedisPrefix(): FreshRedisPrefix {
  const prefix = `lugha-test-${randomBytes(6).toString('hex')}:`;
  return {
    url: REDIS_TEST_URL,
    prefix,
    async clean() {
      const redis = new Redis(REDIS_TEST_URL, { maxRetriesPerRequest: 1 });
      try {
        let cursor = '0';
        do {
          const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
          if (keys.length > 0) await redis.del(...keys);
          cursor = next;
        } while (cursor !== '0');
      } finally {
        redis.disconnect();
      }
    },
  };
}

interface S3rverInstance {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
}
type S3rverConstructor = new (options: Record<string, unknown>) => S3rverInstance;

export interface S3Server {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The settings that point Lugha at this server. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * Starts s3rver (a real S3 HTTP server writing to a temporary folder) on a free loopback port
 * with one empty bucket. s3rver accepts signed requests made with its fixed credentials.
 */
export async function startS3Server(): Promise<S3Server> {
  const require = createRequire(import.meta.url);
  const S3rver = require('s3rver') as S3rverConstructor;
  const directory = mkdtempSync(path.join(tmpdir(), 'lugha-s3-'));
  const bucket = `lugha-test-${randomBytes(4).toString('hex')}`;
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const accessKeyId = 'S3RVER';
  const secretAccessKey = 'S3RVER';
  return {
    endpoint,
    bucket,
    region: 'us-east-1',
    accessKeyId,
    secretAccessKey,
    env: {
      LUGHA_S3_ENDPOINT: endpoint,
      LUGHA_S3_BUCKET: bucket,
      LUGHA_S3_REGION: 'us-east-1',
      LUGHA_S3_ACCESS_KEY_ID: accessKeyId,
      LUGHA_S3_SECRET_ACCESS_KEY: secretAccessKey,
      LUGHA_S3_FORCE_PATH_STYLE: 'true',
    },
    async stop() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
