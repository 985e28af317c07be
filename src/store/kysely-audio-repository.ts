/**
 * The audio corpus in any Kysely database (portable SQL: SQLite and PostgreSQL):
 * speakers, their consent records and the recordings, with live coverage counts.
 */
import { randomBytes } from 'node:crypto';
import type { ExpressionBuilder, Kysely, Selectable } from 'kysely';
import { sql } from './kysely.js';
import type { ConsentsTable, Database, RecordingsTable } from './schema.js';
import type { AudioMode, AudioRepository, ConsentRecord, ConsentSummaryRow, CoverageCount, RecordingRecord, RecordingWithConsent } from './store.js';

type Eb = ExpressionBuilder<Database & { r: RecordingsTable }, 'r'>;

/** True when the recording's speaker has an active consent record. */
function consentedExpr(eb: Eb) {
  return eb.exists(eb.selectFrom('consents as c').select('c.id').whereRef('c.speaker_id', '=', 'r.speaker_id').where('c.status', '=', 'active'));
}

/** How many recordings of the same language and mode come before this one in sample order. */
function rankExpr() {
  return sql<number>`(select count(*) from recordings r2 where r2.language = r.language and r2.mode = r.mode and (r2.sample_rank < r.sample_rank or (r2.sample_rank = r.sample_rank and r2.recording_id < r.recording_id)))`;
}

export class KyselyAudioRepository implements AudioRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async ensureSpeaker(localId: string, at: string): Promise<string> {
    const existing = await this.speakerIdOf(localId);
    if (existing) return existing;
    const id = `spk_${randomBytes(12).toString('hex')}`;
    await this.db
      .insertInto('speakers')
      .values({ id, local_id: localId, created_at: at })
      .onConflict((oc) => oc.column('local_id').doNothing())
      .execute();
    return (await this.speakerIdOf(localId))!;
  }

  async speakerIdOf(localId: string): Promise<string | undefined> {
    const row = await this.db.selectFrom('speakers').select('id').where('local_id', '=', localId).executeTakeFirst();
    return row?.id;
  }

  async addConsent(record: ConsentRecord): Promise<void> {
    const same = await this.db
      .selectFrom('consents')
      .select('id')
      .where('speaker_id', '=', record.speakerId)
      .where('form_version', '=', record.formVersion)
      .where('consented_on', '=', record.consentedOn)
      .executeTakeFirst();
    if (same) return;
    await this.db.insertInto('consents').values(consentRow(record)).execute();
  }

  async hasActiveConsent(speakerId: string): Promise<boolean> {
    const row = await this.db.selectFrom('consents').select('id').where('speaker_id', '=', speakerId).where('status', '=', 'active').executeTakeFirst();
    return row !== undefined;
  }

  async listConsents() {
    const rows = await this.db.selectFrom('consents as c').innerJoin('speakers as s', 's.id', 'c.speaker_id').selectAll('c').select('s.local_id').orderBy('s.local_id').orderBy('c.consented_on').execute();
    return rows.map((row) => ({ ...toConsent(row), localId: row.local_id }));
  }

  async withdraw(localId: string, at: string): Promise<number> {
    const speakerId = await this.speakerIdOf(localId);
    if (!speakerId) return 0;
    const result = await this.db.updateTable('consents').set({ status: 'withdrawn', withdrawn_at: at }).where('speaker_id', '=', speakerId).where('status', '=', 'active').executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async insertRecording(record: RecordingRecord): Promise<void> {
    await this.db.insertInto('recordings').values(recordingRow(record)).execute();
  }

  async hasSha(sha256: string): Promise<boolean> {
    return (await this.db.selectFrom('recordings').select('recording_id').where('sha256', '=', sha256).executeTakeFirst()) !== undefined;
  }

  async allShas(): Promise<Set<string>> {
    const rows = await this.db.selectFrom('recordings').select('sha256').execute();
    return new Set(rows.map((r) => r.sha256));
  }

  async getRecording(recordingId: string): Promise<RecordingWithConsent | undefined> {
    const row = await this.db
      .selectFrom('recordings as r')
      .selectAll('r')
      .select((eb) => consentedExpr(eb as unknown as Eb).as('consented'))
      .where('r.recording_id', '=', recordingId)
      .executeTakeFirst();
    return row ? { ...toRecording(row), consented: Boolean(row.consented) } : undefined;
  }

  async listRecordings(query: { language: string; mode?: AudioMode; sampleCap?: number; limit: number; offset: number }) {
    let base = this.db
      .selectFrom('recordings as r')
      .where('r.language', '=', query.language)
      .where((eb) => consentedExpr(eb as unknown as Eb));
    if (query.mode) base = base.where('r.mode', '=', query.mode);
    if (query.sampleCap !== undefined) base = base.where(rankExpr(), '<', query.sampleCap);
    const total = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
    const rows = await base.selectAll('r').orderBy('r.mode').orderBy('r.sample_rank').orderBy('r.recording_id').limit(query.limit).offset(query.offset).execute();
    return { items: rows.map(toRecording), total: Number(total?.n ?? 0) };
  }

  async inSample(recordingId: string, cap: number): Promise<boolean> {
    const row = await this.db.selectFrom('recordings as r').select(rankExpr().as('rank')).where('r.recording_id', '=', recordingId).executeTakeFirst();
    return row !== undefined && Number(row.rank) < cap;
  }

  async coverage(language?: string): Promise<CoverageCount[]> {
    let q = this.db
      .selectFrom('recordings as r')
      .where((eb) => consentedExpr(eb as unknown as Eb))
      .select((eb) => [
        'r.language',
        'r.mode',
        eb.fn.countAll<number>().as('clips'),
        eb.fn.count<number>('r.speaker_id').distinct().as('speakers'),
        eb.fn.sum<number>('r.duration_ms').as('duration_ms'),
        eb.fn.sum<number>('r.synthetic').as('synthetic'),
      ])
      .groupBy(['r.language', 'r.mode'])
      .orderBy('r.language')
      .orderBy('r.mode');
    if (language) q = q.where('r.language', '=', language);
    const rows = await q.execute();
    return rows.map((row) => ({
      language: row.language,
      mode: row.mode as AudioMode,
      clips: Number(row.clips),
      speakers: Number(row.speakers),
      durationMs: Number(row.duration_ms ?? 0),
      synthetic: Number(row.synthetic ?? 0),
    }));
  }

  async rangeSeen(keyId: string, recordingId: string, day: string): Promise<boolean> {
    const row = await this.db.selectFrom('audio_range_seen').select('day').where('key_id', '=', keyId).where('recording_id', '=', recordingId).where('day', '=', day).executeTakeFirst();
    return row !== undefined;
  }

  async markRangeSeen(keyId: string, recordingId: string, day: string): Promise<void> {
    await this.db
      .insertInto('audio_range_seen')
      .values({ key_id: keyId, recording_id: recordingId, day })
      .onConflict((oc) => oc.columns(['key_id', 'recording_id', 'day']).doNothing())
      .execute();
  }

  async speakersPerLanguage(language?: string): Promise<Map<string, number>> {
    let q = this.db
      .selectFrom('recordings as r')
      .where((eb) => consentedExpr(eb as unknown as Eb))
      .select((eb) => ['r.language', eb.fn.count<number>('r.speaker_id').distinct().as('speakers')])
      .groupBy('r.language');
    if (language) q = q.where('r.language', '=', language);
    const rows = await q.execute();
    return new Map(rows.map((row) => [row.language, Number(row.speakers)]));
  }

  async consentSummary(language: string): Promise<ConsentSummaryRow[]> {
    const rows = await this.db
      .selectFrom('consents as c')
      .innerJoin('recordings as r', 'r.speaker_id', 'c.speaker_id')
      .where('r.language', '=', language)
      .select((eb) => [
        'c.form_version',
        'c.scopes',
        'c.jurisdiction',
        'c.status',
        'c.consented_on',
        'c.withdrawn_at',
        eb.fn.count<number>('c.speaker_id').distinct().as('speakers'),
        eb.fn.count<number>('r.recording_id').distinct().as('clips'),
        eb.fn.sum<number>('r.synthetic').as('synthetic'),
      ])
      .groupBy(['c.form_version', 'c.scopes', 'c.jurisdiction', 'c.status', 'c.consented_on', 'c.withdrawn_at'])
      .orderBy('c.consented_on')
      .orderBy('c.form_version')
      .execute();
    return rows.map((row) => ({
      formVersion: row.form_version,
      scopes: JSON.parse(row.scopes) as string[],
      jurisdiction: row.jurisdiction,
      status: row.status as 'active' | 'withdrawn',
      consentedOn: row.consented_on,
      // Only the day: a withdrawal time to the second could single out a speaker.
      withdrawnAt: row.withdrawn_at ? row.withdrawn_at.slice(0, 10) : null,
      speakers: Number(row.speakers),
      clips: Number(row.clips),
      synthetic: Number(row.synthetic ?? 0) > 0 ? Number(row.clips) : 0,
    }));
  }
}

