/**
 * The audio corpus as callers see it: which languages an offer covers, the
 * capped sample, clip listings, the access decision for one clip, coverage
 * counts, the consent manifest and the dataset card. Never returns a speaker
 * id, a checksum, a blob key or a path.
 */
import type { Principal } from '../access/key-service.js';
import { offerTerms } from '../access/plans.js';
import type { LanguageCodes } from '../language-codes.js';
import { fail, ok, type Result } from '../result.js';
import type { AudioMode, CoverageCount, RecordingRecord, Store } from '../store/store.js';
import type { ClipView, ConsentManifest, CoverageView, DatasetCard, Voices } from './api.js';
import type { BlobStore } from './blob-store.js';
import { contentTypes, type AudioFormat } from './probe.js';

export interface AudioServiceDeps {
  store: Store;
  blobs: BlobStore;
  languageCodes: LanguageCodes;
  /** Languages whose cartridge is marked foundational (the Evaluation offer's audio). */
  foundational: () => string[];
  /** Language names for cards; undefined when no cartridge is installed. */
  languageName: (iso: string) => string | undefined;
  audioBase: string;
  sampleCap: number;
}

/** A clip as listed and a language's coverage are the types of their API schemas (./api.ts). */
export type { ClipView, CoverageView } from './api.js';

export type AccessFailure = 'language_not_found' | 'language_not_in_plan' | 'not_in_tier' | 'recording_not_found' | 'consent_withdrawn';

export class AudioService {
  constructor(private readonly deps: AudioServiceDeps) {}

  /** The ISO 639-3 code of `code`, or language_not_found. */
  language(code: string): Result<string, 'language_not_found'> {
    const iso = this.deps.languageCodes.normalise(code);
    return iso ? ok(iso) : fail('language_not_found', `"${code}" is not a known Bantu language code`);
  }

  /** Whether the caller's offer covers audio in `iso`. */
  covers(principal: Principal, iso: string): boolean {
    const terms = offerTerms[principal.offer];
    if (terms.languages === 'all') return true;
    if (terms.languages === 'chosen') return (principal.languages ?? []).includes(iso);
    return this.deps.foundational().includes(iso);
  }

  /** The sample cap that applies to the caller, or undefined when uncapped. */
  capOf(principal: Principal): number | undefined {
    return offerTerms[principal.offer].sampleCapped ? this.deps.sampleCap : undefined;
  }

