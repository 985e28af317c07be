/**
 * Look-ups over the installed cartridges that are neither conjugation nor analysis: the
 * lexicon searched by lemma prefix or English gloss, a language's noun classes with their
 * concords, and a word split into its morphemes. MCP tools (search_roots,
 * get_noun_classes, decompose_morphemes) are thin mappings over these functions, which
 * REST and the CLI can call the same way; results are the types of the schemas below.
 */
import { z } from 'zod';
import { languageCode } from './morphology-api.js';
import type { AnalysisView, LanguageEngine, MorphologyService } from './morphology/service.js';
import { fail, ok, type Result } from './result.js';

/** The engine for `language`, or a failure naming `language` and listing the installed languages. */
export function engineFor(morphology: MorphologyService, language: string): Result<LanguageEngine> {
  const found = morphology.engine(language);
  if (found.ok) return ok(found.value);
  return fail(found.code, found.message, { parameter: 'language', allowed: morphology.installed() });
}

/** The most entries one search returns. */
export const MAX_SEARCH_LIMIT = 100;
/** Entries a search returns when no limit is given. */
export const DEFAULT_SEARCH_LIMIT = 20;

export const lexiconSearchResultSchema = z.object({
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
});
export type LexiconSearchResult = z.infer<typeof lexiconSearchResultSchema>;

/** The arguments of a search besides the language (MCP's search_roots adds its described `language`). */
export const lexiconSearchFields = {
  query: z.string().trim().min(1).max(64).describe('The start of a lemma (hyphens are ignored) or an English word of the gloss.'),
  word_class: z.string().min(1).max(32).optional().describe('Only this word class: verb, noun, adjective, ...'),
  limit: z.number().int().min(1).max(MAX_SEARCH_LIMIT).optional().describe(`Most entries to return (default ${DEFAULT_SEARCH_LIMIT}).`),
};
export const lexiconSearchSchema = z.object({ language: languageCode, ...lexiconSearchFields }).strict();
export type LexiconSearch = z.output<typeof lexiconSearchSchema>;

/** The lexicon of a language searched by lemma prefix (sorted, first) and by a whole word of the gloss (in lexicon order, after). */
export function searchLexicon(morphology: MorphologyService, { language, query, word_class, limit }: LexiconSearch): Result<LexiconSearchResult> {
  const engine = engineFor(morphology, language);
  if (!engine.ok) return engine;
  const prefix = query
    .toLowerCase()
    .normalize('NFC')
    .replace(/^-+|-+$/g, '');
  const word = new RegExp(`(^|[^\\p{L}])${escapeRegExp(query.toLowerCase())}([^\\p{L}]|$)`, 'u');
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
    entries: matches.slice(0, limit ?? DEFAULT_SEARCH_LIMIT).map(({ entry, match }) => ({
      lemma: entry.lemma,
      word_class: entry.word_class,
      gloss: entry.gloss,
      ...(entry.noun_class ? { noun_class: entry.noun_class } : {}),
      source: entry.source,
      match,
    })),
  });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export const nounClassesSchema = z.object({
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
});
export type NounClasses = z.infer<typeof nounClassesSchema>;

/** Whether an engine's cartridge has an agreement table with noun classes. */
function hasNounClasses(engine: LanguageEngine): boolean {
  return engine.cartridge.agreement?.rows.some((r) => r.class !== undefined) ?? false;
}

/**
 * A language's noun classes from its agreement table (number, prefix, concords, source) and,
 * where the cartridge has a noun grammar, its sub-classes with up to three example nouns from
 * the lexicon. A language without noun classes fails on `language`, listing those that have them.
 */
export function nounClasses(morphology: MorphologyService, language: string): Result<NounClasses> {
  const engine = engineFor(morphology, language);
  if (!engine.ok) return engine;
  const cartridge = engine.value.cartridge;
  const agreement = cartridge.agreement;
  const rows = agreement?.rows.filter((r) => r.class !== undefined) ?? [];
  if (!agreement || rows.length === 0) {
    return fail('invalid_parameter', `the ${cartridge.metadata.name} cartridge has no noun-class agreement table yet; noun classes exist for the languages in \`allowed\``, {
      parameter: 'language',
      allowed: morphology
        .languages()
        .map((l) => l.iso)
        .filter((iso) => {
          const other = morphology.engine(iso);
          return other.ok && hasNounClasses(other.value);
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
}

export const slotMorphemeSchema = z.object({
  slot: z.string().describe('Slot of the verb template: pre_initial, subject, negation, tam, object, root, extensions, fv, ...'),
  form: z.string(),
  id: z.string().optional().describe('What the morph realises: 1sg, c7, a tense id, negative, refl, ...'),
});

export const decompositionSchema = z.object({
  form: z.string(),
  language: z.string(),
  decompositions: z.array(
    z.object({
      lemma: z.string(),
      root: z.string(),
      in_lexicon: z.boolean(),
      gloss: z.string().nullable(),
      segmentation: z.string().describe('The morphemes joined with hyphens, words separated by a space.'),
      words: z.array(z.object({ surface: z.string(), morphemes: z.array(slotMorphemeSchema) })),
      score: z.number(),
    }),
  ),
});
export type Decomposition = z.infer<typeof decompositionSchema>;

/** A word split into its morphemes in template order, one decomposition per analysis (most plausible first); none when it has no analysis. */
export function decompose(morphology: MorphologyService, form: string, language: string): Result<Decomposition> {
  const engine = engineFor(morphology, language);
  if (!engine.ok) return engine;
  return decomposition(form, engine.value.iso, morphology.analyze(form, engine.value.iso));
}

/** `decompose` for a request path: the same decompositions, the analysis run in slices that yield to the event loop (MorphologyService.analyzeInSlices). */
export async function decomposeInSlices(morphology: MorphologyService, form: string, language: string): Promise<Result<Decomposition>> {
  const engine = engineFor(morphology, language);
  if (!engine.ok) return engine;
  return decomposition(form, engine.value.iso, await morphology.analyzeInSlices(form, engine.value.iso));
}

function decomposition(form: string, iso: string, analysed: Result<AnalysisView[]>): Result<Decomposition> {
  if (!analysed.ok) return analysed;
  return ok({
    form,
    language: iso,
    decompositions: analysed.value.map((a) => {
      const words = a.words.map((w) => ({
        surface: w.surface,
        morphemes: Object.entries(w.slots).map(([slot, m]) => ({ slot, form: m.form, ...(m.id ? { id: m.id } : {}) })),
      }));
      return {
        lemma: a.lemma,
        root: a.root,
        in_lexicon: a.in_lexicon,
        gloss: a.gloss,
        segmentation: words
          .map((w) =>
            w.morphemes
              .map((m) => m.form)
              .filter(Boolean)
              .join('-'),
          )
          .join(' '),
        words,
        score: a.score,
      };
    }),
  });
}
