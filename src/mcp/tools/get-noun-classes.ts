/** get_noun_classes: a language's noun classes with their prefixes and concords (Data Access, read-only). */
import { fail, ok } from '../../result.js';
import { z } from 'zod';
import { defineTool } from '../tool.js';
import { engineFor, languageArgument } from './common.js';

export const getNounClasses = defineTool({
  name: 'get_noun_classes',
  group: 'Data Access',
  title: 'Noun classes',
  description:
    "A language's noun classes from its cartridge: for each class (c1..c18) the number, the noun prefix and every concord (subject, object, negative subject, " +
    'adjective, possessive, ...) with its source; where the cartridge has a noun grammar, also the sub-classes (1a, 2b, ...) with their singular/plural ' +
    'pairing, prefixes and example nouns from the lexicon. Use the class ids as `subject` or `object` in conjugate_verb.',
  input: z.object({ language: languageArgument }).strict(),
  output: z.object({
    language: z.string(),
    source: z.string().describe('Source id of the agreement table (see get_cartridge_info for the citation).'),
    classes: z.array(
      z.object({
        id: z.string().describe('Agreement id, usable as subject/object: c1, c2, ...'),
        class: z.number().int(),
        number: z.enum(['sg', 'pl']),
        human: z.boolean(),
        noun_prefix: z.string().nullable(),
        concords: z.record(z.string(), z.string()).describe('Concord name -> form; "-" separates a pre-initial (ha-wa).'),
        source: z.string(),
      }),
    ),
    noun_grammar: z
      .array(
        z.object({
          id: z.string(),
          agreement: z.string(),
          plural: z.string().nullable(),
          prefixes: z.array(z.string()),
          examples: z.array(z.object({ lemma: z.string(), gloss: z.string() })),
          source: z.string(),
        }),
      )
      .nullable()
      .describe('Noun classes of the noun grammar with sub-classes; null when the cartridge has none yet.'),
  }),
  generative: false,
  handler: ({ language }, { services }) => {
    const engine = engineFor(services.morphology, language);
    if (!engine.ok) return engine;
    const cartridge = engine.value.cartridge;
    const agreement = cartridge.agreement;
    const rows = agreement?.rows.filter((r) => r.class !== undefined) ?? [];
    if (!agreement || rows.length === 0) {
      return fail('invalid_parameter', `the ${cartridge.metadata.name} cartridge has no noun-class agreement table yet; noun classes exist for the languages in \`allowed\``, {
        parameter: 'language',
        allowed: services.morphology
          .languages()
          .map((l) => l.iso)
          .filter((iso) => {
            const other = services.morphology.engine(iso);
            return other.ok && (other.value.cartridge.agreement?.rows.some((r) => r.class !== undefined) ?? false);
          }),
      });
    }
    const nouns = cartridge.lexicon.filter((e) => e.word_class === 'noun' && e.noun_class);
    return ok({
      language: engine.value.iso,
      source: agreement.source,
      classes: rows.map((r) => ({
        id: r.id,
        class: r.class!,
        number: r.number,
        human: r.human,
        noun_prefix: r.noun_prefix ?? null,
        concords: r.concords,
        source: r.source ?? agreement.source,
      })),
      noun_grammar:
        cartridge.nouns?.classes.map((c) => ({
          id: c.id,
          agreement: c.agreement,
          plural: c.plural ?? null,
          prefixes: [...new Set(c.prefixes.map((p) => p.lemma))],
          examples: nouns
            .filter((n) => n.noun_class === c.id)
            .slice(0, 3)
            .map((n) => ({ lemma: n.lemma, gloss: n.gloss })),
          source: c.source,
        })) ?? null,
    });
  },
  summary: (r) => `${r.language}: ${r.classes.length} noun classes (${r.classes.map((c) => `${c.class}${c.noun_prefix ? ` ${c.noun_prefix}-` : ''}`).join(', ')})`,
});

