// Runs every test/**/*.test.ts with Node's test runner, TypeScript loaded by tsx.
// (Node 20's --test takes no globs, so the files are listed here.)
// Usage: node scripts/run-tests.mjs [--times FILE] [--fast] [file-substring ...] [--except file-substring ...]
// (--times writes the seconds each test file took to FILE: scripts/test-file-times.mjs.
// --fast runs the FAST files below: `npm run test:fast`, the development loop.)
//
// Before the runner's closing summary it lists every suite and test that was skipped, with
// its reason (outside CI a missing ffmpeg, hfst, chromium, PostgreSQL or Redis skips the suites
// that need it; with CI set they fail instead: test/environment.ts). The runner's own summary
// stays the last thing printed, and its exit code is this script's.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';

function find(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return find(full);
    return e.name.endsWith('.test.ts') ? [full] : [];
  });
}

/**
 * The unit and engine tests: in-process, no server, browser, fuzzer, child process or HFST
 * compilation. `npm test` runs them with everything else.
 */
const FAST = [
  'test/cartridge.test.ts',
  'test/cartridge-schema.test.ts',
  'test/config.test.ts',
  'test/english-gloss.test.ts',
  'test/golden-analysis.test.ts',
  'test/morphology-engine.test.ts',
  'test/syllables.test.ts',
  'test/text-tokenize.test.ts',
  'test/tone-engine.test.ts',
  'test/tone-data.test.ts',
  'test/keys.test.ts',
];

const args = process.argv.slice(2);
const fastAt = args.indexOf('--fast');
if (fastAt !== -1) args.splice(fastAt, 1, ...FAST);
const timesAt = args.indexOf('--times');
const timesFile = timesAt === -1 ? undefined : args.splice(timesAt, 2)[1];
const cut = args.indexOf('--except');
const only = cut === -1 ? args : args.slice(0, cut);
const except = cut === -1 ? [] : args.slice(cut + 1);
const files = find('test')
  .filter((f) => only.length === 0 || only.some((p) => f.includes(p)))
  .filter((f) => !except.some((p) => f.includes(p)))
  .sort();
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}

const color = process.stdout.isTTY === true;
const reporters = ['--test-reporter=spec', '--test-reporter-destination=stdout'];
if (timesFile) reporters.push(`--test-reporter=${new URL('./test-file-times.mjs', import.meta.url).href}`, `--test-reporter-destination=${timesFile}`);
const child = spawn(process.execPath, ['--import', 'tsx', '--test', ...reporters, ...files], {
  stdio: ['inherit', 'pipe', 'inherit'],
  env: color ? { ...process.env, FORCE_COLOR: '1' } : process.env,
});

// The spec reporter marks a skipped test or suite `﹣ name (1.2ms) # reason` (`# SKIP` without one).
const skipped = new Map(); // reason -> names
const held = []; // the closing summary, from "ℹ tests N" on
const plain = (line) => line.replace(/\x1b\[[0-9;]*m/g, '');
createInterface({ input: child.stdout, crlfDelay: Infinity }).on('line', (line) => {
  const text = plain(line);
  const skip = /^\s*﹣ (.*) \([\d.]+m?s\) # (.*)$/.exec(text);
  if (skip) {
    const reason = skip[2] === 'SKIP' ? 'no reason given' : skip[2];
    skipped.set(reason, [...(skipped.get(reason) ?? []), skip[1]]);
  }
  if (held.length > 0 || /^ℹ tests \d+/.test(text)) held.push(line);
  else process.stdout.write(`${line}\n`);
});

const code = await new Promise((resolve) => child.on('close', (status, signal) => resolve(status ?? (signal ? 1 : 0))));
const count = [...skipped.values()].reduce((n, names) => n + names.length, 0);
if (count === 0) {
  process.stdout.write('ℹ skipped: nothing\n');
} else {
  process.stdout.write(`ℹ skipped: ${count} suite(s) or test(s), by reason (with CI set, a missing tool or server fails instead; .ci/run installs and starts them):\n`);
  for (const [reason, names] of skipped) process.stdout.write(`ℹ   ${reason}: ${names.join('; ')}\n`);
}
for (const line of held) process.stdout.write(`${line}\n`);
process.exit(code);
