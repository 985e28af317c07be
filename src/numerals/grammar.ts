/**
 * The numeral grammar: how a language spells a whole number in words, as data
 * (languages/<iso>/numerals.yaml, validated here) and one generic speller.
 *
 * A number is split greedily over the language's bases (10, 100, 1000, ...): each
 * base contributes a term, "one base" (`one`) or "base × multiplier" (the base's
 * plural noun followed by the multiplier agreeing with it, or a lexicalised
 * multiple), and the terms are joined by connectives. Digits 1–9 are invariable
 * words or stems taking a concord prefix of a context (a noun class, or a named
 * context such as the counting form); ordered regex rules rewrite the join of
 * prefix+stem and of a fused connective with the next word. Nothing here names a
 * language; see docs/cartridge-numerals.md.
 */
import { z } from 'zod';

const source = z.string().min(1);

/** A context name: a noun class (c1, c2, c10, c1a, ...) or a named context (count, unit, ...). */
const contextName = z.string().regex(/^[a-z][a-z0-9_]*$/);
export const CLASS_ID = /^c\d{1,2}[a-z]?$/;

const concordSchema = z
  .object({
    /** Prefix joined to a digit's stem (`prefix+stem`, then the rules). */
    prefix: z.string(),
    /** A separate word before the numeral (an adjectival or relative concord), for every digit. */
    particle: z.string().optional(),
    /** The context digit 1 takes instead (a plural class's singular: c2 -> c1). */
    singular: contextName.optional(),
    /** Invariable digit words (nouns) take the prefix too, through the rules (a- + isithupha > ayisithupha). */
    joins_words: z.boolean().default(false),
    source: source.optional(),
  })
  .strict();

const digitSchema = z
  .object({
    /** An agreeing digit: the stem that takes the context's prefix. */
    stem: z.string().min(1).optional(),
    /** An invariable digit (often a noun): the same word in every context. */
    word: z.string().min(1).optional(),
    /** The digit is said as the sum of two smaller digits, joined by `sum_connective` (6 = 5 + 1). */
    sum: z.tuple([z.number().int().min(1).max(9), z.number().int().min(1).max(9)]).optional(),
    /** Irregular forms in a context (context name -> form); they win over stem and word. */
    forms: z.record(contextName, z.string().min(1)).default({}),
    source: source.optional(),
  })
  .strict()
  .refine((d) => [d.stem, d.word, d.sum].filter((v) => v !== undefined).length === 1, { message: 'a digit has exactly one of stem, word or sum' });

/** How a term is joined to the lower part after it. */
const joinSchema = z
  .object({
    /** The connective: '' (none), a word ('na'), or a prefix fused with the next word ('na+'). */
    word: z.string().default(''),
    /** The context of the lower part's digits when no class is asked for. */
    context: contextName.default('count'),
    source: source.optional(),
  })
  .strict();
export type Join = z.infer<typeof joinSchema>;

const baseSchema = z
  .object({
    value: z.number().int().min(10),
    /** One of the base, alone or last ("icumi", "mia moja"). */
    one: z.string().min(1),
    /** One of the base when more follows ("cumi na rimwe"); default `one`. */
    one_before_more: z.string().min(1).optional(),
    /** The noun for several of the base; the multiplier follows it. Default: `one`. */
    plural: z.string().min(1).optional(),
    /** The context the multiplier agrees with (the plural noun's class). */
    agree: contextName.default('count'),
    /** Lexicalised multiples, whole phrases (2 -> "ishirini"). */
    multiples: z.record(z.string().regex(/^\d+$/), z.string().min(1)).default({}),
    /** Joins after one of the base and after several of it; default the grammar's `join`. */
    join_singular: joinSchema.optional(),
    join_plural: joinSchema.optional(),
    source,
  })
  .strict();
export type NumeralBase = z.infer<typeof baseSchema>;

