// Runs every bench/*.ts (except shared helpers) in turn, then prints one combined table of
// every benchmark's rows (benchmark, figure, Lugha, baseline of the same run, ratio) and writes
// it to .bench-out/. Each benchmark hands its rows over by appending JSON lines to the file
// named by BENCH_REPORT_FILE (bench/lib.ts `report`); run alone, a benchmark only prints.
//
//   npm run bench [-- --quick] [-- --only metered-route,soak] [-- --seconds N --connections N]
//
// --quick: short runs (2 s per load, fewer words/calls/fuzz requests, a 1-minute soak) so the
// whole suite finishes in a few minutes on a 2-core machine. --only: a comma-separated list of
// benchmark names. Every other argument goes to each benchmark as before.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const argv = process.argv.slice(2);
const quick = argv.includes('--quick');
let only = null;
const passed = [];
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--quick') continue;
  if (argv[i] === '--only') {
    only = (argv[++i] ?? '').split(',').filter(Boolean);
    continue;
  }
  if (argv[i].startsWith('--only=')) {
    only = argv[i].slice('--only='.length).split(',').filter(Boolean);
    continue;
  }
  passed.push(argv[i]);
}
const has = (name) => passed.some((a) => a === name || a.startsWith(`${name}=`));

/** What --quick adds for each benchmark (an explicit argument of the same name wins). */
function quickArgs(name) {
  if (!quick) return [];
  const out = [];
  // fuzz.ts takes no options; its size comes from the environment (below).
  if (name !== 'fuzz' && !has('--seconds')) out.push('--seconds', '2');
  // hfst.ts generates with min(--words, 100,000) analyses, at a few hundred a second in hfst-optimized-lookup.
  if (name === 'hfst' && !has('--words')) out.push('--words', '5000');
  if (name === 'mcp' && !has('--calls')) out.push('--calls', '300');
  if (name === 'soak' && !has('--minutes')) out.push('--minutes', '1', '--warmup-seconds', '20', '--baseline-seconds', '20');
  return out;
}
function quickEnv(name) {
  if (!quick || name !== 'fuzz') return {};
  return {
    LUGHA_FUZZ_REQUESTS: process.env.LUGHA_FUZZ_REQUESTS ?? '10000',
    LUGHA_MCP_FUZZ_CALLS: process.env.LUGHA_MCP_FUZZ_CALLS ?? '2000',
  };
}

const outDir = '.bench-out';
mkdirSync(outDir, { recursive: true });
const reportFile = path.resolve(outDir, 'rows.jsonl');
rmSync(reportFile, { force: true });

const files = readdirSync('bench')
  .filter((f) => f.endsWith('.ts') && f !== 'lib.ts')
  .filter((f) => only === null || only.includes(path.basename(f, '.ts')))
  .sort();
const runs = [];
const suiteStarted = Date.now();
for (const file of files) {
  const name = path.basename(file, '.ts');
  const args = ['--import', 'tsx', `bench/${file}`, ...passed, ...quickArgs(name)];
  process.stdout.write(`\n=== ${name}: node ${args.join(' ')}\n`);
  const started = Date.now();
  const result = spawnSync(process.execPath, args, { stdio: 'inherit', env: { ...process.env, ...quickEnv(name), BENCH_REPORT_FILE: reportFile } });
  runs.push({ name, status: result.status ?? (result.signal ? `signal ${result.signal}` : 'unknown'), seconds: (Date.now() - started) / 1000 });
}
const suiteSeconds = (Date.now() - suiteStarted) / 1000;

let rows = [];
try {
  rows = readFileSync(reportFile, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line));
} catch {
  // no benchmark reported anything
}

const fmt = (n) => {
  if (n === null || n === undefined || Number.isNaN(n)) return '-';
  if (Number.isInteger(n) || Math.abs(n) >= 100) return Math.round(n).toLocaleString('en-US');
  if (Math.abs(n) >= 1) return n.toFixed(2);
  return n.toPrecision(2);
};
const ratio = (r) => (r.baseline === null || r.baseline === 0 || r.lugha === null ? '-' : (r.lugha / r.baseline).toFixed(2));
const header = ['benchmark', 'figure', 'Lugha', 'baseline', 'ratio'];
const table = rows.map((r) => [r.bench, `${r.figure} (${r.unit})`, fmt(r.lugha), fmt(r.baseline), ratio(r)]);
for (const run of runs) {
  if (run.status !== 0) table.push([run.name, `FAILED (exit ${run.status}); rows above, if any, are partial`, '-', '-', '-']);
  else if (!rows.some((r) => r.bench === run.name)) table.push([run.name, 'reported no rows', '-', '-', '-']);
}

const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i].length)));
const line = (cells) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
const when = new Date().toISOString();
const mode = `${quick ? 'quick' : 'full'} run${passed.length ? ` (${passed.join(' ')})` : ''}`;
const durations = runs.map((r) => `${r.name} ${Math.round(r.seconds)} s`).join(', ');
const text = [
  `Combined benchmark table, ${when}, ${mode}; ratio = Lugha / baseline, both measured in this run`,
  line(header),
  line(widths.map((w) => '-'.repeat(w))),
  ...table.map(line),
  `suite: ${Math.round(suiteSeconds)} s (${durations})`,
].join('\n');
process.stdout.write(`\n${text}\n`);

const markdown = [
  `<!-- ${when}, ${mode} -->`,
  `| ${header.join(' | ')} |`,
  `|${header.map((_, i) => (i < 2 ? '---' : '---:')).join('|')}|`,
  ...table.map((row) => `| ${row.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`),
  '',
  `Suite: ${Math.round(suiteSeconds)} s (${durations}).`,
  '',
].join('\n');
writeFileSync(path.join(outDir, 'bench-table.txt'), `${text}\n`);
writeFileSync(path.join(outDir, 'bench-table.md'), markdown);
writeFileSync(path.join(outDir, 'bench-results.json'), `${JSON.stringify({ when, quick, args: passed, suiteSeconds, runs, rows }, null, 2)}\n`);
process.stdout.write(`written: ${outDir}/bench-table.txt, ${outDir}/bench-table.md, ${outDir}/bench-results.json\n`);
process.exit(runs.every((r) => r.status === 0) ? 0 : 1);
