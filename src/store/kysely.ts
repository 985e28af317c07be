/**
 * Kysely's values (the query builder, dialects, migrator, `sql`), from its CommonJS build. Its ES
 * module build is 262 files, each resolved, compiled and linked by the ES loader: 0.5-0.6 s of every
 * start on the shared machine (load 12) against 0.3-0.4 s for the same code through `require` (one
 * fresh process each, three pairs). Every module of the store takes kysely's values from here, so
 * that one build is loaded and the query nodes and builders of both sides are the same classes;
 * the types come from `import type ... from 'kysely'`, the same declarations for both builds.
 */
import { createRequire } from 'node:module';
import type * as KyselyModule from 'kysely';

const kysely = createRequire(import.meta.url)('kysely') as typeof KyselyModule;

export const { Kysely, Migrator, PostgresDialect, SqliteDialect, sql } = kysely;
// The classes as types too, as `import { Kysely } from 'kysely'` gives them.
export type Kysely<DB> = KyselyModule.Kysely<DB>;
export type Migrator = KyselyModule.Migrator;
export type PostgresDialect = KyselyModule.PostgresDialect;
export type SqliteDialect = KyselyModule.SqliteDialect;