const ruleSchema = z
  .object({
    /** A regex over the join; `+` marks the boundary (write it `\+`). */
    match: z.string().min(1),
    to: z.string(),
    description: z.string().optional(),
    source: source.optional(),
  })
  .strict();

const goldenSchema = z
  .object({
    number: z.union([z.number().int().min(0), z.string().regex(/^\d+$/)]),
    class: z.string().optional(),
    form: z.string().min(1),
    /** The named variant the form is spelled in (default: the standard grammar). */
    variant: z.string().optional(),
    source,
  })
  .strict();
export type NumeralGolden = z.infer<typeof goldenSchema>;

/**
 * A named variant: a dataset's or a dialect's convention, spelled by the same grammar with some
 * parts replaced. Concords and digits replace the standard's entry of the same name; a base
 * replaces the fields it lists of the standard's base of the same value; `join` replaces the join.
 */
const variantSchema = z
  .object({
    description: z.string().min(1),
    concords: z.record(contextName, concordSchema).default({}),
    digits: z.record(z.string().regex(/^[1-9]$/), digitSchema).default({}),
    join: joinSchema.optional(),
    bases: z
      .array(
        z
          .object({
            value: z.number().int().min(10),
            agree: contextName.optional(),
            join_singular: joinSchema.optional(),
            join_plural: joinSchema.optional(),
          })
          .strict(),
      )
      .default([]),
    source,
  })
  .strict();
export type NumeralVariant = z.infer<typeof variantSchema>;

export const numeralGrammarSchema = z
  .object({
    source,
    zero: z.object({ word: z.string().min(1), source: source.optional() }).strict(),
    concords: z.record(contextName, concordSchema),
    digits: z.record(z.string().regex(/^[1-9]$/), digitSchema),
    /** The connective inside a digit said as a sum (6 = 5 + 1). */
    sum_connective: z.string().default(''),
    /** Default join of a term to the lower part. */
    join: joinSchema.default({ word: '', context: 'count' }),
    /** `every`: a connective at every join; `last`: only before the last term (earlier joins are a space). */
    connective_placement: z.enum(['every', 'last']).default('every'),
    bases: z.array(baseSchema).min(1),
    rules: z.array(ruleSchema).default([]),
    /** Named variants (`lugha eval numerals --variant NAME`); the grammar itself is the standard. */
    variants: z.record(contextName, variantSchema).default({}),
    tests: z.array(goldenSchema).default([]),
  })
  .strict()
  .superRefine((g, ctx) => {
    for (const [name, variant] of Object.entries(g.variants)) {
      const values = new Set(g.bases.map((b) => b.value));
      for (const b of variant.bases) if (!values.has(b.value)) ctx.addIssue({ code: 'custom', path: ['variants', name, 'bases'], message: `no base ${b.value} to replace` });
    }
    for (const t of g.tests) {
      if (t.variant !== undefined && !g.variants[t.variant]) ctx.addIssue({ code: 'custom', path: ['tests'], message: `test of ${t.number}: no variant "${t.variant}"` });
    }
    for (let d = 1; d <= 9; d++) if (!g.digits[String(d)]) ctx.addIssue({ code: 'custom', path: ['digits'], message: `digit ${d} is missing` });
    const values = g.bases.map((b) => b.value);
    if (values[0] !== 10) ctx.addIssue({ code: 'custom', path: ['bases'], message: 'the first base is 10' });
    for (let i = 1; i < values.length; i++) {
      if (values[i]! <= values[i - 1]!) ctx.addIssue({ code: 'custom', path: ['bases', i], message: 'bases ascend' });
    }
    const contexts = new Set(Object.keys(g.concords));
    if (!contexts.has('count')) ctx.addIssue({ code: 'custom', path: ['concords'], message: 'a "count" concord (the counting forms) is required' });
    const used = [g.join.context, ...g.bases.flatMap((b) => [b.agree, b.join_singular?.context, b.join_plural?.context])];
    for (const c of used) if (c && !contexts.has(c)) ctx.addIssue({ code: 'custom', path: ['concords'], message: `context "${c}" is used but has no concord` });
    for (const [id, c] of Object.entries(g.concords)) {
      if (c.singular && !contexts.has(c.singular)) ctx.addIssue({ code: 'custom', path: ['concords', id], message: `singular context "${c.singular}" has no concord` });
    }
    for (const [d, digit] of Object.entries(g.digits)) {
      if (digit.sum && digit.sum.some((part) => part >= Number(d))) ctx.addIssue({ code: 'custom', path: ['digits', d, 'sum'], message: 'the parts of a sum are smaller than the digit' });
      for (const c of Object.keys(digit.forms)) if (!contexts.has(c)) ctx.addIssue({ code: 'custom', path: ['digits', d, 'forms', c], message: `context "${c}" has no concord` });
    }
    for (const r of g.rules) {
      try {
        new RegExp(r.match, 'u');
      } catch (error) {
        ctx.addIssue({ code: 'custom', path: ['rules'], message: `bad regex ${r.match}: ${(error as Error).message}` });
      }
    }
  });
