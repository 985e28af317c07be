/**
 * The phonology file of a language cartridge, `languages/<iso>/phonology.yaml`: where the
 * facts come from, the phoneme inventory with the graphemes that write each phoneme, and the
 * syllable structure as rules (prenasalisation, glides, syllabic nasals, allowed templates).
 * The engine (syllables.ts) derives syllabification and the syllable inventory from these
 * facts alone; nothing here or there names a language. Format: docs/cartridge-phonology.md.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { z } from 'zod';

/** Place of articulation of a consonant (`lateral` is used for lateral clicks). */
export const PLACES = ['bilabial', 'labiodental', 'dental', 'alveolar', 'postalveolar', 'palatal', 'velar', 'labial-velar', 'glottal', 'lateral'] as const;
/** Manner of articulation of a consonant. */
export const MANNERS = ['stop', 'affricate', 'fricative', 'lateral_fricative', 'lateral_affricate', 'nasal', 'click', 'trill', 'tap', 'lateral', 'approximant'] as const;
/** Laryngeal setting (phonation or airstream) of a consonant. */
export const LARYNGEALS = ['voiceless', 'voiced', 'aspirated', 'ejective', 'implosive', 'breathy', 'lenis'] as const;

const SOURCE_ID = /^[a-z0-9][a-z0-9-]*$/;
const TEMPLATE = /^((N)?C([a-z])?)?V(C)?$/;
/** The template of a syllable that is a syllabic nasal alone (N + COMBINING VERTICAL LINE BELOW). */
export const SYLLABIC_NASAL_TEMPLATE = 'N\u0329';

/** A grapheme as written in the file: lower case, NFC, no spaces. */
const grapheme = z
  .string()
  .min(1)
  .transform((g) => g.normalize('NFC'))
  .refine((g) => g === g.toLowerCase() && !/\s/u.test(g), 'a grapheme is written in lower case, without spaces');
const sourceId = z.string().regex(SOURCE_ID, 'a source is the id of an entry under `sources`');

const referenceSchema = z.strictObject({
  citation: z.string().min(1),
  url: z.url().optional(),
  license: z.string().min(1).optional(),
  note: z.string().optional(),
});

const phoibleSchema = z.strictObject({
  database: sourceId,
  inventory_id: z.number().int().positive(),
  inventory_source: z.string().min(1),
  references: z.array(sourceId).min(1),
  extract: z.string().min(1),
  chosen_because: z.string().min(1),
  alternatives: z.array(z.strictObject({ inventory_id: z.number().int().positive(), inventory_source: z.string().min(1), not_chosen_because: z.string().min(1) })).default([]),
});

const phonemeFields = {
  ipa: z
    .string()
    .min(1)
    .transform((s) => s.normalize('NFC')),
  graphemes: z.array(grapheme).min(1),
  /** false: the chosen PHOIBLE inventory lacks it; `source` then says where it comes from. */
  in_phoible: z.boolean().default(true),
  source: sourceId.optional(),
  note: z.string().optional(),
};

const vowelSchema = z.strictObject({ ...phonemeFields, class: z.literal('vowel') });

const consonantSchema = z.strictObject({
  ...phonemeFields,
  class: z.literal('consonant'),
  place: z.enum(PLACES),
  manner: z.enum(MANNERS),
  laryngeal: z.enum(LARYNGEALS),
  syllabic: z.boolean().default(false),
});

const selectorSchema = z
  .strictObject({
    manner: z.array(z.enum(MANNERS)).min(1).optional(),
    place: z.array(z.enum(PLACES)).min(1).optional(),
    laryngeal: z.array(z.enum(LARYNGEALS)).min(1).optional(),
    graphemes: z.array(grapheme).min(1).optional(),
  })
  .refine((s) => Object.keys(s).length > 0, 'a selector needs at least one of manner, place, laryngeal, graphemes');

const targetsSchema = z.strictObject({
  include: z.array(selectorSchema).min(1),
  exclude: z.array(selectorSchema).default([]),
});

const prenasalisationSchema = z.strictObject({
  targets: targetsSchema,
  /** Ordered: the first entry whose `before` matches the consonant gives the nasal. */
  nasals: z.array(z.strictObject({ grapheme, ipa: z.string().min(1), before: selectorSchema })).min(1),
  ipa_after_nasal: z.record(z.string(), z.string()).default({}),
  source: sourceId,
  note: z.string().optional(),
});

