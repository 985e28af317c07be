/**
 * The cartridge format: one language's morphology as data, validated by zod.
 * A cartridge is a folder `languages/<iso>/` holding
 *   cartridge.yaml   metadata and sources
 *   agreement.yaml   persons and noun classes with their concords
 *   verbs.yaml       verb template, tense/aspect/mood table, extensions, stem rules
 *   words.yaml       other inflected word classes (adjectives, possessives, ...)
 *   nouns.yaml       noun classes: prefixes, plurals, locative and possessive recipes
 *   rules.yaml       ordered morphophonological rules at morph boundaries
 *   features.yaml    how UniMorph feature bundles map onto cells
 *   lexicon.tsv      roots and stems with gloss and source (./lexicon.ts)
 *   golden.yaml      golden tests: lemma + cell -> form (./golden-case.ts; the runner: ./golden.ts)
 *   tone.yaml        lexical tone, tone melodies and ordered tone rules (./tone.ts, docs/cartridge-tone.md)
 *   numerals.yaml    the numeral grammar (src/numerals/grammar.ts, docs/cartridge-numerals.md)
 * See docs/cartridges.md. Nothing here names a language.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';
import { nounsSchema, type NounGrammar } from '../morphology/nouns.js';
import { toneSchema, type ToneData } from './tone.js';
import { numeralGrammarSchema, type NumeralGrammar } from '../numerals/grammar.js';
import { goldenSchema, type GoldenTests } from './golden-case.js';
import { readLexicon, type LexiconEntry } from './lexicon.js';

export type { GoldenTests } from './golden-case.js';
export type { LexiconEntry } from './lexicon.js';

const source = z.string().min(1);

/**
 * A morph spec in a slot: a literal, or a concord of the cell's subject, object or head. The head is the
 * noun a relative verb qualifies: the subject unless the cell names another (an object or adverbial relative).
 * `unless_subject_head`: the concord is written only when the head is not the subject, so that one tense
 * holds a direct relative without it (the subject's own: 'who wants') and an indirect one with it (an
 * object's: 'which I want').
 */
const morphSpec = z.union([z.string(), z.object({ concord: z.string(), of: z.enum(['subject', 'object', 'head']).default('subject'), unless_subject_head: z.boolean().optional() }).strict()]);
export type MorphSpec = z.infer<typeof morphSpec>;

/** The fields of a formation: what one polarity of a tense puts in each slot. */
const formationFields = {
  pre_initial: morphSpec.optional(),
  subject: morphSpec.optional(),
  negation: morphSpec.optional(),
  tam: morphSpec.optional(),
  /** Relative concord (of the subject) after the tense marker: anayependa, kinachoanguka. */
  relative: morphSpec.optional(),
  object: morphSpec.optional(),
  /** Final vowel for stems that take one (the lexeme's own final vowel stays on stems that keep it). */
  fv: z.string().optional(),
  /** Final vowel when the subject is plural / when an object marker is present (imperatives). */
  fv_plural: z.string().optional(),
  fv_object: z.string().optional(),
  /** Objects (agreement row ids) that keep the plain final vowel where `fv_object` would apply (an imperative -a with a 1st singular object). */
  fv_object_except: z.array(z.string()).optional(),
  /** Suffix after the final vowel: a literal (-yo) or a concord (the relative suffix of a tenseless relative). */
  post_final: morphSpec.optional(),
  /** Put the stem-support morph (or this morph) before stems that need support (see verbs.stem_support). */
  stem_support: z.union([z.boolean(), z.string()]).optional(),
  /** The form has no subject marker (habitual hu-, imperative, infinitive). */
  no_subject: z.boolean().optional(),
  /** Extra suffix when the subject is plural (imperative -ni). */
  plural_suffix: z.string().optional(),
  /** Extra prefix (in the pre-initial slot) when the subject is plural (an imperative ni-mu-kore). */
  plural_prefix: z.string().optional(),
  /** Periphrasis: an auxiliary verb form followed by the main verb form. */
  auxiliary: z.object({ lemma: z.string(), tense: z.string(), polarity: z.enum(['positive', 'negative']).optional(), variant: z.string().optional() }).optional(),
  main: z.object({ tense: z.string(), polarity: z.enum(['positive', 'negative']).default('positive'), variant: z.string().optional() }).optional(),
  /** The persons whose subjects the form has (the negative imperative: [2]); any other subject is refused. */
  persons: z
    .array(z.union([z.literal(1), z.literal(2), z.literal(3)]))
    .nonempty()
    .optional(),
  /** The cell does not exist in this polarity (e.g. no positive of a negative-only tense). */
  absent: z.boolean().optional(),
  /** The cell exists in the language but this cartridge does not give its form yet (no cited source). */
  not_modelled: z.boolean().optional(),
};

