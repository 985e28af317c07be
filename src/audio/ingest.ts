/**
 * Ingestion: consent records first, then each clip all-or-nothing — validated,
 * checksummed, deduplicated, its blob written (temp + fsync + rename) and then
 * its row inserted in one statement. Blobs left without a row by a crash are
 * removed at the start of the next run.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Clock } from '../clock.js';
import type { LanguageCodes } from '../language-codes.js';
import { audioModes, type AudioMode, type Store } from '../store/store.js';
import type { BlobStore } from './blob-store.js';
import { readManifest, type Row } from './manifest.js';
import { decodePcm, probeAudio } from './probe.js';
import { detectSwitchMs } from './switch-point.js';

export interface IngestDeps {
  store: Store;
  blobs: BlobStore;
  clock: Clock;
  languageCodes: LanguageCodes;
}

export interface IngestOptions {
  /**
   * A lock file that keeps two ingests from running on one data directory at once (the orphan
   * clean-up of one would delete the blobs the other has just written). A lock whose process is
   * gone is taken over.
   */
  lockFile?: string;
  /** One line per clip as it goes (the CLI writes them to stderr). */
  progress?: (line: string) => void;
  /** Test hook: runs after a clip's blob is stored and before its row is written. */
  afterBlob?: (file: string) => void | Promise<void>;
}

export interface IngestReport {
  consents: { added: number; refused: Array<{ row: number; reason: string }> };
  ingested: number;
  duplicates: number;
  detectedSwitches: number;
  refused: Array<{ file: string; reason: string }>;
  orphansRemoved: number;
}

/**
 * The storage ran out of space (blob folder or database disk). The ingest stops at once: the clips
 * before this one are complete (blob and row), this clip's partial blob was removed, and its row
 * was never written; `report` says what was done. Rerunning after freeing space continues.
 */
export class StorageFullError extends Error {
  constructor(
    readonly report: IngestReport,
    readonly clip: string,
  ) {
    super(
      `storage is full (no space left on device) at ${clip}: ${report.ingested} clip(s) were ingested before it and are complete; ` +
        'this one was not kept. Free space or grow the volume, then run the same ingest again: it skips what is in and continues.',
    );
    this.name = 'StorageFullError';
  }
}

/** Out of space: ENOSPC or a disk quota from the filesystem, SQLITE_FULL from the database. */
function isNoSpace(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return code === 'ENOSPC' || code === 'EDQUOT' || code === 'SQLITE_FULL';
}

/** The lock file of an ingest, in the data directory. */
export const INGEST_LOCK = 'ingest.lock';

/** Opaque, random: says nothing about the speaker, the file or its content. */
export function newRecordingId(): string {
  return `rec_${randomBytes(16).toString('base64url')}`;
}

export async function ingest(target: string, deps: IngestDeps, options: IngestOptions = {}): Promise<IngestReport> {
  const release = options.lockFile ? acquireLock(options.lockFile) : () => {};
  try {
    return await ingestLocked(target, deps, options);
  } finally {
    release();
  }
}