function consentRow(record: ConsentRecord): ConsentsTable {
  return {
    id: record.id,
    speaker_id: record.speakerId,
    form_version: record.formVersion,
    scopes: JSON.stringify(record.scopes),
    consented_on: record.consentedOn,
    jurisdiction: record.jurisdiction,
    status: record.status,
    withdrawn_at: record.withdrawnAt,
  };
}

function toConsent(row: Selectable<ConsentsTable>): ConsentRecord {
  return {
    id: row.id,
    speakerId: row.speaker_id,
    formVersion: row.form_version,
    scopes: JSON.parse(row.scopes) as string[],
    consentedOn: row.consented_on,
    jurisdiction: row.jurisdiction,
    status: row.status as 'active' | 'withdrawn',
    withdrawnAt: row.withdrawn_at,
  };
}

function recordingRow(r: RecordingRecord) {
  return {
    recording_id: r.recordingId,
    language: r.language,
    mode: r.mode,
    numeral: r.numeral,
    transcript: r.transcript,
    transcript_english: r.transcriptEnglish,
    switch_ms: r.switchMs,
    switch_detected: r.switchDetected ? 1 : 0,
    duration_ms: r.durationMs,
    sample_rate: r.sampleRate,
    channels: r.channels,
    format: r.format,
    bytes: r.bytes,
    sha256: r.sha256,
    sample_rank: r.sampleRank,
    synthetic: r.synthetic ? 1 : 0,
    speaker_id: r.speakerId,
    created_at: r.createdAt,
  };
}

function toRecording(row: Selectable<RecordingsTable>): RecordingRecord {
  return {
    recordingId: row.recording_id,
    language: row.language,
    mode: row.mode as AudioMode,
    numeral: Number(row.numeral),
    transcript: row.transcript,
    transcriptEnglish: row.transcript_english,
    switchMs: row.switch_ms === null ? null : Number(row.switch_ms),
    switchDetected: Boolean(row.switch_detected),
    durationMs: Number(row.duration_ms),
    sampleRate: Number(row.sample_rate),
    channels: Number(row.channels),
    format: row.format,
    bytes: Number(row.bytes),
    sha256: row.sha256,
    sampleRank: row.sample_rank,
    synthetic: Boolean(row.synthetic),
    speakerId: row.speaker_id,
    createdAt: row.created_at,
  };
}