/** What one polarity of a tense puts in each slot. Unset slots stay empty. */
const formationSchema = z
  .object({
    ...formationFields,
    /**
     * Fields that replace the formation's when the cell's head is not the subject (an object relative whose
     * subject keeps its plain concord where the subject relative has another); a relative with it takes `head`.
     */
    indirect: z.object(formationFields).strict().optional(),
  })
  .strict();
export type Formation = z.infer<typeof formationSchema>;

const tenseSchema = z
  .object({
    id: z.string().regex(/^[a-z_]+$/),
    label: z.string(),
    /** English gloss template (src/morphology/english-gloss.ts). */
    gloss: z.string(),
    mood: z.string().default('indicative'),
    positive: formationSchema,
    negative: formationSchema,
    /** Named alternative formations (e.g. a second negative); override positive/negative. */
    variants: z.record(z.string(), z.object({ positive: formationSchema.optional(), negative: formationSchema.optional() })).default({}),
    /**
     * The gloss template this tense reads with for a verb whose perfect reports a state (lexicon flag
     * `perfect_state`), where the tense is the language's perfect under another gloss (an -ile tense glossed
     * `recent_past`: ngikhathele 'I am tired'): `present`, or `relative` for a relative tense.
     * Without it a `perfect` reads as `present` and a `relative_past` or `relative_perfect` as `relative`.
     */
    state_gloss: z.enum(['present', 'relative']).optional(),
    /**
     * The gloss template of the negative where it says more than the positive's negated: a perfect whose
     * negative means 'not yet' (`not_yet`: 'I have not yet eaten'). Without it the negative reads with `gloss`.
     */
    negative_gloss: z.string().optional(),
    /**
     * Verbs this tense glosses with another English verb than the lexicon's first sense: lemma -> English
     * base form (a present whose 'be' the copula says, so that its own form of 'be' means 'become').
     */
    senses: z.record(z.string().min(1), z.string().min(1)).optional(),
    /**
     * Verbs this tense glosses with another template than `gloss`: lemma -> template (a present simple that is a near
     * future of most verbs but a present of verbs of state: `{ know-lemma: present }`). Underived verbs only; the
     * negative's `negative_gloss` comes first.
     */
    lemma_gloss: z.record(z.string().min(1), z.string().min(1)).optional(),
    source,
  })
  .strict();
export type Tense = z.infer<typeof tenseSchema>;

const agreementRowSchema = z
  .object({
    id: z.string().regex(/^(1sg|2sg|3sg|1pl|2pl|3pl|c\d{1,2}[a-z]?)$/),
    person: z.union([z.literal(1), z.literal(2), z.literal(3)]),
    number: z.enum(['sg', 'pl']),
    class: z.number().int().min(1).max(23).optional(),
    /** Whether the class is human (1/2), for glosses. */
    human: z.boolean().default(false),
    /** Concord name -> form; '-' splits a pre-initial from the concord ("ha-tu"). */
    concords: z.record(z.string(), z.string()),
    /** Noun prefix of the class (with and without augment, where the language has one). */
    noun_prefix: z.string().optional(),
    source: source.optional(),
  })
  .strict();
export type AgreementRow = z.infer<typeof agreementRowSchema>;

const agreementSchema = z.object({ rows: z.array(agreementRowSchema).min(1), source }).strict();

/** What a verb extension does to the English verb (src/morphology/english-gloss.ts, `derivedVerb`). */
export const derivationMeanings = ['applicative', 'causative', 'passive', 'stative', 'reciprocal', 'intensive', 'thorough'] as const;
export type DerivationMeaning = (typeof derivationMeanings)[number];

