/**
 * Blob storage behind one interface (filesystem now; S3 with the scale-out work).
 * Blobs are content-addressed by their SHA-256; the key never leaves the service.
 */
import type { Readable } from 'node:stream';

export interface BlobStore {
  /** What kind of storage this is (`filesystem`, `s3` ...), for status pages; never a path or bucket. */
  readonly kind?: string;
  /** Stores the file's bytes under their SHA-256 (hex) and returns it; a no-op when present. */
  putFile(file: string, sha256: string): Promise<void>;
  has(sha256: string): Promise<boolean>;
  /** Size in bytes, or undefined when missing. */
  size(sha256: string): Promise<number | undefined>;
  /** Bytes `start..end` inclusive (the whole blob when omitted). */
  read(sha256: string, range?: { start: number; end: number }): Readable;
  delete(sha256: string): Promise<void>;
  /** Every stored key (for orphan cleanup). */
  list(): Promise<string[]>;
  /** Removes temporary files left by an interrupted write. */
  cleanTemporary(): Promise<number>;
  /** Resolves when the storage itself (folder, bucket) is there and answers; the error names no path or bucket. */
  ping(): Promise<void>;
}
