/** Digests of files on disk, for caches and figures that must notice when their inputs change. */
import type { Hash } from 'node:crypto';
import { readFileSync } from 'node:fs';
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