  #planRefusal(principal: Principal, iso: string) {
    const terms = offerTerms[principal.offer];
    const which = terms.languages === 'chosen' ? `the languages of this pilot (${(principal.languages ?? []).join(', ')})` : 'the foundational languages';
    return fail('language_not_in_plan', `audio in ${iso} is not in this key's ${principal.offer} offer, which covers ${which}`);
  }

  async list(principal: Principal, code: string, query: { n: number; page: number; mode?: AudioMode }) {
    const iso = this.language(code);
    if (!iso.ok) return iso;
    if (!this.covers(principal, iso.value)) return this.#planRefusal(principal, iso.value);
    const cap = this.capOf(principal);
    const { items, total } = await this.deps.store.audio.listRecordings({
      language: iso.value,
      mode: query.mode,
      sampleCap: cap,
      limit: query.n,
      offset: (query.page - 1) * query.n,
    });
    return ok({
      status: 'ok' as const,
      data: items.map((r) => this.view(r)),
      meta: { count: items.length, page: query.page, per_page: query.n, total, pages: Math.max(1, Math.ceil(total / query.n)), sample_capped: cap !== undefined, sample_cap: cap ?? null },
    });
  }

  /** The access decision for one clip, taken afresh on every request. */
  async authorizeClip(principal: Principal, recordingId: string): Promise<Result<RecordingRecord & { contentType: string }, AccessFailure>> {
    const recording = await this.deps.store.audio.getRecording(recordingId);
    if (!recording) return fail('recording_not_found', 'no recording has this id');
    if (!this.covers(principal, recording.language)) return this.#planRefusal(principal, recording.language);
    const cap = this.capOf(principal);
    if (cap !== undefined && !(await this.deps.store.audio.inSample(recordingId, cap))) {
      return fail('not_in_tier', `this recording is outside the ${cap}-clip sample per language and mode that the ${principal.offer} offer may play`);
    }
    if (!recording.consented) return fail('consent_withdrawn', 'the speaker of this recording withdrew their consent; it is no longer served');
    return ok({ ...recording, contentType: contentTypes[recording.format as AudioFormat] ?? 'application/octet-stream' });
  }

  view(r: RecordingRecord): ClipView {
    return {
      recording_id: r.recordingId,
      language: r.language,
      mode: r.mode,
      numeral: r.numeral,
      transcript: r.transcript,
      transcript_english: r.transcriptEnglish,
      switch_ms: r.mode === 'bantu_english' ? r.switchMs : null,
      switch_ms_detected: r.mode === 'bantu_english' ? r.switchDetected : null,
      duration_ms: r.durationMs,
      sample_rate: r.sampleRate,
      channels: r.channels,
      format: r.format,
      content_type: contentTypes[r.format as AudioFormat] ?? 'application/octet-stream',
      bytes: r.bytes,
      synthetic: r.synthetic,
      url: `${this.deps.audioBase}/audio/${encodeURIComponent(r.recordingId)}`,
    };
  }

  /** Live coverage per language (every language with at least one consented clip, or just `iso`). */
  async coverage(iso?: string): Promise<CoverageView[]> {
    const rows = await this.deps.store.audio.coverage(iso);
    const speakers = await this.deps.store.audio.speakersPerLanguage(iso);
    const byLanguage = new Map<string, CoverageCount[]>();
    for (const row of rows) byLanguage.set(row.language, [...(byLanguage.get(row.language) ?? []), row]);
    if (iso && !byLanguage.has(iso)) byLanguage.set(iso, []);
    return [...byLanguage.entries()].map(([language, counts]) => {
      const mode = (m: AudioMode) => {
        const c = counts.find((x) => x.mode === m);
        return { clips: c?.clips ?? 0, speakers: c?.speakers ?? 0, duration_ms: c?.durationMs ?? 0 };
      };
      return {
        language,
        clips: counts.reduce((s, c) => s + c.clips, 0),
        // A speaker may record both modes, so the total is not the sum of the modes.
        speakers: speakers.get(language) ?? 0,
        duration_ms: counts.reduce((s, c) => s + c.durationMs, 0),
        synthetic_clips: counts.reduce((s, c) => s + c.synthetic, 0),
        modes: { bantu_only: mode('bantu_only'), bantu_english: mode('bantu_english') },
      };
    });
  }

  /** The voices listing: the caller's tier and offer (or public), and per-language coverage. */
  async voices(principal: Principal | undefined): Promise<Voices> {
    const coverage = await this.coverage();
    return {
      tier: principal?.tier ?? 'public',
      offer: principal?.offer ?? null,
      sample_cap: principal ? (this.capOf(principal) ?? null) : this.deps.sampleCap,
      languages: coverage.map((c) => ({
        ...c,
        name: this.deps.languageName(c.language) ?? null,
        playable: principal ? this.covers(principal, c.language) : null,
      })),
    };
  }

  /** Non-PII consent provenance for a language: grouped records, counts and the withdrawal policy. */
  async consentManifest(iso: string): Promise<ConsentManifest> {
    const rows = await this.deps.store.audio.consentSummary(iso);
    const [coverage] = await this.coverage(iso);
    return {
      language: iso,
      clips_served: coverage?.clips ?? 0,
      synthetic_clips: coverage?.synthetic_clips ?? 0,
      synthetic_note: (coverage?.synthetic_clips ?? 0) > 0 ? 'Some or all clips are synthetic (machine-generated from text for demonstration); they are not recordings of native speakers.' : null,
      consent_records: rows.map((r) => ({
        form_version: r.formVersion,
        scopes: r.scopes,
        jurisdiction: r.jurisdiction,
        consented_on: r.consentedOn,
        status: r.status,
        withdrawn_on: r.withdrawnAt,
        speakers: r.speakers,
        clips: r.clips,
        synthetic: r.synthetic > 0,
      })),
      withdrawal_policy:
        'A speaker may withdraw consent at any time. Withdrawal takes effect on the next request on every instance: ' +
        'the clips are no longer listed, counted or served (the proxy answers 410), and this manifest and the dataset card follow at once.',
      pii: 'None: no speaker names, ids, contact details or storage locations appear here.',
    };
  }

  /** The Hugging Face dataset card's metadata and prose for a language. */
  async datasetCard(iso: string): Promise<DatasetCard> {
    const [coverage] = await this.coverage(iso);
    const c = coverage!;
    const name = this.deps.languageName(iso) ?? iso;
    const synthetic = c.synthetic_clips > 0;
    const metadata = {
      language: [iso],
      pretty_name: `Lugha numerals: ${name}${synthetic ? ' (synthetic demo)' : ''}`,
      license: 'other',
      license_name: 'lugha-consented-audio',
      task_categories: ['automatic-speech-recognition', 'text-to-speech', 'audio-classification'],
      size_categories: [sizeCategory(c.clips)],
      tags: ['bantu', 'numerals', 'code-switching', ...(synthetic ? ['synthetic'] : [])],
      configs: (['bantu_only', 'bantu_english'] as const).map((mode) => ({ config_name: mode, data_files: [{ split: 'train', path: `${mode}/*` }] })),
      dataset_info: {
        features: [
          { name: 'recording_id', dtype: 'string' },
          { name: 'audio', dtype: 'audio' },
          { name: 'mode', dtype: 'string' },
          { name: 'numeral', dtype: 'int32' },
          { name: 'transcript', dtype: 'string' },
          { name: 'transcript_english', dtype: 'string' },
          { name: 'switch_ms', dtype: 'int32' },
          { name: 'duration_ms', dtype: 'int32' },
        ],
        splits: [{ name: 'train', num_examples: c.clips }],
      },
    };
    const prose = [
      `# Lugha numerals: ${name}`,
      '',
      `Spoken numerals in ${name} (\`${iso}\`) in two modes: \`bantu_only\` (the numeral in ${name}) and ` + '`bantu_english` (a code-switch from the Bantu numeral into English, with the switch point `switch_ms`).',
      '',
      '## Counts (live)',
      '',
      `- clips: ${c.clips} (bantu_only ${c.modes.bantu_only.clips}, bantu_english ${c.modes.bantu_english.clips})`,
      `- speakers: ${c.speakers}`,
      `- total duration: ${(c.duration_ms / 1000).toFixed(1)} s`,
      '',
      '## Provenance and consent',
      '',
      synthetic
        ? `**Synthetic data.** ${c.synthetic_clips} of ${c.clips} clips were machine-generated from text for demonstration; they are not recordings of native speakers and must not be used as such.`
        : 'Every clip was recorded by a speaker who signed a consent form; the consent manifest lists form versions, scopes, dates and jurisdictions.',
      '',
      `Consent manifest: \`${this.deps.audioBase}/${iso}/consent-manifest\`. Withdrawn consent removes clips from every count and listing at once.`,
      '',
      '## Access',
      '',
      `Clips stream only through \`${this.deps.audioBase}/audio/{recording_id}\` with an API key; Evaluation and Pilot keys play a fixed sample.`,
    ].join('\n');
    return { metadata, prose };
  }
}

function sizeCategory(n: number): string {
  if (n < 1000) return 'n<1K';
  if (n < 10_000) return '1K<n<10K';
  if (n < 100_000) return '10K<n<100K';
  if (n < 1_000_000) return '100K<n<1M';
  return 'n>1M';
}
