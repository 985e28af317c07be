/**
 * The PostgreSQL store: the same Kysely store and migrations as SQLite, over a
 * `pg` connection pool. Chosen by LUGHA_DATABASE_URL=postgres://…; several
 * instances share one database, so nothing here is cached per process (the key cache in
 * KeyService expires its entries instead; counts of keys without a limit are added, never set).
 */
import { Kysely, Migrator, PostgresDialect, sql } from './kysely.js';
import pg from 'pg';
import { KyselyStore, migrateToLatest } from './kysely-store.js';
import { migrationProvider } from './migrations.js';
import type { Database } from './schema.js';
import type { Store } from './store.js';
import { LughaError } from '../errors.js';

export interface PostgresStoreOptions {
  url: string;
  /** Connections in this instance's pool. */
  poolSize?: number;
  /** Apply pending migrations on open (the default; `lugha migrate` does it explicitly). */
  migrate?: boolean;
  /** Group commit of the counts of keys without a limit (0, the default here: each written at once). */
  quotaFlushMs?: number;
}

/** Arbitrary but fixed: the advisory lock every Lugha instance takes while migrating. */
const MIGRATION_LOCK = 0x4c756768; // "Lugh"

// Counts come back as bigint text and sums as numeric text; the store converts with Number().
// Make int8 a JS number outright so nothing downstream sees a string where SQLite gives a number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export async function openPostgresStore(options: PostgresStoreOptions): Promise<Store> {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: 5000,
    // A connection the server or a proxy dropped is replaced, not handed out again.
    keepAlive: true,
  });
  // An idle client that loses its connection emits 'error' on the pool; without a listener it
  // would crash the process. The next query on a fresh connection reports the real failure.
  pool.on('error', () => {});
  // A client handed out to a query can lose its connection before the query is sent; pg then emits
  // 'error' on the client, which would crash the process without a listener. The query itself
  // fails and is reported (see withConnectionFailures); pg-pool drops the broken client.
  pool.on('connect', (client) => client.on('error', () => {}));
  // A pool that cannot hand out a connection in time (the database down, or every connection
  // busy under a burst) is a 503 with Retry-After for the caller, not an internal error.
  const unavailable = (error: unknown) => {
    const refusal = new LughaError('service_unavailable', `the database is not answering in time (${describePgError(error)}); retry in a moment`, {}, { 'Retry-After': '2' });
    refusal.cause = error;
    return refusal;
  };
  const guarded = {
    connect: async () => {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        throw unavailable(error);
      }
      return withConnectionFailures(client, unavailable);
    },
    end: () => pool.end(),
  };
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: guarded }) });
  try {
    await sql`select 1`.execute(db);
  } catch (error) {
    await db.destroy();
    throw new Error(`PostgreSQL store unavailable: ${describePgError(error)}`, { cause: error });
  }
  try {
    if (options.migrate ?? true) await migratePostgres(db);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return new KyselyStore('postgres', db, { quotaFlushMs: options.quotaFlushMs ?? 0 });
}

/**
 * The client with a query that fails because the connection broke (the server restarted, a proxy
 * or the network dropped it) turned into `unavailable(error)`: a 503 for the caller, like a
 * connection that could not be made. SQL errors pass through unchanged. pg-pool drops a client
 * that is no longer queryable when it is released, so the next request gets a fresh connection.
 */
function withConnectionFailures(client: pg.PoolClient, unavailable: (error: unknown) => LughaError): pg.PoolClient {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  return new Proxy(client, {
    get(target, property, receiver) {
      if (property !== 'query') return Reflect.get(target, property, receiver) as unknown;
      return (...args: unknown[]) => {
        const result = query(...args);
        if (!(result instanceof Promise)) return result; // a cursor (streaming) reports on its own
        return result.catch((error: unknown) => {
          throw isConnectionFailure(error) ? unavailable(error) : error;
        });
      };
    },
  });
}

/** A failure of the connection itself rather than of the SQL sent over it. */
export function isConnectionFailure(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown };
  const code = typeof e?.code === 'string' ? e.code : undefined;
  if (code === undefined) return /connection terminated|not queryable|connection error/i.test(String(e?.message));
  // SQLSTATE class 08 (connection exception), 57P01-57P03 (shutdown, crash, cannot connect now).
  return /^08...$|^57P0[123]$/.test(code) || ['ECONNRESET', 'EPIPE', 'ECONNREFUSED', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH'].includes(code);
}

/**
 * Applies pending migrations while holding a session advisory lock, so instances that start
 * together run them once, one after the other; the others find nothing left to do.
 */
export async function migratePostgres(db: Kysely<Database>): Promise<string[]> {
  return db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(${sql.lit(MIGRATION_LOCK)})`.execute(connection);
    try {
      return await migrateToLatest(connection);
    } finally {
      await sql`select pg_advisory_unlock(${sql.lit(MIGRATION_LOCK)})`.execute(connection);
    }
  });
}

/** A PostgreSQL error as an operator can act on it, without the URL or its password. */
export function describePgError(error: unknown): string {
  if (error instanceof LughaError && error.cause !== undefined) return describePgError(error.cause);
  const e = error as { code?: string; message?: string; errors?: unknown[] };
  if (e?.code === 'ECONNREFUSED' || (Array.isArray(e?.errors) && e.errors.some((x) => (x as { code?: string }).code === 'ECONNREFUSED'))) {
    return 'connection refused';
  }
  if (e?.code === '3D000') return 'database does not exist';
  if (e?.code === '28P01' || e?.code === '28000') return 'authentication failed';
  if (e?.code === 'ENOTFOUND') return 'host not found';
  if (e?.code === 'ECONNRESET' || e?.code === 'EPIPE' || /connection terminated/i.test(String(e?.message))) return 'connection lost';
  if (e?.code === 'ETIMEDOUT' || /timeout/i.test(String(e?.message))) return 'connection timed out';
  return e?.code ? `error ${e.code}` : 'connection failed';
}

/** Names of the migrations the database has not applied yet (read-only; for `lugha doctor`). */
export async function pendingMigrations(db: Kysely<Database>): Promise<string[]> {
  const migrations = await new Migrator({ db, provider: migrationProvider }).getMigrations();
  return migrations.filter((m) => m.executedAt === undefined).map((m) => m.name);
}
