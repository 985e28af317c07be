// The JSON Schemas of the cartridge files in languages/schema/ are what the zod schemas give (so an
// editor checks a cartridge as the loader does), one per file of docs/cartridges.md, and the schema
// folder holds nothing else.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { CARTRIDGE_FILES } from '../src/cartridge/check.js';
import { cartridgeJsonSchemas, SCHEMA_DIR, schemaFileName } from '../src/cartridge/json-schema.js';
import { packageRoot } from '../src/config.js';

const dir = path.join(packageRoot, SCHEMA_DIR);

describe('cartridge JSON Schemas', () => {
  const generated = cartridgeJsonSchemas();
  it('has one schema per cartridge file, and the folder nothing else', () => {
    assert.deepEqual([...generated.keys()].sort(), CARTRIDGE_FILES.map(schemaFileName).sort());
    assert.deepEqual(readdirSync(dir).sort(), [...generated.keys()].sort());
  });
  it('are up to date with the zod schemas (npm run schemas writes them)', () => {
    const stale = [...generated].filter(([file, text]) => readFileSync(path.join(dir, file), 'utf8') !== text).map(([file]) => file);
    assert.deepEqual(stale, [], 'run npm run schemas');
  });
  it('describe the fields the loader checks: required fields, enums and defaults', () => {
    const golden = JSON.parse(generated.get('golden.schema.json')!) as {
      required: string[];
      properties: { tests: { items: { required: string[]; additionalProperties: boolean; properties: { cell: { properties: Record<string, { default?: string; enum?: string[] }> } } } } };
    };
    assert.deepEqual(golden.required.sort(), ['source', 'tests']);
    const item = golden.properties.tests.items;
    assert.deepEqual(item.required.sort(), ['cell', 'form', 'lemma']);
    assert.equal(item.additionalProperties, false);
    assert.equal(item.properties.cell.properties.word_class!.default, 'verb');
    assert.deepEqual(item.properties.cell.properties.polarity!.enum, ['positive', 'negative']);
    const lexicon = JSON.parse(generated.get('lexicon-row.schema.json')!) as { required: string[] };
    assert.ok(lexicon.required.includes('source'));
  });
});
