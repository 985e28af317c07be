/**
 * Noun inflection from the cartridge's nouns.yaml: the class of a noun (lexicon,
 * else its shape), its stem, the plural class, and the derived forms — full
 * and bare forms, identificative copulative, locative, possessive and relative
 * possessive — as morph sequences for the boundary rules. Generic: classes,
 * prefixes and form recipes are data.
 */
import { z } from 'zod';
import type { Morph } from './rules.js';

const prefixSchema = z
  .object({
    /** How the prefix is written at the start of a citation form (may differ from `full`, e.g. i- for ī-). */
    lemma: z.string(),
    full: z.string(),
    bare: z.string(),
    /** Only for stems matching this pattern (monosyllabic stems take umu-, vowel stems is-). */
    stem: z.string().optional(),
    /**
     * The plural class's allomorph (by its `lemma`) that a noun written with this prefix takes, whatever
     * its stem: a singular that keeps ki- before a vowel keeps vi- in the plural (kiongozi -> viongozi,
     * where chakula -> vyakula). Unset: the plural's allomorph is chosen by the stem.
     */
    plural: z.string().optional(),
  })
  .strict();

const placeSchema = z
  .object({
    /** Locative prefix put before the base. */
    prefix: z.string(),
    /** What follows the prefix: the bare form, the full form, or the stem alone. */
    base: z.enum(['bare', 'full', 'stem']),
    /** Whether the locative suffix is added. */
    suffix: z.boolean().default(true),
  })
  .strict();

const possessiveSchema = z
  .object({
    /** Concord column (of the possessee's agreement row) that introduces the possessive. */
    concord: z.string(),
    /** The possessor's form that follows it. */
    base: z.enum(['bare', 'full']).default('full'),
  })
  .strict();

const nounClassSchema = z
  .object({
    id: z.string(),
    /** Agreement row of the class (its concords). */
    agreement: z.string(),
    plural: z.string().optional(),
    prefixes: z.array(prefixSchema).min(1),
    /** Prefixes this class's plural takes instead of the plural class's own (izin- for 11 -> 10). */
    plural_prefixes: z.array(prefixSchema).optional(),
    locative: placeSchema,
    possessive: possessiveSchema.default({ concord: 'possessive', base: 'full' }),
    relative_possessive: possessiveSchema.default({ concord: 'relative_possessive', base: 'full' }),
    /**
     * Whether the analyzer proposes nouns outside the lexicon in this class. Off for classes whose
     * prefix is empty and whose members are few and listed (kinship terms, a locative noun), where
     * every word would otherwise be read as one.
     */
    guess: z.boolean().default(true),
    source: z.string(),
  })
  .strict();
export type NounClass = z.infer<typeof nounClassSchema>;

export const nounsSchema = z
  .object({
    source: z.string(),
    classes: z.array(nounClassSchema).min(1),
    /** Ordered guesses of the class from the citation form, for nouns outside the lexicon. */
    class_patterns: z.array(z.object({ pattern: z.string(), class: z.string() }).strict()).min(1),
    /** Copula morph of the identificative copulative before the full form. */
    copula: z.string(),
    /**
     * The negative identificative copulative ('it is not a person'): a negative prefix, then the noun's own
     * class concord named by `concord` (an absolute pronoun), the copula when `copula` is true, and the full
     * form; rules (polarity negative) change it further. Absent: the language has no such form here.
     */
    negative_copulative: z
      .object({ prefix: z.string(), concord: z.string().optional(), copula: z.boolean().default(false), source: z.string() })
      .strict()
      .optional(),
    locative_suffix: z.string(),
    /** Letters by which a locative suffix may differ from its frame's (-eni, -ini, -weni: 3; an unchanging -ni: 0). */
    locative_slack: z.number().int().min(0).max(5).default(3),
    /** A noun outside the lexicon is proposed only when its citation form matches this (the language's word shape). */
    guess_shape: z.string().optional(),
    /** The noun forms the language has (a language without an augment or a fused copulative lists fewer); default all. */
    forms: z
      .array(z.enum(['full', 'bare', 'copulative', 'negative_copulative', 'locative', 'possessive', 'relative_possessive']))
      .min(1)
      .optional(),
  })
  .strict();
export type NounGrammar = z.infer<typeof nounsSchema>;

export const nounForms = ['full', 'bare', 'copulative', 'negative_copulative', 'locative', 'possessive', 'relative_possessive'] as const;
export type NounForm = (typeof nounForms)[number];

/** The noun forms a grammar has: its own list, else every form (the negative copulative only where the grammar describes it). */
export function grammarNounForms(grammar: NounGrammar | undefined): readonly NounForm[] {
  return (grammar?.forms ?? nounForms).filter((f) => f !== 'negative_copulative' || grammar?.negative_copulative !== undefined);
}

/** A noun split into class and stem. */
export interface NounLexeme {
  lemma: string;
  class: NounClass;
  stem: string;
  /** Irregular plural citation form from the lexicon ('-' = none). */
  plural?: string;
}