const extensionSchema = z
  .object({
    id: z.string(),
    label: z.string(),
    /**
     * Allomorphs: the first that fits the stem before it wins. `after`: a pattern the stem must end in;
     * `root_only`: only right after the root, not after another extension; `own_fv`: only (true) or
     * never (false) after a root that keeps its own final vowel (loan verbs: jibu -> jibiwa); `guess_vowel`:
     * a word whose root no lexicon knows, ending in this form, is also guessed as a loan verb ending in this
     * vowel (shauriwa: shauri), beside the guess of a root in the default final vowel (the passive only).
     */
    forms: z
      .array(
        z.object({
          form: z.string(),
          after: z.string().optional(),
          root_only: z.boolean().default(false),
          own_fv: z.boolean().optional(),
          guess_vowel: z
            .string()
            .regex(/^[a-z]$/u)
            .optional(),
        }),
      )
      .min(1),
    /**
     * Lexical derivatives that no allomorph predicts: stem (lemma form) -> derived stem
     * (lala -> laza, ona -> onyesha, pa -> pewa). Keyed by the stem the extension attaches to.
     */
    lexical: z.record(z.string(), z.string()).default({}),
    /** Extensions this one may not follow (a passive closes the stem: no applicative after it). */
    not_after: z.array(z.string()).default([]),
    /** What the extension does to the English verb; defaults to the id when the id is one of `derivationMeanings`. */
    meaning: z.enum(derivationMeanings).optional(),
    gloss: z.string().optional(),
    source,
  })
  .strict();
export type VerbExtension = z.infer<typeof extensionSchema>;

/**
 * Forms no rule predicts for one lemma in one tense, used only without extensions: by subject id
 * (suppletive imperatives: njoo, njooni), or a `template` whose {concord} placeholders take the
 * subject's concords ("{subject}na": nina, una, ana; "{negative_subject}na": sina, hatuna), the
 * boundary rules applied between concord and stem (u + azile -> wazile). A template with
 * `{object}` (the cell's object marker: "{subject}{object}azile", umazile) serves only cells with
 * an object, every other entry only cells without one. A multi-word lemma (wa na) is matched whole.
 */
const irregularFormSchema = z
  .object({
    lemma: z.string(),
    tense: z.string(),
    polarity: z.enum(['positive', 'negative']).default('positive'),
    /** The tense variant these forms are (the short perfect); unset, the forms serve every variant without an entry of its own. */
    variant: z.string().optional(),
    forms: z.record(z.string(), z.string()).default({}),
    template: z.string().optional(),
    source,
  })
  .strict();
export type IrregularForm = z.infer<typeof irregularFormSchema>;

/**
 * A named convention of a gold dataset that differs from the standard grammar the cartridge
 * follows: `lugha eval --variant <id>` measures with it; the service never uses it.
 */
const conventionSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9_]+$/),
    description: z.string(),
    /** Overrides of verbs.stem_support (a dataset that keeps ku- after an object marker). */
    stem_support: z.object({ dropped_with_object: z.boolean().optional() }).strict().optional(),
    /** Rules (by id) the dataset does not apply. */
    without_rules: z.array(z.string()).default([]),
    /** Lemmas the dataset treats as short stems (stem support) although the grammar does not. */
    short: z.array(z.string()).default([]),
    /** The dataset reads a lemma cited with the glide (verbs.cited_glide) as a stem of its own (yogera: bayogera). */
    without_cited_glide: z.boolean().default(false),
    source,
  })
  .strict();
export type Convention = z.infer<typeof conventionSchema>;

