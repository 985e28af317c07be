/**
 * The embedded store: one SQLite file under the data directory, in WAL mode,
 * migrated on open. Several processes may open the same file; writes are
 * serialised by SQLite and waited for up to `busyTimeoutMs`.
 */
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import { Database as BetterSqlite3, type BetterSqlite3 as SqliteDriver } from './sqlite-driver.js';
import type { DatabaseConnection, Dialect, Driver } from 'kysely';
import { Kysely, SqliteDialect } from './kysely.js';
import { LughaError } from '../errors.js';
import { KyselyStore, migrateToLatest } from './kysely-store.js';
import type { Database } from './schema.js';
import type { Store } from './store.js';

export const SQLITE_FILE = 'lugha.db';

export interface SqliteStoreOptions {
  dataDir: string;
  busyTimeoutMs?: number;
  /** Group commit of the counts of keys without a limit (0, the default here: each written at once). */
  quotaFlushMs?: number;
}

/** Opens (creating if needed) `<dataDir>/lugha.db` and brings its schema up to date. */
export async function openSqliteStore(options: SqliteStoreOptions): Promise<Store> {
  mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  // mkdir's mode applies only to a directory it creates (and passes through the umask): an
  // operator-made data directory, or a database file made by an older version, is tightened here.
  restrict(options.dataDir, 0o700);
  const file = path.join(options.dataDir, SQLITE_FILE);
  if (!existsSync(file)) closeSync(openSync(file, 'a', 0o600));
  const sqlite = new BetterSqlite3(file);
  sqlite.pragma('journal_mode = WAL');
  // SQLite gives the -wal and -shm files the database file's permissions; tighten all three.
  for (const suffix of ['', '-wal', '-shm']) if (existsSync(file + suffix)) restrict(file + suffix, 0o600);
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`busy_timeout = ${Math.trunc(options.busyTimeoutMs ?? 5000)}`);
  const db = new Kysely<Database>({ dialect: lockAware(new SqliteDialect({ database: withStatementCache(sqlite) })) });
  try {
    await migrateToLatest(db);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  // data_version changes when another connection (the CLI revoking a key, another instance)
  // commits: the key cache reads it at most every KEY_CHANGE_CHECK_MS (src/access/key-service.ts),
  // so such a change is seen within that time.
  const dataVersion = sqlite.prepare('PRAGMA data_version').pluck();
  return new KyselyStore('sqlite', db, { changeCounter: () => dataVersion.get() as number, quotaFlushMs: options.quotaFlushMs ?? 0 });
}

/**
 * Sets `mode` on a path this process owns. A path owned by another user (a directory the
 * operator made and shares) cannot be changed by us: left as it is, the operator's choice.
 */
function restrict(target: string, mode: number): void {
  try {
    chmodSync(target, mode);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') throw error;
  }
}

const STATEMENT_CACHE_SIZE = 256;

/**
 * Kysely prepares every query anew; preparing costs more than running the small
 * queries on the request path (key lookup, quota upsert), so prepared statements
 * are kept per SQL text. Safe because better-sqlite3 runs each statement to
 * completion synchronously, so no two executions of one statement overlap.
 */
function withStatementCache(sqlite: SqliteDriver.Database): SqliteDriver.Database {
  const cache = new Map<string, SqliteDriver.Statement>();
  const prepare = (source: string) => {
    let statement = cache.get(source);
    if (!statement) {
      statement = sqlite.prepare(source);
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      cache.set(source, statement);
    }
    return statement;
  };
  return new Proxy(sqlite, {
    get(target, property, receiver) {
      if (property === 'prepare') return prepare;
      const value = Reflect.get(target, property, receiver) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * A write that still finds the database locked after the busy timeout (another process holds a
 * write transaction: an operator's `sqlite3` shell, a backup tool, a second instance mid-burst)
 * is a 503 with Retry-After for the caller, not an internal error; nothing was written.
 */
export function sqliteLockError(error: unknown): LughaError | undefined {
  const code = (error as { code?: unknown })?.code;
  if (typeof code !== 'string' || !/^SQLITE_(BUSY|LOCKED)/.test(code)) return undefined;
  const unavailable = new LughaError('service_unavailable', 'the database is locked by another writer; nothing was written, retry in a moment', {}, { 'Retry-After': '2' });
  unavailable.cause = error;
  return unavailable;
}

/** The dialect with every query's lock error turned into {@link sqliteLockError}. */
function lockAware(dialect: SqliteDialect): Dialect {
  const translate = (error: unknown): never => {
    throw sqliteLockError(error) ?? error;
  };
  const wrap = (connection: DatabaseConnection): DatabaseConnection => ({
    // SqliteConnection throws synchronously from executeQuery; the async wrapper catches both kinds.
    executeQuery: async (query) => {
      try {
        return await connection.executeQuery(query);
      } catch (error) {
        return translate(error);
      }
    },
    async *streamQuery(query, chunkSize) {
      try {
        yield* connection.streamQuery(query, chunkSize);
      } catch (error) {
        translate(error);
      }
    },
  });
  return {
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createDriver(): Driver {
      const driver = dialect.createDriver();
      const outerOf = new WeakMap<DatabaseConnection, DatabaseConnection>();
      const innerOf = new WeakMap<DatabaseConnection, DatabaseConnection>();
      return {
        init: () => driver.init(),
        async acquireConnection() {
          const connection = await driver.acquireConnection();
          let outer = outerOf.get(connection);
          if (!outer) {
            outer = wrap(connection);
            outerOf.set(connection, outer);
            innerOf.set(outer, connection);
          }
          return outer;
        },
        // Transactions and savepoints run their statements through the wrapped connection.
        beginTransaction: (connection, settings) => driver.beginTransaction(connection, settings),
        commitTransaction: (connection) => driver.commitTransaction(connection),
        rollbackTransaction: (connection) => driver.rollbackTransaction(connection),
        savepoint: driver.savepoint && ((connection, name, compile) => driver.savepoint!(connection, name, compile)),
        rollbackToSavepoint: driver.rollbackToSavepoint && ((connection, name, compile) => driver.rollbackToSavepoint!(connection, name, compile)),
        releaseSavepoint: driver.releaseSavepoint && ((connection, name, compile) => driver.releaseSavepoint!(connection, name, compile)),
        releaseConnection: (connection) => driver.releaseConnection(innerOf.get(connection) ?? connection),
        destroy: () => driver.destroy(),
      };
    },
  };
}
