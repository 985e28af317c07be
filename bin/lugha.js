#!/usr/bin/env node
// Entry point of the `lugha` command; runs the compiled TypeScript in dist/.
import { existsSync } from 'node:fs';

const entry = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('lugha: dist/ is missing; run `npm ci` (or `npm run build`) in the repository first\n');
  process.exit(1);
}
const { main } = await import(entry.href);
const code = await main(process.argv);
// exitCode, not exit(): `serve` keeps the process alive with its server.
process.exitCode = code;