const verbsSchema = z
  .object({
    /** Slot order of the verb template. */
    template: z.array(z.enum(['pre_initial', 'subject', 'negation', 'tam', 'relative', 'object', 'stem_support', 'root', 'extensions', 'fv', 'post_final'])),
    /** Vowels a lexeme may end in; a lemma ending in `default_fv` loses it to form the root. */
    default_fv: z.string().default('a'),
    /** Morph put before short stems in tenses that ask for it; `short` = one syllable (or flagged in the lexicon). */
    stem_support: z
      .object({
        morph: z.string(),
        dropped_with_object: z.boolean().default(true),
        /** Which stems need it: short (one syllable, or flagged) and/or vowel-initial ones. */
        applies_to: z.array(z.enum(['short', 'vowel_initial'])).default(['short']),
        source,
      })
      .optional(),
    /** Reflexive object marker (PRIM(RFLX)). */
    reflexive: z.string().optional(),
    /** How lemmas are cited: the stem with its final vowel (penda) or the bare root (bebis). */
    citation: z.enum(['stem', 'root']).default('stem'),
    /** Infinitive prefix, used to strip 'ku-'-style input (kupenda -> penda). */
    infinitive_prefix: z.string().optional(),
    /** Other written forms of the infinitive prefix that a cited infinitive may show (gu- by a voicing rule, kw- before a vowel). */
    infinitive_prefix_forms: z.array(z.string().min(1)).default([]),
    /**
     * Vowel-initial verbs are also cited with the glide their imperative takes (yogera for -ogera): a lemma
     * outside the lexicon that is this glide + a vowel-initial verb of the lexicon is read as that verb.
     */
    cited_glide: z.object({ glide: z.string().min(1), source }).optional(),
    /**
     * Vowel-initial verbs are also cited without their vowel (nza for enza): a lemma outside the
     * lexicon whose vowel-initial form is in it is read as that verb.
     */
    restore_initial_vowel: z.boolean().default(false),
    /**
     * Monosyllabic stems cited with a prothetic vowel (idya for -dya): a lemma starting with it
     * whose lexicon entry is flagged `short` (or whose rest matches `guess`) has the rest as its
     * stem; the vowel comes back only where a formation asks for stem support (the imperative).
     */
    prothetic_vowel: z.object({ vowel: z.string().min(1), guess: z.string().optional(), source }).optional(),
    /**
     * Enclitics a lemma may be cited with (salawo = sala + -wo 'there'): a lemma outside the
     * lexicon ending in the final vowel + one of them inflects the rest and keeps the enclitic
     * in the post-final slot of every form.
     */
    enclitics: z.object({ forms: z.array(z.string().min(1)).min(1), source }).optional(),
    tenses: z.array(tenseSchema).min(1),
    extensions: z.array(extensionSchema).default([]),
    /**
     * The English of derived stems whose meaning is lexicalised but which are no headwords of their own, so the
     * analyser still reads them as base + extensions (onekana = ona + -ek-an- 'appear, be visible', not 'be
     * seeable'): derived stem in its citation form -> English gloss, taken where the derivation's default would be.
     */
    derived_glosses: z
      .object({ glosses: z.record(z.string().min(1), z.string().min(1)), source })
      .strict()
      .optional(),
    irregular: z.array(irregularFormSchema).default([]),
    /**
     * Words a verb route must not conjugate, with what to say instead (the copula ni/si is not a
     * verb stem: its other tenses are those of kuwa). Refused as a 400 on `root`.
     */
    not_verbs: z.array(z.object({ lemma: z.string(), note: z.string(), source }).strict()).default([]),
    /** Named dataset conventions (variants) that evaluation can select; see `withConvention`. */
    conventions: z.array(conventionSchema).default([]),
    source,
  })
  .strict();
export type VerbGrammar = z.infer<typeof verbsSchema>;

/** A non-verbal word class: a prefix per agreement row on a stem. */
const wordClassSchema = z
  .object({
    id: z.string().regex(/^[a-z_]+$/),
    label: z.string(),
    /** Concord used as prefix; or per-row table in `prefixes`. */
    concord: z.string().optional(),
    prefixes: z.record(z.string(), z.string()).optional(),
    /** Prefix table chosen by the lemma's shape: first whose pattern matches the lemma. */
    by_stem: z.array(z.object({ stem: z.string(), concord: z.string() })).optional(),
    /** A closed class (possessive stems, quantifiers): the analyzer reads only the lexicon's stems, never guesses one. */
    closed: z.boolean().default(false),
    /** A derived class whose stems are the lexicon's words of these classes (ki- + a noun: kindugu 'brotherly'). */
    stems_from: z.array(z.string()).optional(),
    source,
  })
  .strict();
export type WordClass = z.infer<typeof wordClassSchema>;

const wordsSchema = z.object({ classes: z.array(wordClassSchema).default([]) }).strict();

/** A rewrite at the boundary of two adjacent non-empty morphs. */
const ruleSchema = z
  .object({
    id: z.string(),
    description: z.string(),
    left_slot: z.union([z.string(), z.array(z.string())]).optional(),
    right_slot: z.union([z.string(), z.array(z.string())]).optional(),
    /** Regex matched at the end of the left morph (implicitly anchored with $). */
    left: z.string().default(''),
    /** Regex matched at the start of the right morph (implicitly anchored with ^). */
    right: z.string().default(''),
    /** Replacements for the matched parts; $1.. refer to groups of the same side. */
    left_to: z.string().optional(),
    right_to: z.string().optional(),
    /** Only for these word classes / tenses / agreement ids / polarities. */
    when: z
      .object({
        word_class: z.array(z.string()).optional(),
        tense: z.array(z.string()).optional(),
        not_tense: z.array(z.string()).optional(),
        polarity: z.enum(['positive', 'negative']).optional(),
        left_id: z.array(z.string()).optional(),
        right_id: z.array(z.string()).optional(),
      })
      .strict()
      .optional(),
    source,
  })
  .strict();
