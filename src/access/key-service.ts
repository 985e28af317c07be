/**
 * API keys: issue, list, rotate with a grace period, revoke, and authenticate
 * a request's bearer credential. Keys are shown once and kept only as hashes.
 */
import type { Clock } from '../clock.js';
import type { LanguageCodes } from '../language-codes.js';
import { fail, ok, type Result } from '../result.js';
import type { KeyRecord, SecretRecord, Store } from '../store/store.js';
import { generateKey, generateKeyId, hashKey, isWellFormedKey, keyPrefix } from './key-format.js';
import { DAY_MS, offerTerms, offers, tierLimits, tiers, type Offer, type Tier, type TierLimits } from './plans.js';
import { utcDay } from './quota-counter.js';

/** Who is calling: the part of a key that access decisions need. Never holds the secret. */
export interface Principal {
  keyId: string;
  tier: Tier;
  offer: Offer;
  /** Languages the plan names (pilot); null when the offer decides (foundational or all). */
  languages: string[] | null;
  expiresAt: string | null;
  limits: TierLimits;
}

export type AuthFailure = 'key_missing' | 'key_malformed' | 'key_unknown' | 'key_revoked' | 'key_rotated' | 'key_expired';

export type KeyStatus = 'active' | 'revoked' | 'expired';

export interface KeyListing extends KeyRecord {
  status: KeyStatus;
  /** Prefixes of the secrets that work now (two during a rotation's grace). */
  activePrefixes: string[];
  usedToday: number;
}

export interface IssuedKey {
  /** The secret, shown to the operator once. */
  key: string;
  record: KeyRecord;
}

const MAX_NAME_LENGTH = 100;
/** An `Authorization` header carrying a key: `Bearer <key>`. */
const BEARER = /^Bearer +(\S+) *$/i;

/**
 * Tells every instance that a key changed (revoked, rotated), so each drops what it cached.
 * Redis pub/sub when scaled out (src/access/redis-key-changes.ts).
 */
export interface KeyChangeFeed {
  publish(keyId: string): Promise<void>;
  /** Calls `listener` on every change published by any instance; resolves once subscribed. */
  subscribe(listener: (keyId: string) => void): Promise<void>;
}

/**
 * How long a cached key may be used without asking the database again when the database
 * cannot say cheaply that it changed (PostgreSQL): a revocation or rotation made by another
 * instance is seen within this time even if its change message is lost.
 */
export const KEY_CACHE_TTL_MS = 1000;
/**
 * How often, at most, the key cache asks a store that can say cheaply whether another connection
 * committed (SQLite's `data_version`) whether it did: a revocation or rotation made by another
 * process on the same database file (the CLI, another instance) is seen within this time. Asking
 * on every request cost 8-9% of a metered request's CPU (docs/benchmarks.md). A change made through
 * this service, or published on the change feed, is seen at once.
 */
export const KEY_CHANGE_CHECK_MS = 100;
/** Keys kept in the cache; the oldest entry goes when a new one would pass this. */
const KEY_CACHE_SIZE = 10_000;

interface CachedKey {
  key: KeyRecord;
  secret: SecretRecord;
  /** performance.now() before the read: the entry's age, for a store without a change counter. */
  stamp: number;
  /** What access decisions need, made on the entry's first successful use and shared by the requests after it. */
  principal?: Principal;
  /** The secret's retirement and the key's expiry in ms since the epoch (Infinity for none), parsed on first use. */
  retiresMs?: number;
  expiresMs?: number;
}

export class KeyService {
  /**
   * Found keys by secret hash. With a store change counter (SQLite), the counter is read at most
   * every KEY_CHANGE_CHECK_MS and the cache emptied when it moved (another connection committed);
   * without one, an entry is used for KEY_CACHE_TTL_MS. A change made through this service, or
   * published on `changes` by another instance, empties it at once. Unknown hashes are never cached.
   */
  readonly #cache = new Map<string, CachedKey>();
  /** Counts the times the cache was emptied: a lookup that overlapped one is not cached. */
  #generation = 0;
  /** The store's change counter when last read, and when (performance.now()). */
  #counterValue: number | undefined;
  #counterReadAt = -Infinity;
  #subscribed: Promise<void> | undefined;

  constructor(private readonly deps: { store: Store; clock: Clock; languageCodes: LanguageCodes; changes?: KeyChangeFeed }) {}

