// Runs every bench/*.ts (except shared helpers) in turn, then prints one combined table of
// every benchmark's rows (benchmark, figure, Lugha, baseline of the same run, ratio) and writes
// it to .bench-out/. Each benchmark hands its rows over by appending JSON lines to the file
// named by BENCH_REPORT_FILE (bench/lib.ts `report`); run alone, a benchmark only prints.
//
//   npm run bench [-- --quick | --long] [-- --only metered-route,soak] [-- --seconds N --connections N]
//
// Three sizes. The default fits a 10-minute budget on a 2-core machine (BUDGET below: the sizes each
// benchmark gets and the seconds it is expected to take; docs/benchmarks.md has the table). --quick:
// short runs, a few minutes. --long: every benchmark on its own defaults (10 s loads, 100,000 HTTP fuzz
// requests + 20,000 MCP tool calls, 1,000,000 words through the grammar and table transducers, a 3-minute soak with a 1-minute baseline,
// 500 words to APy ...), for a bigger machine or a longer look. --only: a comma-separated list of
// benchmark names. Every other argument goes to each benchmark and wins over the size's argument of the
// same name; the fuzz sizes come from LUGHA_FUZZ_REQUESTS and LUGHA_MCP_FUZZ_CALLS when set.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';

const argv = process.argv.slice(2);
const quick = argv.includes('--quick');
const long = argv.includes('--long');
if (quick && long) {
  process.stderr.write('run-bench: --quick and --long exclude each other\n');
  process.exit(2);
}
const size = quick ? 'quick' : long ? 'long' : 'default';
let only = null;
const passed = [];
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--quick' || argv[i] === '--long') continue;
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

/**
 * The 10-minute budget of the default size: per benchmark, the arguments (and fuzz environment) it
 * gets and the seconds it is expected to take on a quiet 2-core machine (estimated from the quick
 * run at load average ~2, scaled to these sizes; docs/benchmarks.md has the table). The runner
 * prints each benchmark's time against its budget; it stops nothing.
 */
const BUDGET = {
  apertium: { seconds: 50, args: ['--words', '100'] },
  'audio-proxy': { seconds: 30, args: ['--seconds', '5'] },
  // 100,000 in all; bench/fuzz.ts runs the two parts at once, one process each.
  fuzz: { seconds: 100, env: { LUGHA_FUZZ_REQUESTS: '60000', LUGHA_MCP_FUZZ_CALLS: '40000' } },
  // The grammar transducers (what the service serves): about 4,000 words/s in each tool with the guesser's readings, 15-40 ms a generated form.
  hfst: { seconds: 85, args: ['--kind', 'grammar', '--words', '60000', '--generate-words', '200'] },
  mcp: { seconds: 25, args: ['--calls', '1000'] },
  'metered-route': { seconds: 30, args: ['--seconds', '5'] },
  morphology: { seconds: 50, args: ['--seconds', '5'] },
  'scale-out': { seconds: 30, args: ['--seconds', '5'] },
  soak: { seconds: 190, args: ['--minutes', '2.5', '--warmup-seconds', '45', '--baseline-seconds', '30'] },
  tone: { seconds: 20, args: ['--seconds', '5'] },
  // Learnt text analyser: 5 s on the training text's words, 5 s of the engine baseline, 3 s of unseen words, load.
  'text-analysis': { seconds: 30, args: ['--seconds', '5'] },
};
const QUICK = {
  apertium: { args: ['--words', '30'] },
  'audio-proxy': { args: ['--seconds', '2'] },
  fuzz: { env: { LUGHA_FUZZ_REQUESTS: '10000', LUGHA_MCP_FUZZ_CALLS: '2000' } },
  hfst: { args: ['--kind', 'grammar', '--words', '5000', '--generate-words', '20'] },
  mcp: { args: ['--calls', '300'] },
  'metered-route': { args: ['--seconds', '2'] },
  morphology: { args: ['--seconds', '2'] },
  'scale-out': { args: ['--seconds', '2'] },
  soak: { args: ['--minutes', '1', '--warmup-seconds', '20', '--baseline-seconds', '20'] },
  tone: { args: ['--seconds', '2'] },
  'text-analysis': { args: ['--seconds', '2'] },
};