const glideSchema = z.strictObject({
  symbol: z.string().regex(/^[a-z]$/, 'a glide symbol is one lower-case letter, used in templates'),
  grapheme,
  ipa: z.string().min(1),
  kind: z.string().regex(/^[a-z]+$/),
  targets: targetsSchema,
  source: sourceId,
  note: z.string().optional(),
});

const syllabicConditionSchema = z
  .strictObject({
    nasals: z.array(grapheme).min(1).optional(),
    next: z.enum(['consonant', 'non_prenasalisable_consonant', 'word_end']).optional(),
    after_word_initial: z.array(grapheme).min(1).optional(),
    example: z.string().optional(),
    source: sourceId.optional(),
    note: z.string().optional(),
  })
  .refine((c) => c.next !== undefined || c.after_word_initial !== undefined, 'a condition needs `next` or `after_word_initial`');

const syllableTypeSchema = z.strictObject({
  template: z.string().transform((s) => s.normalize('NFC')),
  example: z.string().optional(),
  source: sourceId.optional(),
  note: z.string().optional(),
});

const featureSchema = z.strictObject({
  phonemic: z.boolean(),
  written: z.boolean(),
  values: z.array(z.string()).default([]),
  source: sourceId,
  note: z.string().optional(),
});

export const phonologyObjectSchema = z.strictObject({
  format: z.literal(1),
  sources: z.record(z.string().regex(SOURCE_ID), referenceSchema),
  inventory: z.strictObject({
    phoible: phoibleSchema,
    vowels: z.array(vowelSchema).min(1),
    consonants: z.array(consonantSchema).min(1),
  }),
  orthography: z.strictObject({
    source: sourceId,
    multigraphs: z.array(grapheme).default([]),
    apostrophes: z.array(z.string().length(1)).default(["'", '\u2019', '\u02BC']),
    note: z.string().optional(),
  }),
  prosody: z.strictObject({ tone: featureSchema, vowel_length: featureSchema }),
  syllable_structure: z.strictObject({
    source: sourceId,
    types: z.array(syllableTypeSchema).min(1),
    codas: z.strictObject({ allowed: z.boolean(), graphemes: z.array(grapheme).default([]), source: sourceId, note: z.string().optional() }),
    prenasalisation: prenasalisationSchema.optional(),
    glides: z.array(glideSchema).default([]),
    syllabic_nasals: z.strictObject({ when: z.array(syllabicConditionSchema).min(1), source: sourceId, note: z.string().optional() }).optional(),
    note: z.string().optional(),
  }),
});

/** A parsed, validated phonology file (defaults applied, strings NFC). */
export type Phonology = z.infer<typeof phonologyObjectSchema>;
/** One consonant of the inventory. */
export type Consonant = Phonology['inventory']['consonants'][number];
/** One vowel of the inventory. */
export type Vowel = Phonology['inventory']['vowels'][number];
/** Which consonants a rule applies to: any `include` selector matches and no `exclude` one. */
export type ConsonantTargets = z.infer<typeof targetsSchema>;
/** A set of consonants by feature values (all given fields must match). */
export type ConsonantSelector = z.infer<typeof selectorSchema>;
/** A glide rule: consonant + glide makes a labialised or palatalised onset. */
export type GlideRule = Phonology['syllable_structure']['glides'][number];
/** One condition under which a nasal is a syllable of its own. */
export type SyllabicCondition = z.infer<typeof syllabicConditionSchema>;

/** The parts of a syllable template such as `NCwV`, or the syllabic nasal template. */
export interface TemplateParts {
  syllabicNasal: boolean;
  prenasal: boolean;
  consonant: boolean;
  glide: string | null;
  coda: boolean;
}

/** Parses a template over N (prenasal), C, a glide symbol, V and a final C (coda); null if malformed. */
export function parseSyllableTemplate(template: string): TemplateParts | null {
  if (template.normalize('NFC') === SYLLABIC_NASAL_TEMPLATE) {
    return { syllabicNasal: true, prenasal: false, consonant: false, glide: null, coda: false };
  }
  const m = TEMPLATE.exec(template);
  if (!m) return null;
  return { syllabicNasal: false, prenasal: m[2] !== undefined, consonant: m[1] !== undefined, glide: m[3] ?? null, coda: m[4] !== undefined };
}