  /** Issues a key. Fails with `invalid_parameter` for a bad tier, offer, language list or name. */
  async create(input: { tier: string; offer: string; languages?: string[]; name?: string }): Promise<Result<IssuedKey, 'invalid_parameter'>> {
    if (!isOneOf(tiers, input.tier)) return fail('invalid_parameter', `unknown tier "${input.tier}"; allowed: ${tiers.join(', ')}`);
    if (!isOneOf(offers, input.offer)) return fail('invalid_parameter', `unknown offer "${input.offer}"; allowed: ${offers.join(', ')}`);
    const languages = this.#planLanguages(input.offer, input.languages ?? []);
    if (!languages.ok) return languages;
    const name = (input.name ?? '').trim() || `${input.tier}/${input.offer}`;
    if (name.length > MAX_NAME_LENGTH || /\p{Cc}/u.test(name)) {
      return fail('invalid_parameter', `--name must be at most ${MAX_NAME_LENGTH} printable characters`);
    }
    const now = this.deps.clock.now();
    const lifetime = offerTerms[input.offer].lifetimeDays;
    const record: KeyRecord = {
      id: generateKeyId(),
      name,
      tier: input.tier,
      offer: input.offer,
      languages: languages.value,
      createdAt: now.toISOString(),
      expiresAt: lifetime === null ? null : new Date(now.getTime() + lifetime * DAY_MS).toISOString(),
      revokedAt: null,
    };
    const key = generateKey();
    await this.deps.store.keys.create(record, this.#secret(key, record.id, now));
    return ok({ key, record });
  }

  /** Every key with its status and today's usage. */
  async list(): Promise<KeyListing[]> {
    const now = this.deps.clock.now();
    const nowIso = now.toISOString();
    const day = utcDay(now);
    const keys = await this.deps.store.keys.list();
    return Promise.all(
      keys.map(async ({ secrets, ...key }) => ({
        ...key,
        status: statusOf(key, nowIso),
        activePrefixes: secrets.filter((s) => s.retiresAt === null || s.retiresAt > nowIso).map((s) => s.prefix),
        usedToday: await this.deps.store.quota.used(key.id, day),
      })),
    );
  }

  /**
   * Gives key `id` a new secret; the old one keeps working for `graceMs`.
   * Fails with `key_unknown` for an unknown key, `key_revoked` or `key_expired` for one no longer active.
   */
  async rotate(id: string, graceMs: number): Promise<Result<IssuedKey & { previousRetiresAt: string }, 'key_unknown' | 'key_revoked' | 'key_expired'>> {
    const record = await this.deps.store.keys.get(id);
    if (!record) return fail('key_unknown', `no key with id "${id}"`);
    const now = this.deps.clock.now();
    const status = statusOf(record, now.toISOString());
    if (status !== 'active') return fail(`key_${status}`, `key "${id}" is ${status}; issue a new key instead`);
    const key = generateKey();
    const retiresAt = new Date(now.getTime() + graceMs).toISOString();
    const rotated = await this.deps.store.keys.rotate(id, this.#secret(key, id, now), retiresAt);
    await this.#changed(id);
    if (!rotated) return fail('key_revoked', `key "${id}" was revoked meanwhile`);
    return ok({ key, record, previousRetiresAt: retiresAt });
  }

  /** Revokes key `id` with immediate effect. */
  async revoke(id: string): Promise<Result<KeyRecord, 'key_unknown' | 'key_revoked'>> {
    const record = await this.deps.store.keys.get(id);
    if (!record) return fail('key_unknown', `no key with id "${id}"`);
    const at = this.deps.clock.now().toISOString();
    const revoked = await this.deps.store.keys.revoke(id, at);
    await this.#changed(id);
    if (!revoked) return fail('key_revoked', `key "${id}" was already revoked`);
    return ok({ ...record, revokedAt: at });
  }

  /**
   * Checks an `Authorization` header value. The key comes from the cache when it is still
   * current (see `#cache`): a revocation or rotation is seen at once on this instance, within
   * KEY_CHANGE_CHECK_MS on instances sharing the SQLite file, and within KEY_CACHE_TTL_MS
   * (at once with Redis) on others.
   */
  async authenticate(authorization: string | undefined): Promise<Result<Principal, AuthFailure>> {
    return this.check(authorization);
  }

  /**
   * `authenticate`, answered without waiting when the header is refused on its face or the key is
   * in the cache (see `#cache`), which is every request of a key in use; otherwise the promise of
   * the store's answer.
   */
  check(authorization: string | undefined): Result<Principal, AuthFailure> | Promise<Result<Principal, AuthFailure>> {
    if (authorization === undefined || authorization.trim() === '') {
      return fail('key_missing', 'send your API key as "Authorization: Bearer <key>"');
    }
    const match = BEARER.exec(authorization);
    if (!match) return fail('key_malformed', 'the Authorization header must be "Bearer <key>"');
    const token = match[1]!;
    if (!isWellFormedKey(token)) return fail('key_malformed', 'a Lugha key is "lugha_" followed by 43 letters and digits');
    const hash = hashKey(token);
    const stamp = performance.now();
    const cached = this.#cached(hash, stamp);
    if (cached) return this.#decide(cached);
    return this.#fromStore(hash, stamp).then((found) => (found ? this.#decide(found) : fail('key_unknown', 'this key is not known; check it or ask your operator for one')));
  }

  /**
   * The caller of an `Authorization` header value when its key is in the cache and may be used now
   * (what `check` answers at once with `ok`); undefined in every other case (no key, a malformed
   * one, a key to read from the store, or one refused), which `check` then answers in full.
   */
  cachedPrincipal(authorization: string | undefined): Principal | undefined {
    if (authorization === undefined) return undefined;
    const match = BEARER.exec(authorization);
    if (!match || !isWellFormedKey(match[1]!)) return undefined;
    const cached = this.#cached(hashKey(match[1]!), performance.now());
    if (!cached) return undefined;
    const decided = this.#decide(cached);
    return decided.ok ? decided.value : undefined;
  }

  /** Whether the key (found by one of its secrets) may be used now; its Principal, made once per cache entry. */
  #decide(found: CachedKey): Result<Principal, AuthFailure> {
    const { key, secret } = found;
    if (key.revokedAt !== null) return fail('key_revoked', 'this key has been revoked');
    if (secret.retiresAt !== null || key.expiresAt !== null) {
      // Compared as numbers, parsed once per cache entry: no date string made per request.
      const now = this.deps.clock.now().getTime();
      const retiresMs = (found.retiresMs ??= secret.retiresAt === null ? Infinity : Date.parse(secret.retiresAt));
      if (retiresMs <= now) return fail('key_rotated', 'this key was rotated and its grace period has ended; use its replacement');
      const expiresMs = (found.expiresMs ??= key.expiresAt === null ? Infinity : Date.parse(key.expiresAt));
      if (expiresMs <= now) return fail('key_expired', `this key expired at ${key.expiresAt}`);
    }
    found.principal ??= {
      keyId: key.id,
      tier: key.tier,
      offer: key.offer,
      languages: key.languages,
      expiresAt: key.expiresAt,
      limits: tierLimits[key.tier],
    };
    return ok(found.principal);
  }

  /** The cached entry for `hash` when it is still current at `stamp` (performance.now()), after reading the store's change counter if it is time to. */
  #cached(hash: string, stamp: number): CachedKey | undefined {
    const counter = this.deps.store.keys.changeCounter;
    if (counter && stamp - this.#counterReadAt >= KEY_CHANGE_CHECK_MS) {
      // Read before any lookup below, so a key read after this point is at least this fresh.
      this.#counterReadAt = stamp;
      const value = counter();
      if (value !== this.#counterValue) {
        if (this.#counterValue !== undefined) this.#forget(); // another connection committed: anything cached may be stale
        this.#counterValue = value;
      }
    }
    const cached = this.#cache.get(hash);
    return cached && (counter || stamp - cached.stamp < KEY_CACHE_TTL_MS) ? cached : undefined;
  }

  /** The key of `hash` from the store, cached (as of `stamp`) unless the cache was emptied meanwhile. */
  async #fromStore(hash: string, stamp: number): Promise<CachedKey | undefined> {
    if (this.deps.changes && !this.#subscribed) {
      this.#subscribed = this.deps.changes
        .subscribe(() => this.#forget())
        .catch(() => {
          this.#subscribed = undefined; // expiry still bounds staleness; try again on the next lookup
        });
      await this.#subscribed;
    }
    const generation = this.#generation;
    const found = await this.deps.store.keys.findBySecretHash(hash);
    if (!found) return undefined;
    const entry: CachedKey = { ...found, stamp };
    if (generation !== this.#generation) return entry;
    if (this.#cache.size >= KEY_CACHE_SIZE) this.#cache.delete(this.#cache.keys().next().value!);
    this.#cache.set(hash, entry);
    return entry;
  }

  /** A key changed here: forget every cached key now, and tell the other instances. */
  async #changed(keyId: string): Promise<void> {
    this.#forget();
    // Published even when nothing changed (a race with another revoke): harmless, and never fails the change itself.
    await this.deps.changes?.publish(keyId).catch(() => undefined);
  }

  #forget(): void {
    this.#cache.clear();
    this.#generation++;
  }

  #planLanguages(offer: Offer, requested: string[]): Result<string[] | null, 'invalid_parameter'> {
    const terms = offerTerms[offer];
    if (terms.languages !== 'chosen') {
      if (requested.length === 0) return ok(null);
      const covers = terms.languages === 'all' ? 'every language' : 'the foundational languages';
      return fail('invalid_parameter', `the ${offer} offer covers ${covers}; --languages is only for the pilot offer`);
    }
    const normalised: string[] = [];
    for (const code of requested) {
      const iso = this.deps.languageCodes.normalise(code);
      if (!iso) return fail('invalid_parameter', `"${code}" is not a known Bantu language code (use ISO 639-3, e.g. swh, zul, sna)`);
      if (normalised.includes(iso)) return fail('invalid_parameter', `language "${iso}" is listed twice`);
      normalised.push(iso);
    }
    if (normalised.length !== terms.chosenLanguages) {
      return fail('invalid_parameter', `the ${offer} offer needs exactly ${terms.chosenLanguages} languages (--languages a,b,c); got ${normalised.length}`);
    }
    return ok(normalised);
  }

  #secret(key: string, keyId: string, now: Date): SecretRecord {
    return { hash: hashKey(key), keyId, prefix: keyPrefix(key), createdAt: now.toISOString(), retiresAt: null };
  }
}

function statusOf(key: KeyRecord, nowIso: string): KeyStatus {
  if (key.revokedAt !== null) return 'revoked';
  if (key.expiresAt !== null && key.expiresAt <= nowIso) return 'expired';
  return 'active';
}

function isOneOf<T extends string>(values: readonly T[], value: string): value is T {
  return (values as readonly string[]).includes(value);
}
