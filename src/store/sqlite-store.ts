/**
 * The embedded store: one SQLite file under the data directory, in WAL mode,
 * migrated on open. Several processes may open the same file; writes are
 * serialised by SQLite and waited for up to `busyTimeoutMs`.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { KyselyStore, migrateToLatest } from './kysely-store.js';
import type { Database } from './schema.js';
import type { Store } from './store.js';

export const SQLITE_FILE = 'lugha.db';

export interface SqliteStoreOptions {
  dataDir: string;
  busyTimeoutMs?: number;
}

/** Opens (creating if needed) `<dataDir>/lugha.db` and brings its schema up to date. */
export async function openSqliteStore(options: SqliteStoreOptions): Promise<Store> {
  mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  const sqlite = new BetterSqlite3(path.join(options.dataDir, SQLITE_FILE));
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`busy_timeout = ${Math.trunc(options.busyTimeoutMs ?? 5000)}`);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  try {
    await migrateToLatest(db);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return new KyselyStore('sqlite', db);
}

const STATEMENT_CACHE_SIZE = 256;

/**
 * Kysely prepares every query anew; preparing costs more than running the small
 * queries on the request path (key lookup, quota upsert), so prepared statements
 * are kept per SQL text. Safe because better-sqlite3 runs each statement to
 * completion synchronously, so no two executions of one statement overlap.
 */
function withStatementCache(sqlite: BetterSqlite3.Database): BetterSqlite3.Database {
  const cache = new Map<string, BetterSqlite3.Statement>();
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
