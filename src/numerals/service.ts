/**
 * The numeral service: a whole number 0..10^12 in words in any language whose
 * cartridge has a numeral grammar, with noun-class agreement of the cardinal.
 * HTTP (GET /api/v1/numerals), the CLI (`lugha spell`) and MCP (`spell_number`)
 * share it; its input and output are the zod schemas below. Errors are values
 * naming the parameter to fix, as in the morphology service.
 */
import { z } from 'zod';
import { languageCode } from '../morphology-api.js';
import type { MorphologyService } from '../morphology/service.js';
import { ok, problem, type Result } from '../result.js';
import { MAX_NUMBER, NumeralSpeller } from './grammar.js';

/** A whole number as a decimal string, 0..10^12 (a string, so no precision is lost on the way in). */
export const numberString = z
  .string()
  .trim()
  .regex(/^\d+$/, 'a whole number written with the digits 0-9, e.g. 2025')
  // By value, however many digits (leading zeros aside): 10^15 is out of range, not badly written.
  .refine((v) => v.replace(/^0+(?=\d)/, '').length <= 13 && Number(v) <= MAX_NUMBER, { message: `out of range: at most ${MAX_NUMBER} (10^12)` })
  .describe('The number, a decimal string from 0 to 1000000000000 (10^12).');

export const spellInputSchema = z
  .object({
    language: languageCode.describe('Language code: ISO 639-3 (swh), 639-1 (sw) or a macrolanguage code (swa).'),
    number: numberString,
    class: z
      .string()
      .trim()
      .regex(/^c\d{1,2}[a-z]?$/, 'a noun class id such as c2, c8, c10')
      .optional()
      .describe('Noun class of the counted noun (c2, c8, c10, ...): the agreeing digits take its concord. Omit for the counting form.'),
  })
  .strict();
export type SpellInput = z.input<typeof spellInputSchema>;

export const spellResultSchema = z
  .object({
    language: z.string().describe('ISO 639-3 code of the language.'),
    number: z.string().describe('The number, as a decimal string.'),
    class: z.string().nullable().describe('The noun class asked for, or null for the counting form.'),
    text: z.string().describe('The number in words.'),
    words: z.array(z.string()).describe('The orthographic words of `text`.'),
    agreement: z.boolean().describe('Whether some digit took the noun class concord (false when no class was asked for or no digit of this number agrees).'),
    classes: z.array(z.string()).describe('The noun classes the cardinal agrees with in this language.'),
    source: z.string().describe('The sources of the numeral grammar (ids of the cartridge sources).'),
  })
  .describe('A number in words');
export type SpellResult = z.infer<typeof spellResultSchema>;

export class NumeralService {
  readonly #spellers = new Map<string, NumeralSpeller>();

  constructor(private readonly morphology: MorphologyService) {}

  /** ISO 639-3 codes of the installed languages that have a numeral grammar. */
  languages(): string[] {
    return this.morphology
      .languages()
      .map((l) => l.iso)
      .filter((iso) => {
        const found = this.morphology.engine(iso);
        return found.ok && found.value.cartridge.numerals !== undefined;
      });
  }

  /** The speller of a language, or a problem naming `language`. */
  speller(language: string): Result<{ iso: string; speller: NumeralSpeller }> {
    const found = this.morphology.engine(language);
    if (!found.ok) return problem(found.code, 'language', found.message);
    const engine = found.value;
    const grammar = engine.cartridge.numerals;
    if (!grammar) {
      return problem('language_not_found', 'language', `no numeral grammar for ${engine.cartridge.metadata.name} yet; languages with numerals: ${this.languages().join(', ')}`);
    }
    let speller = this.#spellers.get(engine.iso);
    if (!speller) {
      speller = new NumeralSpeller(grammar);
      this.#spellers.set(engine.iso, speller);
    }
    return ok({ iso: engine.iso, speller });
  }

  spell(input: SpellInput): Result<SpellResult> {
    const parsed = spellInputSchema.safeParse(input);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      return problem('invalid_parameter', String(issue.path[0] ?? 'number'), issue.message);
    }
    const { language, number, class: cls } = parsed.data;
    const found = this.speller(language);
    if (!found.ok) return found;
    const { iso, speller } = found.value;
    const classes = speller.classes;
    if (cls !== undefined && !classes.includes(cls)) {
      const message = classes.length ? `the cardinal of ${iso} has no concord for class ${cls}` : `the cardinal of ${iso} does not agree in noun class`;
      return problem('invalid_parameter', 'class', message, classes);
    }
    const n = Number(number);
    const text = speller.spell(n, cls);
    return ok({
      language: iso,
      number: String(n),
      class: cls ?? null,
      text,
      words: text.split(' '),
      agreement: cls !== undefined && text !== speller.spell(n),
      classes,
      source: speller.grammar.source,
    });
  }
}
