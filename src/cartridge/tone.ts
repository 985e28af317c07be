/**
 * The tone part of a cartridge (`languages/<iso>/tone.yaml`) as a zod schema: lexical tone of
 * roots and stems, tones of grammatical morphs, grammatical melodies per tense and polarity,
 * ordered tone rules and golden tone cases. Every fact carries a source (per entry or per list).
 * See docs/cartridge-tone.md. Nothing here names a language.
 */
import { z } from 'zod';

const source = z.string().min(1);

/**
 * A tone pattern over the tone-bearing units (TBUs) of a morph: one letter per TBU,
 * H (high), L (low, specified) or 0 (toneless). A single letter names the first TBU only
 * (`H` = high on the first TBU, the others toneless), the usual shape of a Bantu root tone.
 */
export const tonePattern = z.string().regex(/^[HL0]+$/, 'a tone pattern is made of H, L and 0 (toneless)');

/** Which forms a melody or rule is limited to. Omitted fields do not restrict. */
export const conditionSchema = z
  .object({
    tense: z.array(z.string()).optional(),
    not_tense: z.array(z.string()).optional(),
    polarity: z.enum(['positive', 'negative']).optional(),
    word_class: z.array(z.string()).optional(),
    /** Only H tones that came from these slots (root, tam, subject, object, melody, ...). */
    origin: z.array(z.string()).optional(),
  })
  .strict();
export type ToneCondition = z.infer<typeof conditionSchema>;

/** A root or stem with its lexical tone. */
const lexicalEntry = z
  .object({
    root: z.string().min(1),
    tone: tonePattern,
    gloss: z.string().optional(),
    /** The word as the source writes it, tone-marked (acute = H, grave = L), when it gives one. */
    marked: z.string().optional(),
    source: source.optional(),
  })
  .strict();

/** A list of entries sharing one source (an entry's own source wins). */
const lexicalList = z.object({ source, entries: z.array(lexicalEntry).min(1) }).strict();

/** The tone of a grammatical morph, found by slot and (optionally) its id or form. */
const morphToneSchema = z
  .object({
    slot: z.string(),
    id: z.union([z.string(), z.array(z.string())]).optional(),
    form: z.union([z.string(), z.array(z.string())]).optional(),
    tone: tonePattern,
    when: conditionSchema.optional(),
    source,
  })
  .strict();
export type MorphTone = z.infer<typeof morphToneSchema>;

/** Where a melody tone goes, counted in TBUs of the word or of the macrostem / stem. */
export const positionSchema = z.enum(['word_initial', 'word_final', 'penult', 'antepenult', 'stem_initial', 'stem_second', 'stem_final', 'macrostem_initial', 'stem_penult']);
export type Position = z.infer<typeof positionSchema>;

/** A grammatical tone melody of a tense (and polarity): H tones put at positions, possibly replacing the root's. */
const melodySchema = z
  .object({
    id: z.string(),
    when: conditionSchema,
    /** Delete the root's lexical tones first (the melody overrides the lexical contrast). */
    replaces_lexical: z.boolean().default(false),
    /** Only when the root is (not) lexically high. */
    root: z.enum(['high', 'toneless', 'any']).default('any'),
    assign: z.array(z.object({ position: positionSchema, tone: z.enum(['H', 'L']) }).strict()).min(1),
    source,
  })
  .strict();
export type Melody = z.infer<typeof melodySchema>;

const ruleBase = { id: z.string().regex(/^[a-z0-9_]+$/), description: z.string(), when: conditionSchema.optional(), source };

/** Where a spread or shift may go: n TBUs, or up to a position counted from the word's end. */
const reach = z.union([z.number().int().min(1), z.enum(['penult', 'antepenult', 'final', 'unbounded'])]);