/** Does the consonant match every field the selector gives? */
export function matchesSelector(consonant: Consonant, selector: ConsonantSelector): boolean {
  if (selector.manner && !selector.manner.includes(consonant.manner)) return false;
  if (selector.place && !selector.place.includes(consonant.place)) return false;
  if (selector.laryngeal && !selector.laryngeal.includes(consonant.laryngeal)) return false;
  if (selector.graphemes && !consonant.graphemes.some((g) => selector.graphemes?.includes(g))) return false;
  return true;
}

/** Does a rule with these targets apply to the consonant? */
export function matchesTargets(consonant: Consonant, targets: ConsonantTargets): boolean {
  return targets.include.some((s) => matchesSelector(consonant, s)) && !targets.exclude.some((s) => matchesSelector(consonant, s));
}

/** Every `source:`-like reference in the file, with the path of the field that cites it. */
export function citedSources(phonology: Phonology): Array<{ id: string; path: Array<string | number> }> {
  const found: Array<{ id: string; path: Array<string | number> }> = [];
  const walk = (value: unknown, path: Array<string | number>): void => {
    if (Array.isArray(value)) value.forEach((v, i) => walk(v, [...path, i]));
    else if (value && typeof value === 'object') {
      for (const [key, v] of Object.entries(value)) {
        if (path.length === 0 && key === 'sources') continue;
        const inPhoible = path.at(-1) === 'phoible';
        if ((key === 'source' || (inPhoible && key === 'database')) && typeof v === 'string') found.push({ id: v, path: [...path, key] });
        else if (inPhoible && key === 'references' && Array.isArray(v)) {
          v.forEach((id, i) => typeof id === 'string' && found.push({ id, path: [...path, key, i] }));
        } else walk(v, [...path, key]);
      }
    }
  };
  walk(phonology, []);
  return found;
}

