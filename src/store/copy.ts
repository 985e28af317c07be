/**
 * Copies everything the service keeps from one set of backends to another (typically the
 * embedded SQLite + filesystem of one machine to PostgreSQL + S3 for several instances):
 * every table row by row in foreign-key order, then every blob the target lacks. Rows the
 * target already has are left alone, so an interrupted copy can simply be run again.
 */
import type { Kysely } from 'kysely';
import { sql } from './kysely.js';
import type { BlobStore } from '../audio/blob-store.js';
import { KyselyStore } from './kysely-store.js';
import type { Database } from './schema.js';
import type { Store } from './store.js';

/** Tables in foreign-key order, each with a stable order to page through. */
const TABLES: ReadonlyArray<{ name: keyof Database; order: string[] }> = [
  { name: 'api_keys', order: ['id'] },
  { name: 'key_secrets', order: ['hash'] },
  { name: 'quota_usage', order: ['key_id', 'day'] },
  { name: 'speakers', order: ['id'] },
  { name: 'consents', order: ['id'] },
  { name: 'recordings', order: ['recording_id'] },
  { name: 'audio_range_seen', order: ['key_id', 'recording_id', 'day'] },
];

const PAGE = 500;

export interface CopyReport {
  tables: Array<{ table: string; source: number; copied: number; target: number }>;
  blobs: { source: number; copied: number; present: number };
}

function dbOf(store: Store): Kysely<Database> {
  if (!(store instanceof KyselyStore)) throw new Error('copy needs the SQL stores themselves');
  return store.db;
}

async function count(db: Kysely<Database>, table: keyof Database): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function copyBackends(
  from: { store: Store; blobs: BlobStore; blobFile: (sha256: string) => string },
  to: { store: Store; blobs: BlobStore },
  progress: (line: string) => void = () => {},
): Promise<CopyReport> {
  const source = dbOf(from.store);
  const target = dbOf(to.store);
  const report: CopyReport = { tables: [], blobs: { source: 0, copied: 0, present: 0 } };
  for (const { name, order } of TABLES) {
    const before = await count(target, name);
    let offset = 0;
    for (;;) {
      let query = source.selectFrom(name).selectAll();
      for (const column of order) query = query.orderBy(sql.ref(column));
      const rows = (await query.limit(PAGE).offset(offset).execute()) as Array<Record<string, unknown>>;
      if (rows.length === 0) break;
      // Any unique conflict (the same key id, checksum or speaker label) leaves the target's row.
      await target
        .insertInto(name)
        .values(rows as never)
        .onConflict((oc) => oc.doNothing())
        .execute();
      offset += rows.length;
    }
    const after = await count(target, name);
    report.tables.push({ table: name, source: offset, copied: after - before, target: after });
    progress(`${name}: ${offset} row(s) read, ${after - before} copied`);
  }
  const shas = await from.blobs.list();
  report.blobs.source = shas.length;
  for (const sha of shas) {
    if (await to.blobs.has(sha)) {
      report.blobs.present++;
      continue;
    }
    await to.blobs.putFile(from.blobFile(sha), sha);
    report.blobs.copied++;
    if (report.blobs.copied % 100 === 0) progress(`blobs: ${report.blobs.copied} copied`);
  }
  progress(`blobs: ${shas.length} read, ${report.blobs.copied} copied, ${report.blobs.present} already there`);
  return report;
}
