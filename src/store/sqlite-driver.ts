/**
 * The SQLite driver for the Node.js line this process runs on. better-sqlite3 13 (Node-API, shipped
 * prebuilt) needs Node 22 or newer and crashes on Node 20; better-sqlite3 12 runs on Node 20 and 22
 * but aborts at exit on Node 24. So Node 22+ loads 13 (`better-sqlite3`), and Node 20 loads 12,
 * installed under the alias `better-sqlite3-node20` as an optional dependency (a platform where it
 * cannot be built simply lacks it, and Node 22+ never needs it). Same API, same database files.
 */
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

const require = createRequire(import.meta.url);

/** The package name of the driver for a Node.js major version. */
export function sqliteDriverPackage(nodeMajor: number): string {
  return nodeMajor >= 22 ? 'better-sqlite3' : 'better-sqlite3-node20';
}

/** The better-sqlite3 Database class for this process's Node.js. */
export const Database: typeof BetterSqlite3 = require(sqliteDriverPackage(Number(process.versions.node.split('.')[0])));

export type { BetterSqlite3 };
