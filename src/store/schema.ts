/**
 * Table shapes for the query layer. Column types are chosen to be portable
 * between SQLite and PostgreSQL: text timestamps (ISO 8601, UTC, sortable),
 * integers for counters, JSON arrays as text.
 */
import type { Generated } from 'kysely';

export interface ApiKeysTable {
  id: string;
  name: string;
  tier: string;
  offer: string;
  /** JSON array of ISO 639-3 codes the plan names, or null when the offer decides. */
  languages: string | null;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
}

export interface KeySecretsTable {
  /** SHA-256 of the whole key, hex; the only form in which a key is kept. */
  hash: string;
  key_id: string;
  /** First characters of the key, to tell keys apart in listings. */
  prefix: string;
  created_at: string;
  /** When a rotated secret stops working; null while it is the current secret. */
  retires_at: string | null;
}

export interface QuotaUsageTable {
  key_id: string;
  /** UTC day, YYYY-MM-DD. */
  day: string;
  used: Generated<number>;
}

export interface Database {
  api_keys: ApiKeysTable;
  key_secrets: KeySecretsTable;
  quota_usage: QuotaUsageTable;
}
