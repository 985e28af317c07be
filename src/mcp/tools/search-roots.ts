/** search_roots: the lexicon searched by form prefix or English gloss (Utility, read-only); the search is src/lexicon-service.ts. */
import { z } from 'zod';
import { lexiconSearchFields, lexiconSearchResultSchema, searchLexicon } from '../../lexicon-service.js';
import { defineTool } from '../tool.js';
import { languageArgument } from './common.js';

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
      ...lexiconSearchFields,
    })
    .strict(),
  output: lexiconSearchResultSchema,
  generative: false,
  handler: (args, { services }) => searchLexicon(services.morphology, args),
  summary: (r) =>
    `${r.total} entries for "${r.query}" in ${r.language}${
      r.entries.length
        ? `: ${r.entries
            .slice(0, 5)
            .map((e) => `${e.lemma} (${e.gloss})`)
            .join(', ')}`
        : ''
    }`,
});
