/** spell_number: a whole number in words, with noun-class agreement (Utility, read-only). */
import { spellInputSchema, spellResultSchema } from '../../numerals/service.js';
import { defineTool, fromService } from '../tool.js';

export const spellNumber = defineTool({
  name: 'spell_number',
  group: 'Utility',
  title: 'Spell a number',
  description:
    'A whole number from 0 to 10^12 in words, built by the language\'s numeral grammar. Give `language` and `number` as a decimal string ("2025"); ' +
    'with `class` (c2, c8, c10, ...), the digits that agree take the concord of that noun class, as when counting nouns of that class. Every answer lists the ' +
    'classes the cardinal agrees with (`classes`) and the sources of the grammar. A language without a numeral grammar is refused with the ones that have one.',
  input: spellInputSchema,
  output: spellResultSchema,
  generative: false,
  handler: (args, { services }) => {
    const { numerals } = services;
    const outcome = numerals.spell(args);
    if (!outcome.ok && outcome.parameter === 'language' && outcome.code === 'language_not_found' && !outcome.allowed) {
      return fromService({ ...outcome, allowed: numerals.languages() });
    }
    return fromService(outcome);
  },
  summary: (r) => `${r.number} = ${r.text}`,
});
