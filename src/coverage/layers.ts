/**
 * The declared layer stack of the product and its architecture rules. Every rule that
 * can be checked names the test that enforces it; test/os-rules.test.ts checks that each
 * named test exists, so a rule cannot point at nothing.
 */

import { z } from 'zod';

/** One layer, top (edge) to bottom (store); GET /api/os/layers serves the list with this schema. */
export const layerSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  // Where it lives in the repository.
  paths: z.array(z.string()),
  // Layers it may call.
  uses: z.array(z.string()),
});
export type Layer = z.infer<typeof layerSchema>;

/** One architecture rule and the test that enforces it (null: a convention no test can check). */
export const architectureRuleSchema = z.object({
  id: z.string(),
  rule: z.string(),
  enforced_by: z.object({ file: z.string(), test: z.string() }).nullable().describe('The test that fails when the rule is broken.'),
});
export type ArchitectureRule = z.infer<typeof architectureRuleSchema>;

/**
 * Every source file belongs to the layer whose path is the longest prefix of its own
 * (test/os-rules.test.ts checks that each file has one and imports only its own layer and
 * the layers it `uses`).
 */
export const LAYERS: Layer[] = [
  {
    id: 'edge',
    name: 'Edges: HTTP, MCP and CLI',
    description: 'Thin adapters: validate input with zod schemas, call a service, shape the answer (envelope, problem+json, MCP result).',
    paths: ['src/http/', 'src/mcp/', 'src/cli/', 'web/'],
    uses: ['services', 'engine', 'cartridges', 'store', 'shared'],
  },
  {
    id: 'services',
    name: 'Services',
    description: 'Keys, tiers and quotas; the audio corpus and its ingestion; the morphology, lexicon, tone, numeral, text and HFST services; coverage and status; the cartridge check. Composed once in src/services.ts.',
    paths: [
      'src/services.ts',
      'src/demo.ts',
      'src/access/',
      'src/batch-generation.ts',
      'src/lexicon-service.ts',
      'src/audio/api.ts',
      'src/audio/audio-service.ts',
      'src/audio/ingest.ts',
      'src/audio/demo-corpus.ts',
      'src/morphology/service.ts',
      'src/tone/service.ts',
      'src/numerals/service.ts',
      'src/text/service.ts',
      'src/hfst/service.ts',
      'src/hfst/build.ts',
      'src/coverage/',
      'src/cartridge/check.ts',
    ],
    uses: ['engine', 'cartridges', 'store', 'shared'],
  },
  {
    id: 'engine',
    name: 'Engine',
    description:
      'Generic morphology, phonology and syllabification, tone, numerals, text analysis (tokeniser, learnt analyser, ranker), the HFST runtime and cartridge export, audio probing and switch points, the golden runner: every language fact comes from a cartridge.',
    paths: ['src/morphology/', 'src/tone/', 'src/numerals/', 'src/text/', 'src/hfst/', 'src/audio/', 'src/cartridge/golden.ts', 'src/cartridge/json-schema.ts'],
    uses: ['cartridges', 'shared'],
  },
  {
    id: 'cartridges',
    name: 'Language cartridges',
    description: 'One folder per language: YAML and TSV data with a source for every fact, golden tests beside it; the format (loader and file schemas, JSON Schemas for editors) in src/cartridge/.',
    paths: ['languages/', 'reference/', 'src/cartridge/'],
    uses: ['shared'],
  },
  {
    id: 'store',
    name: 'Store',
    description: 'Database (SQLite or PostgreSQL behind one interface) and blob storage; never exposed by name or path.',
    paths: ['src/store/', 'src/audio/blob-store.ts', 'src/audio/fs-blob-store.ts', 'src/audio/s3-blob-store.ts'],
    uses: ['shared'],
  },
  {
    id: 'shared',
    name: 'Shared definitions',
    description: 'Configuration, the error catalogue, Result, the clock, file digests, work in steps, language codes, the tiers and their limits, and the API schemas that every layer may read.',
    paths: [
      'src/config.ts',
      'src/errors.ts',
      'src/result.ts',
      'src/access/plans.ts',
      'src/clock.ts',
      'src/file-digest.ts',
      'src/steps.ts',
      'src/language-codes.ts',
      'src/word-text.ts',
      'src/morphology-api.ts',
      'src/tone/api.ts',
      'src/text/api.ts',
    ],
    uses: [],
  },
];

