/**
 * One example (and, where the shared REST schema has none, a description) for every
 * argument of every tool, written for a model. The REST schemas are shared with the
 * OpenAPI description, so what only a model needs is added here, to the JSON Schema
 * the tool list advertises, and `test/mcp-tools.test.ts` fails when an argument of a
 * tool has no description or no example.
 */
type ArgumentDoc = { example: unknown; description?: string };

/**
 * The languages the examples use, written here once: this file and language-codes.ts are the only
 * files under src/ that spell a language code (test/morphology-engine.test.ts), as example values a
 * model reads, never a branch.
 */
export const EXAMPLE_LANGUAGE = 'swh';
const EXAMPLE_TONE_LANGUAGE = 'sna';
const EXAMPLE_PAIRS_LANGUAGE = 'zul';

export const argumentDocs: Readonly<Record<string, Readonly<Record<string, ArgumentDoc>>>> = {
  get_paradigm: { root: { example: 'penda' }, tenses: { example: ['present', 'past'] }, subjects: { example: ['1sg', '3pl'] } },
  analyze_form: {
    form: { example: 'hatutawapenda' },
    text: { example: 'Watu wote wamezaliwa huru.' },
    language: { example: EXAMPLE_LANGUAGE },
    all: { example: true },
    from_token: { example: 40 },
    max_tokens: { example: 100 },
  },
  decompose_morphemes: { form: { example: 'wanapenda' } },
  syllabify: { word: { example: "ng'ombe" } },
  get_tonal_analysis: {
    language: { example: EXAMPLE_LANGUAGE, description: 'Language code (ISO 639-3, 639-1 or macrolanguage); a language with tone data gives tones.' },
    root: { example: 'penda', description: 'Verb root, as for conjugate_verb.' },
    tense: { example: 'future', description: 'Tense id of the language (get_language_info lists them).' },
    subject: { example: '1sg', description: 'Subject: a person (1sg..3pl) or a noun class (c1..c18).' },
    object: { example: 'c7', description: 'Object marker: a person, a noun class or refl.' },
    polarity: { example: 'negative', description: 'positive (default) or negative.' },
  },
  list_languages: { capability: { example: 'tones' } },
  get_tonal_pairs: { language: { example: EXAMPLE_TONE_LANGUAGE }, limit: { example: 20 } },
  predict_tones: {
    language: { example: EXAMPLE_TONE_LANGUAGE, description: 'Language code of a language with tone data (list_languages with capability tones).' },
    word: { example: 'mbira' },
    root: { example: 'tamba' },
    tense: { example: 'past', description: 'With `root`: the tense of the conjugated form whose tones to predict.' },
    subject: { example: '1sg', description: 'With `root`: the subject of the conjugated form.' },
    object: { example: 'c7', description: 'With `root`: the object marker of the conjugated form.' },
    polarity: { example: 'negative', description: 'With `root`: positive (default) or negative.' },
  },
  get_minimal_pairs: {
    language: { example: EXAMPLE_PAIRS_LANGUAGE, description: 'Only pairs of this language (default: every language with tone data).' },
    kind: { example: 'tone', description: 'tone: the words differ in one tone only; segment: in one segment only (default: both).' },
    contains: { example: 'ba' },
    gloss: { example: 'water' },
    limit: { example: 20, description: 'Most pairs to return.' },
  },
  hfst_analyze: {
    model: { example: 'lugha-swh-verbs-analyser' },
    language: { example: EXAMPLE_LANGUAGE },
    inputs: { example: ['wanapenda', 'nilisoma'] },
    n_best: { example: 5 },
    beam: { example: 2 },
    unique: { example: true },
    fallback: { example: false },
  },
  hfst_generate: {
    model: { example: 'lugha-swh-verbs-generator' },
    language: { example: EXAMPLE_LANGUAGE },
    inputs: { example: ['penda+V+T/present+S/1sg'] },
    n_best: { example: 5 },
    beam: { example: 2 },
    unique: { example: true },
    fallback: { example: false },
  },
  search_roots: { query: { example: 'pend' }, word_class: { example: 'verb' }, limit: { example: 20 } },
  validate_form: { form: { example: 'ninapenda' } },
  spell_number: { language: { example: EXAMPLE_LANGUAGE }, number: { example: '2025' }, class: { example: 'c8' } },
};

/** `json` (a tool's input JSON Schema) with the examples and missing descriptions of `tool` added; a new object, `json` is left as is. */
export function withArgumentDocs(tool: string, json: Record<string, unknown>): Record<string, unknown> {
  const docs = argumentDocs[tool];
  const properties = json.properties as Record<string, Record<string, unknown>> | undefined;
  if (!docs || !properties) return json;
  const annotated: Record<string, Record<string, unknown>> = {};
  for (const [name, schema] of Object.entries(properties)) {
    const doc = docs[name];
    if (!doc) {
      annotated[name] = schema;
      continue;
    }
    const base = typeof schema.description === 'string' ? schema.description : (doc.description ?? '');
    const description = /Example/.test(base) ? base : `${base}${base && !/[.!?]$/.test(base) ? '.' : ''}${base ? ' ' : ''}Example: ${JSON.stringify(doc.example).replace(/^"(.*)"$/, '$1')}`;
    annotated[name] = { ...schema, description, examples: [doc.example] };
  }
  return { ...json, properties: annotated };
}