/** Takes the lock file or throws naming the process that holds it. */
function acquireLock(file: string): () => void {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      return () => rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(readFileSync(file, 'utf8').trim());
      if (Number.isInteger(holder) && holder > 0 && isAlive(holder)) throw new Error(`another ingest is running on this data directory (process ${holder})`);
      rmSync(file, { force: true }); // stale: its process is gone
    }
  }
  throw new Error(`could not take the ingest lock ${path.basename(file)}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function ingestLocked(target: string, deps: IngestDeps, options: IngestOptions): Promise<IngestReport> {
  const progress = options.progress ?? (() => {});
  const report: IngestReport = { consents: { added: 0, refused: [] }, ingested: 0, duplicates: 0, detectedSwitches: 0, refused: [], orphansRemoved: 0 };
  report.orphansRemoved = await removeOrphans(deps);
  if (report.orphansRemoved > 0) progress(`removed ${report.orphansRemoved} blob(s) left by an interrupted ingest`);

  const manifest = readManifest(target);
  const now = deps.clock.now().toISOString();
  for (const [i, row] of manifest.consents.entries()) {
    const problem = consentProblem(row);
    if (problem) {
      report.consents.refused.push({ row: i + 1, reason: problem });
      progress(`consent row ${i + 1}: refused: ${problem}`);
      continue;
    }
    const speakerId = await deps.store.audio.ensureSpeaker(row.speaker!, now);
    await deps.store.audio.addConsent({
      id: `cns_${randomBytes(12).toString('hex')}`,
      speakerId,
      formVersion: row.form_version!,
      scopes: row
        .scopes!.split(/[;|]/)
        .map((s) => s.trim())
        .filter(Boolean),
      consentedOn: row.consented_on!,
      jurisdiction: row.jurisdiction!,
      status: 'active',
      withdrawnAt: null,
    });
    report.consents.added++;
  }

  const total = manifest.clips.length;
  for (const [i, row] of manifest.clips.entries()) {
    const label = row.file ?? `row ${i + 1}`;
    let outcome: ClipOutcome;
    try {
      outcome = await ingestClip(row, manifest.dir, deps, options);
    } catch (error) {
      if (isNoSpace(error)) throw new StorageFullError(report, label);
      throw error;
    }
    if (outcome.status === 'refused') report.refused.push({ file: label, reason: outcome.reason });
    else if (outcome.status === 'duplicate') report.duplicates++;
    else {
      report.ingested++;
      if (outcome.detected) report.detectedSwitches++;
    }
    progress(`[${i + 1}/${total}] ${label}: ${outcome.status === 'refused' ? `refused: ${outcome.reason}` : outcome.status}`);
  }
  return report;
}

type ClipOutcome = { status: 'ingested'; detected: boolean } | { status: 'duplicate' } | { status: 'refused'; reason: string };

async function ingestClip(row: Row, dir: string, deps: IngestDeps, options: IngestOptions): Promise<ClipOutcome> {
  const refuse = (reason: string): ClipOutcome => ({ status: 'refused', reason });
  if (!row.file) return refuse('no file');
  const language = deps.languageCodes.normalise(row.language ?? '');
  if (!language) return refuse(`unknown language "${row.language ?? ''}"`);
  const mode = row.mode as AudioMode;
  if (!audioModes.includes(mode)) return refuse(`mode must be one of ${audioModes.join(', ')}`);
  const numeral = Number(row.numeral);
  if (!Number.isInteger(numeral)) return refuse('numeral must be an integer');
  if (!row.transcript) return refuse('no transcript');
  if (!row.speaker) return refuse('no speaker');
  const speakerId = await deps.store.audio.speakerIdOf(row.speaker);
  if (!speakerId || !(await deps.store.audio.hasActiveConsent(speakerId))) return refuse(`no active consent record for speaker "${row.speaker}"`);
  if (mode === 'bantu_only' && row.switch_ms !== undefined) return refuse('switch_ms is only for bantu_english clips');

  const file = path.resolve(dir, row.file);
  let sha256: string;
  try {
    sha256 = await sha256File(file);
  } catch (error) {
    return refuse(`cannot read the file: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  if (await deps.store.audio.hasSha(sha256)) return { status: 'duplicate' };
  const probed = await probeAudio(file);
  if (!probed.ok) return refuse(probed.message);
  const facts = probed.value;

  let switchMs: number | null = null;
  let detected = false;
  if (mode === 'bantu_english') {
    if (row.switch_ms !== undefined) {
      switchMs = Number(row.switch_ms);
      if (!Number.isInteger(switchMs) || switchMs <= 0 || switchMs >= facts.durationMs) {
        return refuse(`switch_ms ${row.switch_ms} is outside (0, ${facts.durationMs}) ms`);
      }
    } else {
      const pcm = await decodePcm(file, facts.format);
      if (!pcm.ok) return refuse(pcm.message);
      const proposed = detectSwitchMs(pcm.value.samples, pcm.value.sampleRate);
      if (proposed === undefined || proposed <= 0 || proposed >= facts.durationMs) return refuse('switch_ms is missing and no pause was found to propose one');
      switchMs = proposed;
      detected = true;
    }
  }

  await deps.blobs.putFile(file, sha256);
  await options.afterBlob?.(file);
  await deps.store.audio.insertRecording({
    recordingId: newRecordingId(),
    language,
    mode,
    numeral,
    transcript: row.transcript,
    transcriptEnglish: row.transcript_english ?? null,
    switchMs,
    switchDetected: detected,
    durationMs: facts.durationMs,
    sampleRate: facts.sampleRate,
    channels: facts.channels,
    format: facts.format,
    bytes: (await deps.blobs.size(sha256)) ?? 0,
    sha256,
    sampleRank: createHash('sha256').update(`${language}\n${mode}\n${sha256}`).digest('hex'),
    synthetic: ['1', 'true', 'yes'].includes((row.synthetic ?? '').toLowerCase()),
    speakerId,
    createdAt: deps.clock.now().toISOString(),
  });
  return { status: 'ingested', detected };
}

function consentProblem(row: Row): string | undefined {
  for (const field of ['speaker', 'form_version', 'scopes', 'consented_on', 'jurisdiction']) {
    if (!row[field]) return `missing ${field}`;
  }
  if (!/^\d{4}-\d{2}-\d{2}$/.test(row.consented_on!)) return 'consented_on must be YYYY-MM-DD';
  return undefined;
}

/** Deletes temporary files and blobs that no recording refers to. */
async function removeOrphans(deps: IngestDeps): Promise<number> {
  let removed = await deps.blobs.cleanTemporary();
  const known = await deps.store.audio.allShas();
  for (const key of await deps.blobs.list()) {
    if (!known.has(key)) {
      await deps.blobs.delete(key);
      removed++;
    }
  }
  return removed;
}

export async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