/** The layer of a repository path: the one whose path is its longest prefix (undefined when none). */
export function layerOf(file: string): Layer | undefined {
  let best: { layer: Layer; length: number } | undefined;
  for (const layer of LAYERS) {
    for (const p of layer.paths) {
      if ((file === p || (p.endsWith('/') && file.startsWith(p))) && (!best || p.length > best.length)) best = { layer, length: p.length };
    }
  }
  return best?.layer;
}

const RULES_TEST = 'test/os-rules.test.ts';

export const ARCHITECTURE_RULES: ArchitectureRule[] = [
  {
    id: 'no-language-in-src',
    rule: 'The engine is generic: no file under src/ names an installed language code or language name.',
    enforced_by: { file: 'test/morphology-engine.test.ts', test: 'no file under src/ has an installed ISO code as a quoted string, or an installed language name' },
  },
  {
    id: 'cartridges-are-data',
    rule: 'A cartridge is data only: languages/<iso>/ holds YAML, TSV and Markdown files, and its folder name is its ISO 639-3 code.',
    enforced_by: { file: RULES_TEST, test: 'cartridges hold data files only, in folders named by their ISO 639-3 code' },
  },
  {
    id: 'routes-use-services',
    rule: 'HTTP routes reach storage only through services: no route imports a store implementation or a database driver.',
    enforced_by: { file: RULES_TEST, test: 'no route imports a store implementation or a database driver' },
  },
  {
    id: 'engine-below-edges',
    rule: 'The morphology engine imports no edge, store or audio module: it depends on cartridges only.',
    enforced_by: { file: RULES_TEST, test: 'the engine imports no edge, store or audio module' },
  },
  {
    id: 'layers-import-down',
    rule: 'Every source file under src/ belongs to one layer and imports (at run time) only its own layer and the layers it uses; the few known exceptions are listed in the test, each with its reason, and must shrink.',
    enforced_by: { file: RULES_TEST, test: 'every source file belongs to one layer and imports only the layers it uses' },
  },
  {
    id: 'config-reads-env',
    rule: 'Only src/config.ts reads the environment.',
    enforced_by: { file: RULES_TEST, test: 'only src/config.ts reads the environment variables' },
  },
  {
    id: 'no-storage-path-in-status',
    rule: 'The status API names storage by kind and health only: no data directory, path or bucket in any /api/os response.',
    enforced_by: { file: RULES_TEST, test: 'no /api/os response carries the data directory, the cartridges folder or a bucket' },
  },
  {
    id: 'status-is-read-only',
    rule: 'The product status API is public and read-only: GET (and HEAD) only, no key needed.',
    enforced_by: { file: RULES_TEST, test: 'every /api/os route answers GET without a key and refuses writes' },
  },
  {
    id: 'coverage-is-computed',
    rule: 'Coverage is computed from the cartridge files and golden tests, never typed in: adding or removing a part changes it.',
    enforced_by: { file: 'test/coverage.test.ts', test: 'adding a part to a cartridge changes its computed coverage' },
  },
  {
    id: 'errors-catalogued',
    rule: 'Every error code is in the one catalogue (src/errors.ts) and documented in docs/errors.md.',
    enforced_by: { file: 'test/http-errors.test.ts', test: 'documents every code in docs/errors.md, and nothing else' },
  },
  {
    id: 'facts-have-sources',
    rule: 'Every cartridge cites its sources, and every phonology file cites a declared source wherever it names one.',
    enforced_by: { file: RULES_TEST, test: 'every cartridge declares at least one source' },
  },
];