const matches = (pattern: string | undefined, text: string) => pattern === undefined || new RegExp(pattern, 'u').test(text);

/** Reads nouns: class lookup, stem splitting and morph sequences. */
export class NounInflector {
  readonly #classes = new Map<string, NounClass>();

  constructor(readonly grammar: NounGrammar) {
    for (const c of grammar.classes) this.#classes.set(c.id, c);
  }

  nounClass(id: string): NounClass | undefined {
    return this.#classes.get(id);
  }

  /** The class of a citation form: the lexicon's, else the first matching shape. */
  classify(lemma: string, lexiconClass?: string): NounClass | undefined {
    if (lexiconClass) return this.#classes.get(lexiconClass);
    const found = this.grammar.class_patterns.find((p) => new RegExp(p.pattern, 'u').test(lemma));
    return found ? this.#classes.get(found.class) : undefined;
  }

  /** Splits a citation form of `cls` into its stem (the longest matching prefix wins). */
  split(form: string, cls: NounClass, prefixes = cls.prefixes): string | undefined {
    return this.splitWith(form, cls, prefixes)?.stem;
  }

  /** The stem of a citation form and the prefix it was written with. */
  splitWith(form: string, cls: NounClass, prefixes = cls.prefixes): { stem: string; prefix: NounClass['prefixes'][number] } | undefined {
    const candidates = prefixes.filter((p) => form.startsWith(p.lemma) && matches(p.stem, form.slice(p.lemma.length))).sort((a, b) => b.lemma.length - a.lemma.length);
    const p = candidates[0];
    return p ? { stem: form.slice(p.lemma.length), prefix: p } : undefined;
  }

  /**
   * The prefixes a plural of `cls` may take when its singular is written with `singular`: the one
   * `singular.plural` names (its stem condition dropped), else every prefix of `list`.
   */
  pluralPrefixes(list: NounClass['prefixes'], singular: NounClass['prefixes'][number] | undefined): NounClass['prefixes'] {
    if (singular?.plural === undefined) return list;
    const paired = list.filter((p) => p.lemma === singular.plural).map(({ stem: _, ...p }) => p);
    return paired.length > 0 ? paired : list;
  }

  /** The prefix from `list` for `stem`: the first whose stem condition holds. */
  prefix(list: NounClass['prefixes'], stem: string): z.infer<typeof prefixSchema> {
    return list.find((p) => matches(p.stem, stem)) ?? list[list.length - 1]!;
  }

  /**
   * Morphs of `form` for a noun of class `cls` with `stem`; `possessee` is the agreement
   * row's concords of the possessed noun for possessive forms, `own` the noun's own row (the
   * negative copulative's concord).
   */
  morphs(cls: NounClass, stem: string, prefixes: NounClass['prefixes'], form: NounForm, possessee?: { id: string; concords: Record<string, string> }, own?: { id: string; concords: Record<string, string> }): Morph[] {
    const prefix = this.prefix(prefixes, stem);
    const full: Morph[] = [
      { slot: 'prefix', form: prefix.full, id: cls.id },
      { slot: 'stem', form: stem },
    ];
    const bare: Morph[] = [
      { slot: 'prefix', form: prefix.bare, id: cls.id },
      { slot: 'stem', form: stem },
    ];
    switch (form) {
      case 'full':
        return full;
      case 'bare':
        return bare;
      case 'copulative':
        return [{ slot: 'copula', form: this.grammar.copula }, ...full];
      case 'negative_copulative': {
        const spec = this.grammar.negative_copulative;
        if (!spec) throw new Error('this language has no negative copulative');
        const out: Morph[] = [{ slot: 'negative', form: spec.prefix }];
        if (spec.concord !== undefined) {
          const concord = own?.concords[spec.concord];
          if (concord === undefined) throw new Error(`no ${spec.concord} concord for class ${cls.id}`);
          out.push({ slot: 'pronoun', form: concord, id: own!.id });
        }
        if (spec.copula) out.push({ slot: 'copula', form: this.grammar.copula });
        return [...out, ...full];
      }
      case 'locative': {
        const base = cls.locative.base === 'bare' ? bare : cls.locative.base === 'full' ? full : [{ slot: 'stem', form: stem }];
        const out: Morph[] = [{ slot: 'locative', form: cls.locative.prefix }, ...base.map((m) => ({ ...m }))];
        if (cls.locative.suffix) out.push({ slot: 'suffix', form: this.grammar.locative_suffix });
        return out;
      }
      case 'possessive':
      case 'relative_possessive': {
        const spec = form === 'possessive' ? cls.possessive : cls.relative_possessive;
        const concord = possessee?.concords[spec.concord];
        if (concord === undefined) throw new Error(`no ${spec.concord} concord for ${possessee?.id ?? 'the possessee'}`);
        const base = spec.base === 'bare' ? bare : full;
        return [{ slot: 'concord', form: concord, id: possessee!.id }, ...base.map((m) => ({ ...m }))];
      }
    }
  }
}
