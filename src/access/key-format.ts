/**
 * The shape of API keys: `lugha_` followed by 43 base62 characters carrying
 * 256 random bits. Keys are kept only as SHA-256 hashes: with that much entropy a
 * fast hash is safe, and it lets a request find its key by an indexed lookup.
 */
import * as crypto from 'node:crypto';
import { createHash, randomBytes } from 'node:crypto';

export const KEY_PREFIX = 'lugha_';
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SECRET_LENGTH = 43; // ceil(256 / log2(62))
export const KEY_PATTERN = new RegExp(`^${KEY_PREFIX}[0-9A-Za-z]{${SECRET_LENGTH}}$`);

/** Encodes `bytes` as fixed-width base62. */
function base62(bytes: Buffer, width: number): string {
  let n = BigInt(`0x${bytes.toString('hex')}`);
  let out = '';
  for (let i = 0; i < width; i++) {
    out = ALPHABET[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out;
}

/** A fresh API key. */
export function generateKey(): string {
  return KEY_PREFIX + base62(randomBytes(32), SECRET_LENGTH);
}

/** A fresh public key id (`key_` + 16 base62 characters); safe to show and log. */
export function generateKeyId(): string {
  return `key_${base62(randomBytes(12), 16)}`;
}

/**
 * Node's one-shot digest (20.12+; not in @types/node 20): about 1 µs less per request than a
 * Hash object, and every request with a key hashes it once. Same bytes (a string is UTF-8).
 */
const oneShotHash = (crypto as unknown as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;

/** The form in which a key is stored and looked up. */
export function hashKey(key: string): string {
  return oneShotHash ? oneShotHash('sha256', key, 'hex') : createHash('sha256').update(key, 'utf8').digest('hex');
}

/** The first characters of a key, enough to tell keys apart in a listing. */
export function keyPrefix(key: string): string {
  return key.slice(0, KEY_PREFIX.length + 6);
}

/** Whether `value` has the shape of a Lugha key (it may still be unknown). */
export function isWellFormedKey(value: string): boolean {
  return KEY_PATTERN.test(value);
}