export type Rule = z.infer<typeof ruleSchema>;

const rulesSchema = z.object({ rules: z.array(ruleSchema) }).strict();

/** An ordered mapping rule: when all atoms are present (and none of the excluded), set fields not yet set. */
const featureRuleSchema = z
  .object({
    all: z.array(z.union([z.string(), z.number()])).default([]),
    none: z.array(z.union([z.string(), z.number()])).default([]),
    set: z
      .object({
        word_class: z.string().optional(),
        tense: z.string().optional(),
        polarity: z.enum(['positive', 'negative']).optional(),
        subject: z.string().optional(),
        object: z.string().optional(),
        variant: z.string().optional(),
        agreement: z.string().optional(),
        noun_class: z.string().optional(),
        number: z.enum(['sg', 'pl']).optional(),
        form: z.string().optional(),
        possessee: z.string().optional(),
      })
      .strict(),
    /**
     * Other tenses the same bundle also names in this schema (a source that files one paradigm
     * row under two tags). Generation uses `set`; analysis accepts any of them.
     */
    also: z.array(z.string()).default([]),
  })
  .strict();
export type FeatureRule = z.infer<typeof featureRuleSchema>;

/** A gold-data schema whose files need their own reading of some tags. */
const featureSchemaSchema = z
  .object({
    id: z.string(),
    description: z.string(),
    /** A file is in this schema when any of its bundles has any of these atoms. */
    detect: z.array(z.string()).min(1),
    /** Tried before the general rules. */
    rules: z.array(featureRuleSchema).default([]),
    /** The schema writes without the optional marks (metadata.orthography.optional_marks). */
    plain_orthography: z.boolean().default(false),
  })
  .strict();
export type FeatureSchema = z.infer<typeof featureSchemaSchema>;

const featuresSchema = z
  .object({
    /** Layered features NOM(...), PRIM(...) are flattened to atoms with these prefixes. */
    layers: z.record(z.string(), z.string()).default({}),
    schemas: z.array(featureSchemaSchema).default([]),
    rules: z.array(featureRuleSchema),
    defaults: z.object({ polarity: z.enum(['positive', 'negative']).default('positive') }).default({ polarity: 'positive' }),
    /** The code of the UniMorph table that measures this cartridge when it is not the cartridge's own (`<dataset>.dev.tsv`). */
    dataset: z
      .string()
      .regex(/^[a-z]{3}$/)
      .optional(),
    source,
  })
  .strict();
export type FeatureMapping = z.infer<typeof featuresSchema>;

export const metadataSchema = z
  .object({
    iso639_3: z.string().regex(/^[a-z]{3}$/),
    iso639_1: z
      .string()
      .regex(/^[a-z]{2}$/)
      .nullable()
      .optional(),
    name: z.string().min(1),
    endonym: z.string().optional(),
    glottocode: z
      .string()
      .regex(/^[a-z0-9]{4}\d{4}$/)
      .nullable()
      .optional(),
    guthrie: z.string().nullable().optional(),
    foundational: z.boolean().default(false),
    lexical_tone: z.boolean().optional(),
    /**
     * Marks the standard orthography may leave out (vowel length macrons): marked letter -> plain letter.
     * `written: false`: the standard orthography leaves them out, so the service writes its forms without
     * them (the cartridge's forms keep them as its notation, for tone and for the tables that write them).
     */
    orthography: z
      .object({ optional_marks: z.record(z.string(), z.string()).default({}), written: z.boolean().default(true) })
      .strict()
      .default({ optional_marks: {}, written: true }),
    sources: z.array(z.object({ id: z.string(), citation: z.string(), licence: z.string().optional() })).default([]),
  })
  .strict();
export type CartridgeMetadata = z.infer<typeof metadataSchema>;

