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

/** A speaker: an internal id (never leaves the service) and the operator's own label. */
export interface SpeakersTable {
  id: string;
  local_id: string;
  created_at: string;
}

/** A consent record per speaker; `scopes` is a JSON array; `status` active | withdrawn. */
export interface ConsentsTable {
  id: string;
  speaker_id: string;
  form_version: string;
  scopes: string;
  /** Day the form was signed, YYYY-MM-DD. */
  consented_on: string;
  jurisdiction: string;
  status: string;
  withdrawn_at: string | null;
}

/** One clip. `sample_rank` orders clips for the deterministic capped sample. */
export interface RecordingsTable {
  recording_id: string;
  language: string;
  mode: string;
  numeral: number;
  transcript: string;
  transcript_english: string | null;
  switch_ms: number | null;
  switch_detected: Generated<number>;
  duration_ms: number;
  sample_rate: number;
  channels: number;
  format: string;
  bytes: number;
  sha256: string;
  sample_rank: string;
  synthetic: Generated<number>;
  speaker_id: string;
  created_at: string;
}

/** Range requests already counted today, per key and clip. */
export interface AudioRangeSeenTable {
  key_id: string;
  recording_id: string;
  day: string;
}

export interface Database {
  api_keys: ApiKeysTable;
  key_secrets: KeySecretsTable;
  quota_usage: QuotaUsageTable;
  speakers: SpeakersTable;
  consents: ConsentsTable;
  recordings: RecordingsTable;
  audio_range_seen: AudioRangeSeenTable;
}