/** Cross-field rules that a shape check alone cannot express. */
function checkConsistency(p: Phonology, ctx: z.RefinementCtx): void {
  const issue = (path: Array<string | number>, message: string): void => ctx.addIssue({ code: 'custom', path, message });
  const consonants = p.inventory.consonants;
  const phonemeGraphemes = new Set([...p.inventory.vowels, ...consonants].flatMap((x) => x.graphemes));

  for (const { id, path } of citedSources(p)) {
    if (!(id in p.sources)) issue(path, `unknown source "${id}"; declare it under \`sources\``);
  }
  (['vowels', 'consonants'] as const).forEach((list) =>
    p.inventory[list].forEach((x, i) => {
      if (!x.in_phoible && !x.source) issue(['inventory', list, i, 'source'], `/${x.ipa}/ is not in the PHOIBLE inventory, so it needs a source`);
    }),
  );
  const multigraphs = new Set(p.orthography.multigraphs);
  p.orthography.multigraphs.forEach((g, i) => {
    if ([...g].length < 2) issue(['orthography', 'multigraphs', i], `"${g}" is a single letter, not a multigraph`);
    if (!phonemeGraphemes.has(g)) issue(['orthography', 'multigraphs', i], `"${g}" writes no phoneme of the inventory`);
  });
  (['vowels', 'consonants'] as const).forEach((list) =>
    p.inventory[list].forEach((x, i) =>
      x.graphemes.forEach((g, j) => {
        if ([...g].length > 1 && !multigraphs.has(g)) issue(['inventory', list, i, 'graphemes', j], `"${g}" has several letters: list it under orthography.multigraphs`);
      }),
    ),
  );
  consonants.forEach((c, i) => {
    if (c.syllabic && c.manner !== 'nasal') issue(['inventory', 'consonants', i, 'syllabic'], `only nasals can be syllabic here, /${c.ipa}/ is ${c.manner}`);
  });

  const s = p.syllable_structure;
  const nasalGraphemes = new Set(consonants.filter((c) => c.manner === 'nasal' && !c.syllabic).flatMap((c) => c.graphemes));
  const syllabicGraphemes = new Set(consonants.filter((c) => c.syllabic).flatMap((c) => c.graphemes));
  s.prenasalisation?.nasals.forEach((n, i) => {
    if (!nasalGraphemes.has(n.grapheme)) issue(['syllable_structure', 'prenasalisation', 'nasals', i, 'grapheme'], `"${n.grapheme}" is not the grapheme of a nasal consonant`);
  });
  const glideSymbols = new Set<string>();
  s.glides.forEach((g, i) => {
    const writesGlide = consonants.some((c) => c.manner === 'approximant' && c.graphemes.includes(g.grapheme));
    if (!writesGlide) issue(['syllable_structure', 'glides', i, 'grapheme'], `"${g.grapheme}" is not the grapheme of an approximant consonant`);
    if (glideSymbols.has(g.symbol)) issue(['syllable_structure', 'glides', i, 'symbol'], `glide symbol "${g.symbol}" is declared twice`);
    glideSymbols.add(g.symbol);
  });
  s.syllabic_nasals?.when.forEach((c, i) =>
    c.nasals?.forEach((g, j) => {
      if (!syllabicGraphemes.has(g)) issue(['syllable_structure', 'syllabic_nasals', 'when', i, 'nasals', j], `"${g}" writes no syllabic nasal of the inventory`);
    }),
  );
  if (s.syllabic_nasals && syllabicGraphemes.size === 0) {
    issue(['syllable_structure', 'syllabic_nasals'], 'syllabic nasal rules need at least one consonant with `syllabic: true`');
  }
  const consonantGraphemes = new Set(consonants.flatMap((c) => c.graphemes));
  s.codas.graphemes.forEach((g, i) => {
    if (!s.codas.allowed) issue(['syllable_structure', 'codas', 'graphemes', i], 'codas are not allowed, so no coda graphemes can be listed');
    else if (!consonantGraphemes.has(g)) issue(['syllable_structure', 'codas', 'graphemes', i], `"${g}" is not a consonant grapheme`);
  });

  const seen = new Set<string>();
  s.types.forEach((t, i) => {
    const path = ['syllable_structure', 'types', i, 'template'];
    if (seen.has(t.template)) issue(path, `template "${t.template}" is listed twice`);
    seen.add(t.template);
    const parts = parseSyllableTemplate(t.template);
    if (!parts) return issue(path, `"${t.template}" is not a template: use V, CV, CwV, NCV, NCwV, CVC ... or ${SYLLABIC_NASAL_TEMPLATE}`);
    if (parts.syllabicNasal && !s.syllabic_nasals) issue(path, `"${t.template}" needs syllable_structure.syllabic_nasals`);
    if (parts.prenasal && !s.prenasalisation) issue(path, `"${t.template}" needs syllable_structure.prenasalisation`);
    if (parts.glide && !glideSymbols.has(parts.glide)) issue(path, `"${t.template}" uses glide "${parts.glide}", which syllable_structure.glides does not declare`);
    if (parts.coda && !s.codas.allowed) issue(path, `"${t.template}" has a coda, but codas.allowed is false`);
  });
}

const phonologySchema = phonologyObjectSchema.superRefine(checkConsistency);

function describeIssue(issue: z.core.$ZodIssue): string {
  const field = issue.path.length > 0 ? issue.path.map(String).join('.') : '(top level)';
  return `${field}: ${issue.message}`;
}

/** Validates parsed YAML (or any value) as a phonology; `origin` names it in the error. */
export function parsePhonology(data: unknown, origin: string): Phonology {
  const result = phonologySchema.safeParse(data);
  if (!result.success) {
    const lines = result.error.issues.map(describeIssue);
    throw new Error(`${origin}: invalid phonology file: ${lines.join('; ')}`);
  }
  return result.data;
}

/** Reads and validates `languages/<iso>/phonology.yaml`. Throws an Error naming the file and the bad field. */
export function loadPhonology(file: string): Phonology {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`${file}: cannot read the phonology file: ${(error as Error).message}`);
  }
  let data: unknown;
  try {
    data = parse(text);
  } catch (error) {
    throw new Error(`${file}: not valid YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  return parsePhonology(data, file);
}
