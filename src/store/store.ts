/**
 * The store interface: everything the service keeps, behind one interface with
 * one implementation per database (SQLite embedded; PostgreSQL when scaled out).
 * Callers depend on this file only.
 */
import type { Offer, Tier } from '../access/plans.js';
import type { QuotaCounter } from '../access/quota-counter.js';

export interface KeyRecord {
  id: string;
  name: string;
  tier: Tier;
  offer: Offer;
  /** ISO 639-3 codes the plan names (pilot), or null when the offer decides. */
  languages: string[] | null;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
}

export interface SecretRecord {
  hash: string;
  keyId: string;
  prefix: string;
  createdAt: string;
  retiresAt: string | null;
}

export interface KeyRepository {
  create(key: KeyRecord, secret: SecretRecord): Promise<void>;
  /** The key and the secret whose hash this is, retired or not. */
  findBySecretHash(hash: string): Promise<{ key: KeyRecord; secret: SecretRecord } | undefined>;
  get(id: string): Promise<KeyRecord | undefined>;
  /** Every key, oldest first, with its secrets, newest first. */
  list(): Promise<Array<KeyRecord & { secrets: SecretRecord[] }>>;
  /**
   * Adds `secret` as the key's current secret and retires every secret that has
   * no retirement yet (or a later one) at `retireAt`, in one transaction.
   * False when the key does not exist or is revoked.
   */
  rotate(id: string, secret: SecretRecord, retireAt: string): Promise<boolean>;
  /** Marks the key revoked at `at`; false when it does not exist or was already revoked. */
  revoke(id: string, at: string): Promise<boolean>;
  /**
   * A number that changes whenever another connection commits to the database (SQLite's
   * `data_version`), read synchronously and cheaply; absent when the database cannot tell
   * (PostgreSQL), in which case a cache of keys must expire by itself.
   */
  readonly changeCounter?: () => number;
}

export type AudioMode = 'bantu_only' | 'bantu_english';
export const audioModes = ['bantu_only', 'bantu_english'] as const;

export interface ConsentRecord {
  id: string;
  /** Internal speaker id: never leaves the service. */
  speakerId: string;
  formVersion: string;
  scopes: string[];
  /** YYYY-MM-DD. */
  consentedOn: string;
  jurisdiction: string;
  status: 'active' | 'withdrawn';
  withdrawnAt: string | null;
}

export interface RecordingRecord {
  recordingId: string;
  language: string;
  mode: AudioMode;
  numeral: number;
  transcript: string;
  transcriptEnglish: string | null;
  switchMs: number | null;
  switchDetected: boolean;
  durationMs: number;
  sampleRate: number;
  channels: number;
  format: string;
  bytes: number;
  sha256: string;
  /** Orders clips for the fixed, deterministic capped sample (lowest ranks first). */
  sampleRank: string;
  synthetic: boolean;
  /** Internal speaker id: never leaves the service. */
  speakerId: string;
  createdAt: string;
}

/** A recording with whether its speaker's consent is active now. */
export interface RecordingWithConsent extends RecordingRecord {
  consented: boolean;
}

export interface CoverageCount {
  language: string;
  mode: AudioMode;
  clips: number;
  speakers: number;
  durationMs: number;
  synthetic: number;
}

export interface ConsentSummaryRow {
  formVersion: string;
  scopes: string[];
  jurisdiction: string;
  status: 'active' | 'withdrawn';
  consentedOn: string;
  withdrawnAt: string | null;
  speakers: number;
  clips: number;
  synthetic: number;
}

export interface AudioRepository {
  /** The internal id of the speaker with this operator label, created when new. */
  ensureSpeaker(localId: string, at: string): Promise<string>;
  speakerIdOf(localId: string): Promise<string | undefined>;
  /** Adds a consent record unless an identical one (speaker, form version, date) exists. */
  addConsent(record: ConsentRecord): Promise<void>;
  /** Whether the speaker has at least one active consent record. */
  hasActiveConsent(speakerId: string): Promise<boolean>;
  /** Consent records with the operator's speaker label, for the operator's CLI only. */
  listConsents(): Promise<Array<ConsentRecord & { localId: string }>>;
  /** Withdraws every active consent of the speaker at `at`; the number withdrawn. */
  withdraw(localId: string, at: string): Promise<number>;
  insertRecording(record: RecordingRecord): Promise<void>;
  hasSha(sha256: string): Promise<boolean>;
  /** Every stored checksum (to find orphan blobs). */
  allShas(): Promise<Set<string>>;
  getRecording(recordingId: string): Promise<RecordingWithConsent | undefined>;
  /**
   * Consented clips of a language, in sample order. With `sampleCap`, only clips among the
   * first `sampleCap` of each mode (counted over every recording, so the sample is fixed).
   */
  listRecordings(query: { language: string; mode?: AudioMode; sampleCap?: number; limit: number; offset: number }): Promise<{ items: RecordingRecord[]; total: number }>;
  /** Whether the recording is among the first `cap` of its language and mode. */
  inSample(recordingId: string, cap: number): Promise<boolean>;
  /** Live counts of consented clips per language and mode. */
  coverage(language?: string): Promise<CoverageCount[]>;
  /** Live count of distinct consented speakers per language (a speaker may record both modes). */
  speakersPerLanguage(language?: string): Promise<Map<string, number>>;
  /** Whether a Range request of this key for this clip was already counted on `day`. */
  rangeSeen(keyId: string, recordingId: string, day: string): Promise<boolean>;
  /** Records that a Range request of this key for this clip was counted on `day`. */
  markRangeSeen(keyId: string, recordingId: string, day: string): Promise<void>;
  /** Non-PII consent provenance for a language, grouped (never per speaker). */
  consentSummary(language: string): Promise<ConsentSummaryRow[]>;
}

export interface Store {
  /** Which implementation this is, for status pages (never a path or URL). */
  readonly kind: 'sqlite' | 'postgres';
  readonly keys: KeyRepository;
  /** The audio corpus: speakers, consent records and recordings. */
  readonly audio: AudioRepository;
  /** The store's own quota counter (a Redis counter may replace it when scaled out). */
  readonly quota: QuotaCounter;
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
