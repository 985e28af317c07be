/** search_roots: the lexicon searched by form prefix or English gloss (Utility, read-only). */
import { ok } from '../../result.js';
import { z } from 'zod';
import { defineTool } from '../tool.js';
import { engineFor, languageArgument } from './common.js';

const MAX_LIMIT = 100;

export const searchRoots = defineTool({
  name: 'search_roots',
  group: 'Utility',
  title: 'Search the lexicon',
  description:
    "Search a language's lexicon by the start of a lemma (pend, -pend-) or by a word of its English gloss (love). Returns lemmas with word class, gloss, " +
    'noun class and source, lemma matches first. Use a returned verb lemma as `root` in conjugate_verb. An empty list means nothing matched; ' +
    'the engine still conjugates and analyses roots outside the lexicon.',
  input: z
    .object({
      language: languageArgument,
      query: z.string().trim().min(1).max(64).describe('The start of a lemma (hyphens are ignored) or an English word of the gloss.'),
      word_class: z.string().min(1).max(32).optional().describe('Only this word class: verb, noun, adjective, ...'),
      limit: z.number().int().min(1).max(MAX_LIMIT).optional().describe('Most entries to return (default 20).'),
    })
    .strict(),
  output: z.object({
    language: z.string(),
    query: z.string(),
    total: z.number().int().describe('Entries that matched, before the limit.'),
    entries: z.array(
      z.object({
        lemma: z.string(),
        word_class: z.string(),
        gloss: z.string(),
        noun_class: z.string().optional(),
        source: z.string(),
        match: z.enum(['lemma', 'gloss']),
      }),
    ),
  }),
  generative: false,
  handler: ({ language, query, word_class, limit }, { services }) => {
    const engine = engineFor(services.morphology, language);
    if (!engine.ok) return engine;
    const prefix = query.toLowerCase().normalize('NFC').replace(/^-+|-+$/g, '');
    const word = new RegExp(`(^|[^\\p{L}])${escape(query.toLowerCase())}([^\\p{L}]|$)`, 'u');
    const lexicon = engine.value.cartridge.lexicon.filter((e) => !word_class || e.word_class === word_class);
    const byLemma: Array<{ entry: (typeof lexicon)[number]; match: 'lemma' | 'gloss' }> = [];
    const byGloss: typeof byLemma = [];
    for (const entry of lexicon) {
      if (prefix && entry.lemma.toLowerCase().startsWith(prefix)) byLemma.push({ entry, match: 'lemma' });
      else if (word.test(entry.gloss.toLowerCase())) byGloss.push({ entry, match: 'gloss' });
    }
    const matches = [...byLemma.sort((a, b) => a.entry.lemma.localeCompare(b.entry.lemma)), ...byGloss];
    return ok({
      language: engine.value.iso,
      query,
      total: matches.length,
      entries: matches.slice(0, limit ?? 20).map(({ entry, match }) => ({
        lemma: entry.lemma,
        word_class: entry.word_class,
        gloss: entry.gloss,
        ...(entry.noun_class ? { noun_class: entry.noun_class } : {}),
        source: entry.source,
        match,
      })),
    });
  },
  summary: (r) => `${r.total} entries for "${r.query}" in ${r.language}${r.entries.length ? `: ${r.entries.slice(0, 5).map((e) => `${e.lemma} (${e.gloss})`).join(', ')}` : ''}`,
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
