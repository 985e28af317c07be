/** get_cartridge_info: what one language cartridge contains and where its facts come from (Utility, read-only). */
import { ok } from '../../result.js';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { defineTool } from '../tool.js';
import { engineFor, languageArgument } from './common.js';

type Part = 'agreement' | 'verbs' | 'words' | 'nouns' | 'rules' | 'features' | 'lexicon' | 'golden' | 'phonology';

export const getCartridgeInfo = defineTool({
  name: 'get_cartridge_info',
  group: 'Utility',
  title: 'Cartridge contents and sources',
  description:
    "What a language's cartridge holds (agreement table, verb grammar, noun grammar, rules, lexicon, golden tests, phonology), how much of each, " +
    'how many golden tests the engine passes, and the full citation and licence of every source. Use it to judge how far to trust an answer for a language.',
  input: z.object({ language: languageArgument }).strict(),
  output: z.object({
    iso: z.string(),
    name: z.string(),
    parts: z.record(z.string(), z.boolean()).describe('Which parts of the cartridge format are present.'),
    counts: z.object({
      agreement_rows: z.number().int(),
      tenses: z.number().int(),
      extensions: z.number().int(),
      rules: z.number().int(),
      word_classes: z.number().int(),
      lexicon: z.record(z.string(), z.number().int()).describe('Lexicon entries per word class.'),
    }),
    golden_tests: z.object({ total: z.number().int(), passing: z.number().int() }),
    sources: z.array(z.object({ id: z.string(), citation: z.string(), licence: z.string().nullable() })),
  }),
  generative: false,
  handler: ({ language }, { services }) => {
    const engine = engineFor(services.morphology, language);
    if (!engine.ok) return engine;
    const c = engine.value.cartridge;
    const present: Record<Part, boolean> = {
      agreement: c.agreement !== undefined,
      verbs: c.verbs !== undefined,
      words: c.words !== undefined,
      nouns: c.nouns !== undefined,
      rules: c.rules.length > 0,
      features: c.features !== undefined,
      lexicon: c.lexicon.length > 0,
      golden: c.golden !== undefined,
      phonology: engine.value.phonology !== undefined || existsSync(path.join(c.dir, 'phonology.yaml')),
    };
    const lexicon: Record<string, number> = {};
    for (const e of c.lexicon) lexicon[e.word_class] = (lexicon[e.word_class] ?? 0) + 1;
    return ok({
      iso: engine.value.iso,
      name: c.metadata.name,
      parts: present,
      counts: {
        agreement_rows: c.agreement?.rows.length ?? 0,
        tenses: c.verbs?.tenses.length ?? 0,
        extensions: c.verbs?.extensions.length ?? 0,
        rules: c.rules.length,
        word_classes: c.words?.classes.length ?? 0,
        lexicon,
      },
      golden_tests: engine.value.golden(),
      sources: c.metadata.sources.map((s) => ({ id: s.id, citation: s.citation, licence: s.licence ?? null })),
    });
  },
  summary: (r) =>
    `${r.name} (${r.iso}): ${Object.entries(r.parts)
      .filter(([, v]) => v)
      .map(([k]) => k)
      .join(', ')}; golden ${r.golden_tests.passing}/${r.golden_tests.total}`,
});
