/**
 * JSON Schemas of the cartridge files, generated from the zod schemas the loader validates with,
 * for editors (languages/schema/<file>.schema.json; docs/adding-a-language.md shows how to point
 * an editor at them). `npm run schemas` writes them; test/cartridge-schema.test.ts checks that the
 * files in the repository are what the schemas give.
 */
import { z } from 'zod';
import { phonologyObjectSchema } from '../morphology/phonology.js';
import { CARTRIDGE_YAML_SCHEMAS } from './cartridge.js';
import { lexiconRowSchema } from './lexicon.js';

/** Where the schemas live, relative to the package root. */
export const SCHEMA_DIR = 'languages/schema';

const schemas: Record<string, z.ZodType> = {
  ...CARTRIDGE_YAML_SCHEMAS,
  'phonology.yaml': phonologyObjectSchema,
  'lexicon.tsv': lexiconRowSchema,
};

/** The file name of the JSON Schema of a cartridge file: verbs.yaml -> verbs.schema.json; lexicon.tsv -> lexicon-row.schema.json (one row). */
export function schemaFileName(cartridgeFile: string): string {
  return cartridgeFile === 'lexicon.tsv' ? 'lexicon-row.schema.json' : cartridgeFile.replace(/\.yaml$/, '.schema.json');
}

/** Every JSON Schema, by its file name, as the text written to languages/schema/. */
export function cartridgeJsonSchemas(): Map<string, string> {
  const out = new Map<string, string>();
  for (const [file, schema] of Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))) {
    const json = z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12', unrepresentable: 'any' });
    const title = file === 'lexicon.tsv' ? 'One row of a Lugha cartridge lexicon.tsv (every cell a string; empty = not given)' : `Lugha cartridge ${file}`;
    out.set(schemaFileName(file), `${JSON.stringify({ $schema: json.$schema, title, description: 'Generated from the zod schemas of src/cartridge/ by npm run schemas; see docs/cartridges.md.', ...json }, null, 2)}\n`);
  }
  return out;
}
