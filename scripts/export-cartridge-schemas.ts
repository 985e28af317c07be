// Writes languages/schema/*.schema.json from the cartridge's zod schemas (src/cartridge/json-schema.ts).
// Usage: npm run schemas            (write)
//        npm run schemas -- --check (exit 1, naming the stale files, when they differ)
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { cartridgeJsonSchemas, SCHEMA_DIR } from '../src/cartridge/json-schema.js';
import { packageRoot } from '../src/config.js';

const dir = path.join(packageRoot, SCHEMA_DIR);
const schemas = cartridgeJsonSchemas();
const existing = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.schema.json')) : [];
if (process.argv.includes('--check')) {
  const stale = [...schemas].filter(([file, text]) => !existsSync(path.join(dir, file)) || readFileSync(path.join(dir, file), 'utf8') !== text).map(([file]) => file);
  const extra = existing.filter((f) => !schemas.has(f));
  if (stale.length + extra.length > 0) {
    console.error(`${SCHEMA_DIR}: out of date (${[...stale, ...extra].join(', ')}); run npm run schemas`);
    process.exit(1);
  }
  console.log(`${SCHEMA_DIR}: ${schemas.size} schemas up to date`);
} else {
  mkdirSync(dir, { recursive: true });
  for (const file of existing.filter((f) => !schemas.has(f))) rmSync(path.join(dir, file));
  for (const [file, text] of schemas) writeFileSync(path.join(dir, file), text);
  console.log(`${SCHEMA_DIR}: wrote ${schemas.size} schemas`);
}
