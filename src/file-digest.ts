/** Digests of files on disk, for caches and figures that must notice when their inputs change. */
import { createHash, type Hash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * Feeds each named file of `dir` into `hash`, in the order given, as its name and its bytes, each
 * followed by a NUL: the digest changes when any name or byte does. Returns `hash`.
 */
export function updateWithFiles(hash: Hash, dir: string, names: readonly string[]): Hash {
  for (const name of names)
    hash
      .update(name)
      .update('\0')
      .update(readFileSync(path.join(dir, name)))
      .update('\0');
  return hash;
}

/**
 * A digest of the code in `dirs`: every .js/.ts module of each folder (declaration files left
 * out), by name and bytes, after `seed`. Caches key on it so that files built by other code are
 * never reused.
 */
export function modulesDigest(dirs: readonly string[], seed = ''): string {
  const hash = createHash('sha256').update(seed);
  for (const dir of dirs) {
    const names = readdirSync(dir)
      .filter((n) => /\.(js|ts)$/.test(n) && !n.endsWith('.d.ts'))
      .sort();
    updateWithFiles(hash, dir, names);
  }
  return hash.digest('hex');
}

/** A cache key of a folder's files (names and bytes, subfolders left out) after `seed`: 24 hex digits. */
export function folderKey(dir: string, seed: string): string {
  const hash = createHash('sha256').update(seed);
  const files = readdirSync(dir)
    .sort()
    .filter((name) => statSync(path.join(dir, name)).isFile());
  return updateWithFiles(hash, dir, files).digest('hex').slice(0, 24);
}