/** The size's arguments for one benchmark, less those given explicitly (an explicit argument wins). */
function sizeArgs(name) {
  const spec = size === 'quick' ? QUICK[name] : size === 'default' ? BUDGET[name] : undefined;
  const args = spec?.args ?? [];
  const out = [];
  for (let i = 0; i < args.length; i += 2) if (!has(args[i])) out.push(args[i], args[i + 1]);
  return out;
}
function sizeEnv(name) {
  const spec = size === 'quick' ? QUICK[name] : size === 'default' ? BUDGET[name] : undefined;
  const env = {};
  for (const [k, v] of Object.entries(spec?.env ?? {})) env[k] = process.env[k] ?? v;
  return env;
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
/** The 1-minute load average, sampled when each benchmark starts and ends (other work on the machine shows here). */
const loads = [loadavg()[0]];
for (const file of files) {
  const name = path.basename(file, '.ts');
  const args = ['--import', 'tsx', `bench/${file}`, ...passed, ...sizeArgs(name)];
  const env = sizeEnv(name);
  const envText = Object.entries(env)
    .map(([k, v]) => `${k}=${v} `)
    .join('');
  process.stdout.write(`\n=== ${name}: ${envText}node ${args.join(' ')}\n`);
  const started = Date.now();
  const result = spawnSync(process.execPath, args, { stdio: 'inherit', env: { ...process.env, ...env, BENCH_REPORT_FILE: reportFile } });
  runs.push({ name, status: result.status ?? (result.signal ? `signal ${result.signal}` : 'unknown'), seconds: (Date.now() - started) / 1000, budget: size === 'default' ? (BUDGET[name]?.seconds ?? null) : null });
  loads.push(loadavg()[0]);
}
const suiteSeconds = (Date.now() - suiteStarted) / 1000;
const budgetSeconds = runs.reduce((sum, r) => sum + (r.budget ?? 0), 0);

let rows = [];
try {
  rows = readFileSync(reportFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
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
const mode = `${size} run${passed.length ? ` (${passed.join(' ')})` : ''}`;
const durations = runs.map((r) => `${r.name} ${Math.round(r.seconds)} s${r.budget ? ` of ${r.budget}` : ''}`).join(', ');
const meanLoad = loads.reduce((a, b) => a + b, 0) / loads.length;
const machine = `${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), Node.js ${process.versions.node}; 1-minute load average ${meanLoad.toFixed(1)} (${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}) sampled ${loads.length} times, at the start and after each benchmark`;
const suiteLine = `suite: ${Math.round(suiteSeconds)} s${budgetSeconds ? ` (budget ${budgetSeconds} s)` : ''}; ${durations}`;
const text = [
  `Combined benchmark table, ${when}, ${mode}; ratio = Lugha / baseline, both measured in this run`,
  line(header),
  line(widths.map((w) => '-'.repeat(w))),
  ...table.map(line),
  suiteLine,
  `machine: ${machine}`,
].join('\n');
process.stdout.write(`\n${text}\n`);

const markdown = [
  `<!-- ${when}, ${mode} -->`,
  `| ${header.join(' | ')} |`,
  `|${header.map((_, i) => (i < 2 ? '---' : '---:')).join('|')}|`,
  ...table.map((row) => `| ${row.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`),
  '',
  `${suiteLine[0].toUpperCase()}${suiteLine.slice(1)}.`,
  '',
  `Machine: ${machine}.`,
  '',
].join('\n');
writeFileSync(path.join(outDir, 'bench-table.txt'), `${text}\n`);
writeFileSync(path.join(outDir, 'bench-table.md'), markdown);
writeFileSync(path.join(outDir, 'bench-results.json'), `${JSON.stringify({ when, size, args: passed, suiteSeconds, budgetSeconds, loads, machine, runs, rows }, null, 2)}\n`);
process.stdout.write(`written: ${outDir}/bench-table.txt, ${outDir}/bench-table.md, ${outDir}/bench-results.json\n`);
process.exit(runs.every((r) => r.status === 0) ? 0 : 1);
