/**
 * The declared layer stack of the product and its architecture rules. Every rule that
 * can be checked names the test that enforces it; test/os-rules.test.ts checks that each
 * named test exists, so a rule cannot point at nothing.
 */

/** One layer, top (edge) to bottom (store). */
export interface Layer {
  id: string;
  name: string;
  description: string;
  /** Where it lives in the repository. */
  paths: string[];
  /** Layers it may call. */
  uses: string[];
}

/** One architecture rule and the test that enforces it (null: a convention no test can check). */
export interface ArchitectureRule {
  id: string;
  rule: string;
  enforced_by: { file: string; test: string } | null;
}

export const LAYERS: Layer[] = [
  {
    id: 'edge',
    name: 'Edges: HTTP, MCP and CLI',
    description: 'Thin adapters: validate input with zod schemas, call a service, shape the answer (envelope, problem+json, MCP result).',
    paths: ['src/http/', 'src/mcp/', 'src/cli/'],
    uses: ['services'],
  },
  {
    id: 'services',
    name: 'Services',
    description: 'Keys, tiers and quotas; the audio corpus; the morphology service; coverage and status. Composed once in src/services.ts.',
    paths: ['src/services.ts', 'src/access/', 'src/audio/audio-service.ts', 'src/morphology/service.ts', 'src/coverage/'],
    uses: ['engine', 'cartridges', 'store'],
  },
  {
    id: 'engine',
    name: 'Engine',
    description: 'Generic morphology, phonology and syllabification: every language fact comes from a cartridge.',
    paths: ['src/morphology/'],
    uses: ['cartridges'],
  },
  {
    id: 'cartridges',
    name: 'Language cartridges',
    description: 'One folder per language: YAML and TSV data with a source for every fact, golden tests beside it.',
    paths: ['languages/', 'reference/'],
    uses: [],
  },
  {
    id: 'store',
    name: 'Store',
    description: 'Database (SQLite or PostgreSQL behind one interface) and blob storage; never exposed by name or path.',
    paths: ['src/store/', 'src/audio/fs-blob-store.ts'],
    uses: [],
  },
];

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
    rule: 'The engine imports no edge, store or audio module: it depends on cartridges only.',
    enforced_by: { file: RULES_TEST, test: 'the engine imports no edge, store or audio module' },
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
