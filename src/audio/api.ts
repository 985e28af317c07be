/**
 * The audio API's answers as zod schemas: a clip as listed, live coverage, the voices listing,
 * the consent manifest and the dataset card. The audio routes declare them as their response
 * schemas (validation-free serialisation and OpenAPI); the audio service's types are inferred
 * from them. None has a member for a speaker id, checksum, blob key or path.
 */
import { z } from 'zod';
import { offers, tiers } from '../access/plans.js';
import { audioModes } from '../store/store.js';

/** A clip as listed to callers. */
export const clipSchema = z.object({
  recording_id: z.string().describe('Stable, opaque id of the recording.'),
  language: z.string().describe('ISO 639-3 code.'),
  mode: z.enum(audioModes),
  numeral: z.number().describe('The number spoken.'),
  transcript: z.string(),
  transcript_english: z.string().nullable(),
  switch_ms: z.number().nullable().describe('Where the speaker switches into English (bantu_english only; null otherwise).'),
  switch_ms_detected: z.boolean().nullable().describe('Whether switch_ms was detected from the audio rather than given at ingest (bantu_english only).'),
  duration_ms: z.number(),
  sample_rate: z.number().int(),
  channels: z.number().int(),
  format: z.string().describe('wav, flac, mp3 or ogg.'),
  content_type: z.string(),
  bytes: z.number().int(),
  synthetic: z.boolean().describe('Machine-generated from text (demo data), not a native speaker.'),
  url: z.string().describe('The clip on the streaming proxy (needs the key).'),
});
export type ClipView = z.infer<typeof clipSchema>;

const modeCoverageSchema = z.object({ clips: z.number().int(), speakers: z.number().int(), duration_ms: z.number() });

/** Live coverage of one language: consented clips only. */
export const coverageSchema = z.object({
  language: z.string().describe('ISO 639-3 code.'),
  clips: z.number().int(),
  speakers: z.number().int().describe('Speakers with a clip in either mode (one who recorded both counts once).'),
  duration_ms: z.number(),
  synthetic_clips: z.number().int(),
  modes: z.object({ bantu_only: modeCoverageSchema, bantu_english: modeCoverageSchema }),
});
export type CoverageView = z.infer<typeof coverageSchema>;

/** GET /voices: the caller's tier and offer (or public), and the coverage of every language with audio. */
export const voicesSchema = z.object({
  tier: z.enum([...tiers, 'public']).describe('The key\'s tier, or "public" without a key.'),
  offer: z.enum(offers).nullable().describe("The key's offer; null without a key."),
  sample_cap: z.number().int().nullable().describe('Clips per language and mode a capped caller may play; null for an uncapped key.'),
  languages: z.array(
    coverageSchema.extend({
      name: z.string().nullable(),
      playable: z.boolean().nullable().describe("Whether the key's offer covers this language; null without a key."),
    }),
  ),
});
export type Voices = z.infer<typeof voicesSchema>;

/** The consent manifest: non-PII consent provenance for one language. */
export const consentManifestSchema = z.object({
  language: z.string(),
  clips_served: z.number().int(),
  synthetic_clips: z.number().int(),
  synthetic_note: z.string().nullable(),
  consent_records: z.array(
    z.object({
      form_version: z.string(),
      scopes: z.array(z.string()),
      jurisdiction: z.string(),
      consented_on: z.string().describe('YYYY-MM-DD.'),
      status: z.enum(['active', 'withdrawn']),
      withdrawn_on: z.string().nullable(),
      speakers: z.number().int(),
      clips: z.number().int(),
      synthetic: z.boolean(),
    }),
  ),
  withdrawal_policy: z.string(),
  pii: z.string(),
});
export type ConsentManifest = z.infer<typeof consentManifestSchema>;

/** The dataset card as JSON (`Accept: application/json`): the Hugging Face metadata and the prose. */
export const datasetCardSchema = z.object({
  metadata: z.object({
    language: z.array(z.string()),
    pretty_name: z.string(),
    license: z.string(),
    license_name: z.string(),
    task_categories: z.array(z.string()),
    size_categories: z.array(z.string()),
    tags: z.array(z.string()),
    configs: z.array(z.object({ config_name: z.enum(audioModes), data_files: z.array(z.object({ split: z.string(), path: z.string() })) })),
    dataset_info: z.object({
      features: z.array(z.object({ name: z.string(), dtype: z.string() })),
      splits: z.array(z.object({ name: z.string(), num_examples: z.number().int() })),
    }),
  }),
  prose: z.string().describe('Markdown.'),
});
export type DatasetCard = z.infer<typeof datasetCardSchema>;
