/** Digests of files on disk, for caches and figures that must notice when their inputs change, and the caches' writes. */
import { createHash, type Hash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
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

/**
 * A digest of a folder's files (names and bytes, subfolders left out), no seed: what a cache entry
 * built from the folder was built from. Taken before and after the folder is read, it tells whether
 * the read saw one version of the folder (`seededKey` turns it into a cache key).
 */
export function folderDigest(dir: string): string {
  const files = readdirSync(dir)
    .sort()
    .filter((name) => statSync(path.join(dir, name)).isFile());
  return updateWithFiles(createHash('sha256'), dir, files).digest('hex');
}

/** A cache key of a folder whose `folderDigest` is `digest`, after `seed` (the code that reads it): 24 hex digits. */
export function seededKey(seed: string, digest: string): string {
  return createHash('sha256').update(seed).update('\0').update(digest).digest('hex').slice(0, 24);
}

/** A cache key of a folder's files (names and bytes, subfolders left out) after `seed`: 24 hex digits. */
export function folderKey(dir: string, seed: string): string {
  const hash = createHash('sha256').update(seed);
  const files = readdirSync(dir)
    .sort()
    .filter((name) => statSync(path.join(dir, name)).isFile());
  return updateWithFiles(hash, dir, files).digest('hex').slice(0, 24);
}

/** A folder's files changed less than this before its key was made are not noted (`notedFolderKey`). */
const NOTE_MARGIN_NS = 2_000_000_000n;

/**
 * `folderKey`, noted in `noteFile` with the folder's path and each file's name, size, inode and
 * modification and change times, and taken from the note while all of them are the same: a folder
 * is read and hashed once, not at every start of a process. A write changes a file's change time
 * (which no tool sets back), a rename its inode; a folder where a file changed within
 * NOTE_MARGIN_NS of the hashing is not noted (a change within the same tick of the file system's
 * clock would keep the times), so it is hashed again next time. A note that cannot be read or
 * written only costs the hashing.
 */
export function notedFolderKey(dir: string, seed: string, noteFile: string): string {
  const stats: string[][] = [];
  let newest = 0n;
  for (const name of readdirSync(dir).sort()) {
    const stat = statSync(path.join(dir, name), { bigint: true });
    if (!stat.isFile()) continue;
    stats.push([name, String(stat.size), String(stat.ino), String(stat.mtimeNs), String(stat.ctimeNs)]);
    for (const time of [stat.mtimeNs, stat.ctimeNs]) if (time > newest) newest = time;
  }
  const fingerprint = JSON.stringify([path.resolve(dir), seed, stats]);
  try {
    const note = JSON.parse(readFileSync(noteFile, 'utf8')) as { fingerprint?: unknown; key?: unknown };
    if (note.fingerprint === fingerprint && typeof note.key === 'string') return note.key;
  } catch {
    // No note yet, or not one of these: hashed below.
  }
  const key = folderKey(dir, seed);
  if (BigInt(Date.now()) * 1_000_000n - newest > NOTE_MARGIN_NS) {
    replaceCacheFile(noteFile, JSON.stringify({ fingerprint, key }), path.basename(noteFile));
  }
  return key;
}

/**
 * Writes a cache file whole: `data` to a temporary file beside `file`, then a rename, so a reader
 * sees the old file or the new one, never half of one. Then removes the other files of its folder
 * whose names start with `stalePrefix` (older versions of the same entry; temporary files of other
 * writers are left alone). False when the folder cannot be written: a cache is an optimisation, and
 * the caller reads its sources again next time.
 */
export function replaceCacheFile(file: string, data: string | Buffer, stalePrefix: string): boolean {
  const dir = path.dirname(file);
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(temporary, data);
    renameSync(temporary, file);
    for (const name of readdirSync(dir)) {
      if (name.startsWith(stalePrefix) && path.join(dir, name) !== file && !name.endsWith('.tmp')) rmSync(path.join(dir, name), { force: true });
    }
    return true;
  } catch {
    rmSync(temporary, { force: true });
    return false;
  }
}
