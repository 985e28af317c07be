/**
 * Coverage per capability, computed from what a cartridge holds and how it scores:
 * one evaluator per capability, in one table. A capability is `none` (the cartridge
 * holds nothing for it), `declared` (it holds the data but nothing tests it yet),
 * `partial` (tested, below the bar) or `complete` (tested, at the bar). Adding a
 * capability (numerals, tone, HFST ...) is one more entry in `capabilityEvaluators`.
 * Thresholds are documented in docs/status-api.md.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Languoid } from '../language-codes.js';
import { runGolden } from '../cartridge/golden.js';
import type { LanguageEngine } from '../morphology/service.js';
import { syllableInventory } from '../morphology/syllables.js';
import type { ToneGoldenScore } from '../tone/golden.js';
import type { MeasuredLanguage } from './measured-accuracy.js';

/** The levels, weakest first. */
export const COVERAGE_LEVELS = ['none', 'declared', 'partial', 'complete'] as const;
export type CoverageLevel = (typeof COVERAGE_LEVELS)[number];

/** Template families: the kinds of language template an evaluator belongs to. */
export const TEMPLATE_FAMILIES = ['metadata', 'phonology', 'noun', 'verb', 'numeral', 'tone', 'transducer'] as const;
export type TemplateFamily = (typeof TEMPLATE_FAMILIES)[number];

/** A golden test's share of passes at or above this is needed for `complete`. */
export const COMPLETE_GOLDEN_RATE = 1;
/** At least this many golden tests of a kind are needed for `complete`. */
export const COMPLETE_GOLDEN_MIN = 10;
/** A measured UniMorph accuracy (percent) at or above this is needed for `complete` where one was measured. */
export const COMPLETE_MEASURED_ACCURACY = 95;
/** Golden tone cases needed for `complete` tone (the bar of the tone issue: 30 cited cases per language with rules). */
export const COMPLETE_TONE_GOLDEN_MIN = 30;

/** What an evaluator sees of one cartridge. */
export interface CapabilityInput {
  engine: LanguageEngine;
  /** Glottolog's record for the cartridge's ISO code, when it has one. */
  languoid: Languoid | undefined;
  /** The latest measured accuracy from reference/measured-accuracy.json, when there is one. */
  measured: MeasuredLanguage | undefined;
  /** Golden tests of the cartridge, run once and shared by the evaluators. */
  golden: GoldenScore;
  /** Golden tone cases of the cartridge's tone.yaml, run through conjugation with tones (when it has tone data). */
  tone?: ToneGoldenScore;
}

/** How one capability stands in one cartridge, and why. */
export interface CapabilityStatus {
  level: CoverageLevel;
  /** One sentence a buyer can check against the cartridge. */
  evidence: string;
  /** Golden tests of this capability: total and passing. */
  golden?: { total: number; passing: number };
}

/** One row of the evaluator table. */
export interface CapabilityEvaluator {
  id: string;
  family: TemplateFamily;
  label: string;
  evaluate(input: CapabilityInput): CapabilityStatus;
}

/** Golden tests split by word class: verb tests and the rest (nouns, adjectives ...). */
export interface GoldenScore {
  verb: { total: number; passing: number };
  other: { total: number; passing: number };
}

/** Runs a cartridge's golden tests once (generation, through the one golden runner). */
export function scoreGolden(engine: LanguageEngine): GoldenScore {
  const score: GoldenScore = { verb: { total: 0, passing: 0 }, other: { total: 0, passing: 0 } };
  for (const outcome of runGolden(engine.cartridge, engine, ['generation'])) {
    const bucket = outcome.case.cell.word_class === 'verb' ? score.verb : score.other;
    bucket.total++;
    if (outcome.status === 'pass') bucket.passing++;
  }
  return score;
}

const rate = (s: { total: number; passing: number }) => (s.total === 0 ? 0 : s.passing / s.total);
const fraction = (s: { total: number; passing: number }) => `${s.passing}/${s.total}`;

/** `complete` when every golden test passes and there are enough of them; else `partial` (tested) or `declared` (untested). */
function byGolden(score: { total: number; passing: number }): CoverageLevel {
  if (score.total === 0) return 'declared';
  return rate(score) >= COMPLETE_GOLDEN_RATE && score.total >= COMPLETE_GOLDEN_MIN ? 'complete' : 'partial';
}

const metadata: CapabilityEvaluator = {
  id: 'metadata',
  family: 'metadata',
  label: 'Language metadata (names, codes, classification, sources)',
  evaluate({ engine, languoid }) {
    const m = engine.cartridge.metadata;
    const missing = [!m.glottocode && 'glottocode', !m.guthrie && 'Guthrie code', m.sources.length === 0 && 'sources'].filter(Boolean);
    if (missing.length === 3) return { level: 'declared', evidence: 'name and code only' };
    if (missing.length > 0) return { level: 'partial', evidence: `no ${missing.join(', ')}` };
    if (languoid && languoid.glottocode !== m.glottocode) {
      return { level: 'partial', evidence: `glottocode ${m.glottocode} differs from Glottolog's ${languoid.glottocode}` };
    }
    return { level: 'complete', evidence: `glottocode, Guthrie code and ${m.sources.length} sources${languoid ? ', glottocode agrees with Glottolog' : ''}` };
  },
};