export type NumeralGrammar = z.infer<typeof numeralGrammarSchema>;

/**
 * The grammar of a named variant: the standard with the variant's concords, digits, join and
 * base fields put in place. Throws a RangeError naming the variants when `name` is not one.
 */
export function numeralVariant(grammar: NumeralGrammar, name: string): NumeralGrammar {
  const variant = grammar.variants[name];
  if (!variant) {
    const names = Object.keys(grammar.variants);
    throw new RangeError(`no numeral variant "${name}" (allowed: ${names.length ? names.join(', ') : 'none'})`);
  }
  const bases = grammar.bases.map((b) => {
    const patch = variant.bases.find((v) => v.value === b.value);
    if (!patch) return b;
    const { value: _value, ...fields } = patch;
    return { ...b, ...Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) };
  });
  const merged = {
    ...grammar,
    concords: { ...grammar.concords, ...variant.concords },
    digits: { ...grammar.digits, ...variant.digits },
    join: variant.join ?? grammar.join,
    bases,
    variants: {},
    tests: [],
  };
  // Validate the result like a grammar (a variant may name a context the standard lacks).
  return numeralGrammarSchema.parse(merged);
}

/** The largest number the speller accepts: 10^12. */
export const MAX_NUMBER = 1_000_000_000_000;

/** A term of the decomposition: one base times a multiplier, or the units. */
interface Term {
  words: string[];
  join: Join;
}

/** Spells numbers of one language's grammar. */
export class NumeralSpeller {
  readonly #rules: Array<{ match: RegExp; to: string }>;

  constructor(readonly grammar: NumeralGrammar) {
    this.#rules = grammar.rules.map((r) => ({ match: new RegExp(r.match, 'gu'), to: r.to }));
  }

  /** Noun classes the cardinal agrees with (the class contexts of the concords). */
  get classes(): string[] {
    return Object.keys(this.grammar.concords).filter((c) => CLASS_ID.test(c));
  }

  /** `n` (0..10^12) in words; `cls` makes the agreeing digits take that noun class's concord. */
  spell(n: number, cls?: string): string {
    if (!Number.isSafeInteger(n) || n < 0 || n > MAX_NUMBER) throw new RangeError(`${n} is outside 0..${MAX_NUMBER}`);
    if (cls !== undefined && !this.classes.includes(cls)) throw new RangeError(`no concord for class ${cls}`);
    if (n === 0) return this.grammar.zero.word;
    // A number of a base or more agreeing with a class whose concord joins words (izinkomo eziyishumi, ten
    // cattle) agrees as a multiplier does: its head, a base noun, takes the concord.
    const lowest = Math.min(...this.grammar.bases.map((b) => b.value));
    if (cls !== undefined && this.grammar.concords[cls]!.joins_words && n >= lowest) return this.#agreeingPhrase(n, cls).join(' ');
    return this.#phrase(n, cls ?? 'count', cls).join(' ');
  }

