#!/usr/bin/env node
/**
 * The top frames of a `node --cpu-prof` profile by self time, in per cent of the busy samples
 * (idle, program and the collector listed apart), optionally over its last seconds only (a load
 * that ended when the process stopped), with each frame's inclusive share.
 *
 *   node scripts/cpuprofile-top.mjs <file.cpuprofile> [--last-seconds 5] [--top 25]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { 'last-seconds': { type: 'string' }, top: { type: 'string', default: '25' } } });
if (positionals.length !== 1) {
  process.stderr.write('usage: node scripts/cpuprofile-top.mjs <file.cpuprofile> [--last-seconds 5] [--top 25]\n');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(positionals[0], 'utf8'));
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

const name = (node) => {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url ? url.replace(/^.*\/(node_modules\/)?/, '') : '';
  return `${functionName || '(anonymous)'}${file ? ` ${file}:${lineNumber + 1}` : ''}`;
};

// Sample times: deltas from startTime, in microseconds.
const times = [];
let t = profile.startTime;
for (const delta of profile.timeDeltas) times.push((t += delta));
const from = values['last-seconds'] === undefined ? -Infinity : profile.endTime - Number(values['last-seconds']) * 1e6;

const self = new Map();
const inclusive = new Map();
let busy = 0;
const apart = { '(idle)': 0, '(program)': 0, '(garbage collector)': 0 };
profile.samples.forEach((id, i) => {
  if (times[i] < from) return;
  const node = nodes.get(id);
  const fn = node.callFrame.functionName;
  if (fn === '(idle)') return void apart['(idle)']++;
  busy++;
  if (fn in apart) apart[fn]++;
  const key = name(node);
  self.set(key, (self.get(key) ?? 0) + 1);
  const seen = new Set();
  for (let at = id; at !== undefined; at = parent.get(at)) {
    const k = name(nodes.get(at));
    if (seen.has(k)) continue;
    seen.add(k);
    inclusive.set(k, (inclusive.get(k) ?? 0) + 1);
  }
});

const pct = (n) => ((100 * n) / busy).toFixed(1).padStart(5);
process.stdout.write(`busy samples ${busy}, idle ${apart['(idle)']} (${((100 * apart['(idle)']) / (busy + apart['(idle)'])).toFixed(1)}% of all); self % of busy, inclusive % of busy\n`);
for (const [key, n] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top))) process.stdout.write(`${pct(n)} ${pct(inclusive.get(key) ?? n)}  ${key}\n`);
