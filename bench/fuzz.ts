/**
 * The long fuzz run: 100,000 seeded requests (LUGHA_FUZZ_REQUESTS, LUGHA_FUZZ_SEED) over every
 * route the OpenAPI description declares, in process. Prints throughput, the status mix and every
 * bad response (a 5xx, an error that is not problem+json with a documented code, a leak), and
 * exits 1 when there is one. test/fuzz.test.ts runs the same generator briefly in CI.
 */
import { fuzzStack, runFuzz } from '../test/fuzz-harness.js';

const seed = Number(process.env.LUGHA_FUZZ_SEED ?? 20261122);
const count = Number(process.env.LUGHA_FUZZ_REQUESTS ?? 100_000);

const stack = await fuzzStack();
// Build every analyser first, so the run measures requests rather than one cold start.
stack.h.services.morphology.warm();
const started = performance.now();
const run = await runFuzz(stack, seed, count);
const seconds = (performance.now() - started) / 1000;
await stack.close();

console.log(`\nfuzz: ${run.requests} requests, seed ${seed}, ${seconds.toFixed(1)} s (${(run.requests / seconds).toFixed(0)} req/s in process)`);
console.log(`  statuses: ${[...run.statuses].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}×${n}`).join(' ')}`);
const reached = stack.targets.map((t) => `${t.method} ${t.path}`).filter((k) => (run.perTarget.get(k) ?? 0) > 0).length;
console.log(`  operations reached: ${reached} of ${stack.targets.length}`);
console.log(`  bad responses: ${run.failures.length}`);
for (const f of run.failures.slice(0, 20)) console.log(`    #${f.index} ${f.request.method} ${f.request.url.slice(0, 160)} -> ${f.status}: ${f.problems.join('; ')}`);
process.exit(run.failures.length === 0 ? 0 : 1);
