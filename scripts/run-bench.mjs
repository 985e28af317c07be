// Runs every bench/*.ts (except shared helpers) in turn; extra arguments go to each benchmark.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const files = readdirSync('bench').filter((f) => f.endsWith('.ts') && f !== 'lib.ts').sort();
let failed = 0;
for (const file of files) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', `bench/${file}`, ...process.argv.slice(2)], { stdio: 'inherit' });
  if (result.status !== 0) failed++;
}
process.exit(failed === 0 ? 0 : 1);