/** A loaded cartridge. Parts a language does not have yet are undefined. */
export interface Cartridge {
  dir: string;
  metadata: CartridgeMetadata;
  agreement?: z.infer<typeof agreementSchema>;
  verbs?: VerbGrammar;
  words?: z.infer<typeof wordsSchema>;
  nouns?: NounGrammar;
  rules: Rule[];
  features?: FeatureMapping;
  lexicon: LexiconEntry[];
  golden?: GoldenTests;
  /** Tone data (tone.yaml), for languages whose tone the cartridge describes. */
  tone?: ToneData;
  numerals?: NumeralGrammar;
}

function readYaml<T>(dir: string, file: string, schema: z.ZodType<T>): T | undefined {
  const full = path.join(dir, file);
  if (!existsSync(full)) return undefined;
  const parsed = schema.safeParse(parse(readFileSync(full, 'utf8')));
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new Error(`${path.basename(dir)}/${file}: ${issues}`);
  }
  return parsed.data;
}

/** Reads and validates every part of the cartridge in `dir`. Throws naming the file and field. */
export function loadCartridge(dir: string): Cartridge {
  const meta = readYaml(dir, 'cartridge.yaml', z.object({ metadata: metadataSchema }).passthrough());
  if (!meta) throw new Error(`${dir}: no cartridge.yaml`);
  const lexiconFile = path.join(dir, 'lexicon.tsv');
  const lexicon = existsSync(lexiconFile)
    ? readLexicon(
        lexiconFile,
        meta.metadata.sources.map((s) => s.id),
      )
    : [];
  return {
    dir,
    metadata: meta.metadata,
    agreement: readYaml(dir, 'agreement.yaml', agreementSchema),
    verbs: readYaml(dir, 'verbs.yaml', verbsSchema),
    words: readYaml(dir, 'words.yaml', wordsSchema),
    nouns: readYaml(dir, 'nouns.yaml', nounsSchema),
    rules: readYaml(dir, 'rules.yaml', rulesSchema)?.rules ?? [],
    features: readYaml(dir, 'features.yaml', featuresSchema),
    lexicon,
    golden: readYaml(dir, 'golden.yaml', goldenSchema),
    tone: readYaml(dir, 'tone.yaml', toneSchema),
    numerals: readYaml(dir, 'numerals.yaml', numeralGrammarSchema),
  };
}

/**
 * The cartridge as a dataset convention has it (verbs.conventions): its rules left out, its
 * stem-support overrides and short stems applied. Throws naming the known conventions for an unknown id.
 */
export function withConvention(cartridge: Cartridge, id: string): Cartridge {
  const conventions = cartridge.verbs?.conventions ?? [];
  const convention = conventions.find((c) => c.id === id);
  if (!convention) {
    const known = conventions.map((c) => c.id);
    throw new Error(`the ${cartridge.metadata.name} cartridge has no variant "${id}"${known.length ? `; known variants: ${known.join(', ')}` : ''}`);
  }
  const verbs = cartridge.verbs!;
  const short = new Set(convention.short);
  const stemSupport = verbs.stem_support && convention.stem_support ? { ...verbs.stem_support, ...definedOnly(convention.stem_support) } : verbs.stem_support;
  return {
    ...cartridge,
    verbs: { ...verbs, ...(stemSupport ? { stem_support: stemSupport } : {}), ...(convention.without_cited_glide ? { cited_glide: undefined } : {}) },
    rules: cartridge.rules.filter((r) => !convention.without_rules.includes(r.id)),
    lexicon: cartridge.lexicon.map((e) => (e.word_class === 'verb' && short.has(e.lemma) && !e.flags.includes('short') ? { ...e, flags: [...e.flags, 'short'] } : e)),
  };
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** The zod schema of each YAML file of a cartridge (phonology.yaml aside: src/morphology/phonology.ts), for the JSON Schemas in languages/schema/. */
export const CARTRIDGE_YAML_SCHEMAS = {
  'cartridge.yaml': z.object({ metadata: metadataSchema }).passthrough(),
  'agreement.yaml': agreementSchema,
  'verbs.yaml': verbsSchema,
  'words.yaml': wordsSchema,
  'nouns.yaml': nounsSchema,
  'rules.yaml': rulesSchema,
  'features.yaml': featuresSchema,
  'golden.yaml': goldenSchema,
  'tone.yaml': toneSchema,
  'numerals.yaml': numeralGrammarSchema,
} as const;