const phonology: CapabilityEvaluator = {
  id: 'syllables',
  family: 'phonology',
  label: 'Phoneme inventory and syllable structure (syllable inventory, syllabification)',
  evaluate({ engine }) {
    if (!engine.phonology) return { level: 'none', evidence: 'no phonology.yaml' };
    const inventory = syllableInventory(engine.phonology);
    const types = inventory.syllable_types;
    const confirmed = types.filter((t) => t.example?.syllable);
    const score = { total: types.length, passing: confirmed.length };
    if (confirmed.length === types.length) {
      return { level: 'complete', evidence: `${types.length} syllable types, each confirmed by syllabifying its example; ${inventory.counts.onsets} onsets`, golden: score };
    }
    return { level: 'partial', evidence: `${confirmed.length} of ${types.length} syllable types confirmed by an example`, golden: score };
  },
};

const nounClasses: CapabilityEvaluator = {
  id: 'noun_classes',
  family: 'noun',
  label: 'Noun classes: prefixes, plurals and concords',
  evaluate({ engine, golden }) {
    const c = engine.cartridge;
    const concordClasses = new Set((c.agreement?.rows ?? []).filter((r) => r.class !== undefined).map((r) => r.class));
    if (!c.nouns) {
      if (concordClasses.size === 0) return { level: 'none', evidence: 'no noun classes in the cartridge' };
      return { level: 'declared', evidence: `concords of ${concordClasses.size} noun classes; no noun grammar (nouns.yaml)` };
    }
    const level = byGolden(golden.other);
    return {
      level,
      evidence: `${c.nouns.classes.length} noun classes in nouns.yaml; golden noun and agreement tests ${fraction(golden.other)}`,
      golden: golden.other,
    };
  },
};

const verbConjugation: CapabilityEvaluator = {
  id: 'verb_conjugation',
  family: 'verb',
  label: 'Verb conjugation over the Bantu verb template',
  evaluate({ engine, golden, measured }) {
    const verbs = engine.cartridge.verbs;
    if (!verbs) return { level: 'none', evidence: 'no verb grammar (verbs.yaml)' };
    let level = byGolden(golden.verb);
    const parts = [`${verbs.tenses.length} tenses`, `golden verb tests ${fraction(golden.verb)}`];
    const inflection = measured?.inflection;
    if (inflection) {
      parts.push(`UniMorph accuracy ${inflection.accuracy}%${measured.stale ? ' (measured on an older version of the cartridge)' : ''}`);
      if (level === 'complete' && (inflection.accuracy < COMPLETE_MEASURED_ACCURACY || measured.stale)) level = 'partial';
    }
    return { level, evidence: parts.join('; '), golden: golden.verb };
  },
};

const analysis: CapabilityEvaluator = {
  id: 'analysis',
  family: 'verb',
  label: 'Analysis of verb forms back to root and features',
  evaluate({ engine, measured }) {
    if (!engine.cartridge.verbs) return { level: 'none', evidence: 'no verb grammar to analyse with' };
    const recall = measured?.analysis;
    // Analysis is measured by scripts/measure-accuracy.ts: building analysis frames for every
    // language on a status request would cost seconds, so only the generated figure counts.
    if (!recall) return { level: 'declared', evidence: 'verb grammar present; no measured analysis recall in reference/measured-accuracy.json' };
    const stale = measured.stale ? ' (measured on an older version of the cartridge)' : '';
    const level = recall.recall >= COMPLETE_MEASURED_ACCURACY && !measured.stale ? 'complete' : 'partial';
    return { level, evidence: `UniMorph analysis recall ${recall.recall}% (${recall.found}/${recall.rows})${stale}` };
  },
};

/** A capability whose data is one file of the cartridge, served by an engine merged separately. */
export function fileCapability(id: string, family: TemplateFamily, label: string, file: string): CapabilityEvaluator {
  return {
    id,
    family,
    label,
    evaluate({ engine }) {
      return existsSync(path.join(engine.cartridge.dir, file)) ? { level: 'declared', evidence: `${file} present; no evaluator measures it yet` } : { level: 'none', evidence: `no ${file}` };
    },
  };
}

const tone: CapabilityEvaluator = {
  id: 'tone',
  family: 'tone',
  label: 'Lexical and grammatical tone',
  evaluate({ engine, tone: score }) {
    const data = engine.cartridge.tone;
    if (!data) return { level: 'none', evidence: 'no tone.yaml' };
    const roots = data.lexical.reduce((n, list) => n + list.entries.length, 0);
    const parts = [`${roots} roots with lexical tone`, `${data.melodies.length} tense melodies`, `${data.rules.length} tone rules`];
    const golden = { total: score?.total ?? 0, passing: score?.passing ?? 0 };
    if (golden.total === 0) return { level: 'declared', evidence: `${parts.join(', ')}; no golden tone cases` };
    const open = score?.open ? ` (${score.open} marked open)` : '';
    const level = golden.passing === golden.total && golden.total >= COMPLETE_TONE_GOLDEN_MIN ? 'complete' : 'partial';
    return { level, evidence: `${parts.join(', ')}; golden tone cases ${fraction(golden)}${open}`, golden };
  },
};

/**
 * Every capability the status API reports, in display order. The numeral, tone and
 * transducer engines replace their `fileCapability` row with a measuring evaluator.
 */
export const capabilityEvaluators: CapabilityEvaluator[] = [
  metadata,
  phonology,
  nounClasses,
  verbConjugation,
  analysis,
  fileCapability('numerals', 'numeral', 'Cardinal numerals in words, with class agreement', 'numerals.yaml'),
  tone,
];