/** The ordered tone rules; each type is implemented once in src/tone/rules.ts. */
export const toneRuleSchema = z.discriminatedUnion('type', [
  z
    .object({
      ...ruleBase,
      type: z.literal('spread'),
      direction: z.enum(['right', 'left']).default('right'),
      /** How far the H spreads from its rightmost (leftmost) TBU. */
      reach: reach.default(1),
      /** The spread never reaches the word's final TBU. */
      not_final: z.boolean().default(false),
      /** Stop before a TBU whose onset is a depressor consonant (see `depressors`). */
      blocked_by_depressor: z.boolean().default(false),
      /** Stop one TBU short of another H (no HH plateau across two tones). */
      stop_before_h: z.boolean().default(false),
    })
    .strict(),
  z
    .object({
      ...ruleBase,
      type: z.literal('shift'),
      direction: z.enum(['right', 'left']).default('right'),
      reach: reach.default(1),
      not_final: z.boolean().default(false),
      blocked_by_depressor: z.boolean().default(false),
    })
    .strict(),
  z
    .object({
      ...ruleBase,
      type: z.literal('meeussen'),
      /** What happens to the second of two adjacent H tones: deleted, or only its first TBU lowered. */
      effect: z.enum(['delete', 'lower_first']).default('delete'),
      /**
       * Which H a tone is compared with: `surviving`, the last H that is still there (H H H -> H L H);
       * `underlying`, the H before it whether or not the rule removed it (H H H -> H L L).
       */
      scope: z.enum(['surviving', 'underlying']).default('surviving'),
    })
    .strict(),
  z.object({ ...ruleBase, type: z.literal('downstep') }).strict(),
  z
    .object({
      ...ruleBase,
      type: z.literal('depressor'),
      /** lower: an H leaves a TBU with a depressor onset; shift: it moves on to the next TBU. */
      effect: z.enum(['lower', 'shift']).default('lower'),
    })
    .strict(),
  z
    .object({
      ...ruleBase,
      type: z.literal('insert'),
      /** Where the H goes (a phrasal or boundary tone added late, after the rules before it). */
      position: positionSchema,
      /** Only when no H of the word is left on another TBU (a default tone for a toneless word). */
      only_if_toneless: z.boolean().default(false),
    })
    .strict(),
  z
    .object({
      ...ruleBase,
      type: z.literal('final_lowering'),
      /** Lower the final TBU only when the H also has a TBU before it (a spread H keeps its first). */
      only_multiply_linked: z.boolean().default(false),
    })
    .strict(),
]);
export type ToneRule = z.infer<typeof toneRuleSchema>;

/** A golden tone case: a conjugated form (or a word with given tones) and its tone-marked surface. */
const goldenSchema = z
  .object({
    root: z.string().optional(),
    cell: z.record(z.string(), z.union([z.string(), z.array(z.string())])).optional(),
    /** Expected surface, tone-marked: acute = H, grave or unmarked = L; ꜜ before a downstepped syllable. */
    expect: z.string().min(1),
    gloss: z.string().optional(),
    source,
    /**
     * Why the engine does not reproduce this form yet (missing data, a rule not modelled, sources that
     * disagree). An open case is run and reported like the others and counts as failing; a test checks
     * that it still fails, so a case the engine comes to reproduce must be closed (this field removed).
     */
    open: z.string().min(1).optional(),
    /**
     * The printed form respelt in the cartridge's orthography, tone marks kept, when the source spells its
     * segments differently (`why` says how); the runner compares with it. Its tones must equal `expect`'s.
     */
    respelled: z
      .object({ form: z.string().min(1), why: z.string().min(1) })
      .strict()
      .optional(),
  })
  .strict();
export type ToneGolden = z.infer<typeof goldenSchema>;

/** A tone-marked word as a source writes it (nouns and other words the engine does not build), for pairs and lookups. */
const markedWord = z.object({ marked: z.string().min(1), gloss: z.string(), source: source.optional() }).strict();
const markedList = z.object({ source, entries: z.array(markedWord).min(1) }).strict();

/** A form the tone data describes: a tense in one polarity (or both), with or without an object marker. */
const coverageSchema = z
  .object({
    tense: z.string(),
    polarity: z.enum(['positive', 'negative', 'both']).default('positive'),
    object: z.boolean().default(false),
    /** Only these subjects (agreement ids), where the sources show the tense's tone for some persons or classes only. */
    subject: z.array(z.string()).min(1).optional(),
  })
  .strict();

export const toneSchema = z
  .object({
    source,
    /** The works this file cites, by id (ids of cartridge.yaml's sources may be cited too). */
    sources: z.array(z.object({ id: z.string(), citation: z.string(), licence: z.string().optional() }).strict()).default([]),
    /** Tone-bearing unit: the syllable, or the mora (a long vowel is two). */
    unit: z.enum(['syllable', 'mora']).default('syllable'),
    /** Letters that are vowels, for splitting words into TBUs where the cartridge has no phonology.yaml. */
    vowels: z.string().default('aeiou'),
    /** What unlisted grammatical morphs are: toneless (with the source that says so). */
    unlisted_morphs: z.object({ tone: z.literal('toneless'), source }).strict(),
    /** Onset letters (regex alternatives) that depress tone. */
    depressors: z.object({ pattern: z.string(), source }).strict().optional(),
    /**
     * The forms whose tone the data describes; any other form gets no analysis (its melody is
     * unknown, and leaving it toneless would invent a pattern). Omitted = every form.
     */
    coverage: z.array(coverageSchema).optional(),
    lexical: z.array(lexicalList).default([]),
    words: z.array(markedList).default([]),
    morphs: z.array(morphToneSchema).default([]),
    melodies: z.array(melodySchema).default([]),
    rules: z.array(toneRuleSchema).default([]),
    golden: z.array(goldenSchema).default([]),
  })
  .strict();
export type ToneData = z.infer<typeof toneSchema>;
export type LexicalTone = z.infer<typeof lexicalEntry> & { source: string };
