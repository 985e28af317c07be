/**
 * Operator commands for the scale-out backends: `lugha migrate` (bring the schema up to date,
 * safe while instances run or start), `lugha doctor` (check the configuration and every
 * backend, exit 1 on a failure) and `lugha copy` (embedded data into the configured backends).
 * Nothing printed here names a URL, password, bucket, endpoint or key.
 */
import { access, constants, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { describeRedisError, RedisQuotaCounter } from '../access/redis-quota-counter.js';
import { FsBlobStore } from '../audio/fs-blob-store.js';
import { S3BlobStore } from '../audio/s3-blob-store.js';
import { ConfigError, loadConfig, type Config } from '../config.js';
import { s3Options } from '../store/backends.js';
import { copyBackends } from '../store/copy.js';
import { KyselyStore } from '../store/kysely-store.js';
import { openPostgresStore, pendingMigrations } from '../store/postgres-store.js';
import { openSqliteStore } from '../store/sqlite-store.js';
import type { Store } from '../store/store.js';
import { openBackends } from '../store/backends.js';
import { CliError, EXIT_FAILURE, EXIT_USAGE, printJson, table } from './output.js';

interface Check {
  check: string;
  ok: boolean;
  detail: string;
}

export function registerOperationsCommands(program: Command): void {
  program
    .command('migrate')
    .description('apply pending database migrations (also done at every start; safe with several instances)')
    .option('--data-dir <dir>', 'data directory (for the embedded SQLite store)')
    .action(async (options: { dataDir?: string }) => {
      const config = loadConfig({ flags: { dataDir: options.dataDir } });
      // Opening a store migrates it: under an advisory lock on PostgreSQL, under SQLite's write lock otherwise.
      const store = config.databaseUrl ? await openPostgresStore({ url: config.databaseUrl, poolSize: 1 }) : await openSqliteStore({ dataDir: config.dataDir });
      try {
        const pending = await pendingMigrations((store as KyselyStore).db);
        if (pending.length > 0) throw new CliError(`migrations still pending: ${pending.join(', ')}`);
        process.stdout.write(`${store.kind}: schema up to date\n`);
      } finally {
        await store.close();
      }
    });

  program
    .command('doctor')
    .description('check the configuration and every backend it names; exit 1 when one fails (prints no secrets)')
    .option('--data-dir <dir>', 'data directory')
    .option('--json', 'print JSON')
    .action(async (options: { dataDir?: string; json?: boolean }) => {
      const checks = await doctor(options.dataDir);
      if (options.json) printJson(checks);
      else process.stdout.write(`${table(checks.map((c) => ({ status: c.ok ? 'ok' : 'FAIL', check: c.check, detail: c.detail })))}\n`);
      if (checks.some((c) => !c.ok)) throw new CliError(`${checks.filter((c) => !c.ok).length} check(s) failed`, EXIT_FAILURE);
    });

  program
    .command('copy')
    .description('copy the embedded store and blobs of a data directory into the configured backends (PostgreSQL, S3)')
    .requiredOption('--from-data-dir <dir>', 'data directory holding the embedded lugha.db and blobs/')
    .option('--data-dir <dir>', 'data directory of the target (when the target is embedded too)')
    .option('--json', 'print the report as JSON')
    .action(async (options: { fromDataDir: string; dataDir?: string; json?: boolean }) => {
      const config = loadConfig({ flags: { dataDir: options.dataDir } });
      const fromDir = path.resolve(options.fromDataDir);
      if (!config.databaseUrl && !config.s3Bucket && fromDir === config.dataDir) {
        throw new CliError('the source and the target are the same data directory; set LUGHA_DATABASE_URL and/or LUGHA_S3_BUCKET', EXIT_USAGE);
      }
      try {
        await access(path.join(fromDir, 'lugha.db'), constants.R_OK);
      } catch {
        throw new CliError(`no lugha.db in ${fromDir}`, EXIT_USAGE);
      }
      const source = await openSqliteStore({ dataDir: fromDir });
      let target;
      try {
        // The copy writes the store's own tables; Redis counters are not part of it.
        target = await openBackends({ ...config, redisUrl: undefined });
      } catch (error) {
        await source.close();
        throw error;
      }
      try {
        const blobRoot = path.join(fromDir, 'blobs');
        const report = await copyBackends({ store: source, blobs: new FsBlobStore(blobRoot), blobFile: (sha) => path.join(blobRoot, sha.slice(0, 2), sha) }, { store: target.store, blobs: target.blobs }, (line) =>
          process.stderr.write(`${line}\n`),
        );
        if (options.json) printJson(report);
        else {
          process.stdout.write(`${table(report.tables.map((t) => ({ table: t.table, read: String(t.source), copied: String(t.copied), target: String(t.target) })))}\n`);
          process.stdout.write(`blobs: ${report.blobs.source} read, ${report.blobs.copied} copied, ${report.blobs.present} already there\n`);
        }
      } finally {
        await source.close();
        await target.close();
      }
    });
}

/** Every check, each with a detail that names no secret, URL, bucket or path outside the data directory. */
export async function doctor(dataDir: string | undefined): Promise<Check[]> {
  const checks: Check[] = [];
  let config: Config;
  try {
    config = loadConfig({ flags: { dataDir } });
    checks.push({ check: 'configuration', ok: true, detail: 'valid' });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    // The problems name variables and the values given; hide the values of secret-looking ones.
    checks.push({ check: 'configuration', ok: false, detail: error.problems.map((p) => p.replace(/; got .*$/, '')).join('; ') });
    return checks;
  }

  let store: Store | undefined;
  try {
    store = config.databaseUrl ? await openPostgresStore({ url: config.databaseUrl, poolSize: 1, migrate: false }) : await openSqliteStore({ dataDir: config.dataDir });
    await store.ping();
    const pending = await pendingMigrations((store as KyselyStore).db);
    checks.push({
      check: 'store',
      ok: pending.length === 0,
      detail: `${store.kind === 'postgres' ? 'PostgreSQL' : 'SQLite'}: answers; ${pending.length === 0 ? 'schema up to date' : `${pending.length} migration(s) pending (run lugha migrate)`}`,
    });
  } catch (error) {
    checks.push({ check: 'store', ok: false, detail: `${config.databaseUrl ? 'PostgreSQL' : 'SQLite'}: ${(error as Error).message.replace(/^PostgreSQL store unavailable: /, '')}` });
  } finally {
    await store?.close();
  }

  if (config.redisUrl) {
    try {
      const counter = await RedisQuotaCounter.open({ url: config.redisUrl, prefix: config.redisPrefix });
      try {
        await counter.ping();
      } finally {
        await counter.close();
      }
      checks.push({ check: 'quota counter', ok: true, detail: 'Redis: answers' });
    } catch (error) {
      checks.push({ check: 'quota counter', ok: false, detail: `Redis: ${describeRedisError((error as Error).cause ?? error)}` });
    }
  } else {
    checks.push({ check: 'quota counter', ok: true, detail: 'in the store (one instance, or all on one PostgreSQL)' });
  }

  if (config.s3Bucket) {
    const blobs = new S3BlobStore(s3Options(config));
    try {
      await blobs.ping();
      await blobs.list();
      checks.push({ check: 'blob storage', ok: true, detail: 'S3: bucket reachable and listable' });
    } catch (error) {
      checks.push({ check: 'blob storage', ok: false, detail: `S3: ${(error as Error).message}` });
    } finally {
      blobs.close();
    }
  } else {
    const root = path.join(config.dataDir, 'blobs');
    try {
      await mkdir(root, { recursive: true, mode: 0o700 });
      await access(root, constants.W_OK | constants.R_OK);
      checks.push({ check: 'blob storage', ok: true, detail: 'filesystem: <data-dir>/blobs writable' });
    } catch {
      checks.push({ check: 'blob storage', ok: false, detail: 'filesystem: <data-dir>/blobs is not writable' });
    }
  }

  const several = config.databaseUrl !== undefined && config.redisUrl !== undefined && config.s3Bucket !== undefined;
  const embedded = [!config.databaseUrl && 'store', !config.s3Bucket && 'blobs'].filter(Boolean);
  checks.push({
    check: 'several instances',
    ok: true,
    detail: several
      ? 'ready: store, counters and blobs are shared'
      : embedded.length > 0
        ? `one instance only: ${embedded.join(' and ')} kept on this machine`
        : 'ready: store and blobs are shared; counters are in the store',
  });
  return checks;
}