  /**
   * Words of `n` > 0. Digits standing alone take `context`; the digits of the lower part take the
   * class `cls` when one is asked for, else the context of the join before them.
   */
  #phrase(n: number, context: string, cls: string | undefined): string[] {
    const terms: Term[] = [];
    let rest = n;
    for (const base of [...this.grammar.bases].reverse()) {
      if (rest < base.value) continue;
      const multiplier = Math.floor(rest / base.value);
      rest %= base.value;
      terms.push(this.#term(base, multiplier, rest > 0));
    }
    if (rest > 0) terms.push({ words: this.#digit(rest, cls ?? terms.at(-1)?.join.context ?? context), join: this.grammar.join });
    const out: string[] = [...terms[0]!.words];
    for (let i = 1; i < terms.length; i++) {
      const join = terms[i - 1]!.join;
      const connective = this.grammar.connective_placement === 'last' && i < terms.length - 1 ? '' : join.word;
      out.push(...this.#connect(connective, terms[i]!.words));
    }
    return out;
  }

  #term(base: NumeralBase, multiplier: number, more: boolean): Term {
    const join = (multiplier === 1 ? base.join_singular : base.join_plural) ?? this.grammar.join;
    if (multiplier === 1) return { words: [more ? (base.one_before_more ?? base.one) : base.one], join };
    const lexical = base.multiples[String(multiplier)];
    if (lexical) return { words: [lexical], join };
    const noun = base.plural ?? base.one;
    const count = multiplier < 10 ? this.#digit(multiplier, base.agree) : this.#agreeingPhrase(multiplier, base.agree);
    return { words: [noun, ...count], join };
  }

  /**
   * A multiplier of 10 or more (izinkulungwane eziyishumi, ten thousand): it is itself a number
   * phrase whose units agree with the base (ibihumbi cumi na kimwe), and its head agrees with the
   * base as a digit word does: the context's particle before it, and the context's prefix on its
   * first word (a base noun) when the context `joins_words`.
   */
  #agreeingPhrase(n: number, context: string): string[] {
    const words = this.#phrase(n, context, context);
    const concord = this.grammar.concords[context]!;
    const [first, ...rest] = words;
    const head = concord.joins_words ? this.#join(concord.prefix, first!) : first!;
    return concord.particle ? [concord.particle, head, ...rest] : [head, ...rest];
  }

  /** A digit 1..9 in a context: the context's particle, then the digit's form. */
  #digit(d: number, context: string): string[] {
    const digit = this.grammar.digits[String(d)]!;
    const concord = this.grammar.concords[context]!;
    if (digit.sum) {
      const [a, b] = digit.sum;
      const first = this.#digit(a, context);
      const second = this.#digit(b, context);
      return [...first, ...this.#connect(this.grammar.sum_connective, second)];
    }
    const own = d === 1 && concord.singular ? concord.singular : context;
    const ownConcord = this.grammar.concords[own]!;
    const form = digit.forms[own] ?? (digit.stem !== undefined ? this.#join(ownConcord.prefix, digit.stem) : ownConcord.joins_words ? this.#join(ownConcord.prefix, digit.word!) : digit.word!);
    const particle = ownConcord.particle;
    return particle ? [particle, form] : [form];
  }

  /** `connective` before `words`: nothing, a word of its own, or fused with the first word ('na+'). */
  #connect(connective: string, words: string[]): string[] {
    if (!connective) return words;
    if (connective.endsWith('+')) return [this.#join(connective.slice(0, -1), words[0]!), ...words.slice(1)].flatMap((w) => w.split(' '));
    return [connective, ...words];
  }

  /** Joins two morphs: the rules rewrite `left+right`; the boundary then disappears. */
  #join(left: string, right: string): string {
    let text = `${left}+${right}`;
    for (const rule of this.#rules) text = text.replace(rule.match, rule.to);
    return text.replaceAll('+', '');
  }
}
