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
}

export interface Store {
  /** Which implementation this is, for status pages (never a path or URL). */
  readonly kind: 'sqlite' | 'postgres';
  readonly keys: KeyRepository;
  /** The store's own quota counter (a Redis counter may replace it when scaled out). */
  readonly quota: QuotaCounter;
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
