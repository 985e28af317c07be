// A short, seeded fuzz run over every route the OpenAPI description declares: no 5xx, every
// error problem+json with a documented code, nothing secret in any response. The long run is
// bench/fuzz.ts; reproduce a failure with LUGHA_FUZZ_SEED and LUGHA_FUZZ_REQUESTS.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fuzzStack, runFuzz, type FuzzStack } from './fuzz-harness.js';

const SEED = Number(process.env.LUGHA_FUZZ_SEED ?? 20261122);
const REQUESTS = Number(process.env.LUGHA_FUZZ_REQUESTS ?? 4000);

describe('request fuzzing', () => {
  let stack: FuzzStack;
  before(async () => {
    stack = await fuzzStack();
  });
  after(() => stack.close());

  it(`survives ${REQUESTS} generated requests (seed ${SEED})`, async () => {
    const run = await runFuzz(stack, SEED, REQUESTS);
    assert.equal(run.requests, REQUESTS);
    const report = run.failures.slice(0, 5).map((f) => `#${f.index} ${f.request.method} ${f.request.url.slice(0, 200)} -> ${f.status}: ${f.problems.join('; ')}`);
    assert.deepEqual(report, [], `${run.failures.length} bad responses (seed ${SEED})`);
    for (const target of stack.targets) {
      const key = `${target.method} ${target.path}`;
      assert.ok((run.perTarget.get(key) ?? 0) >= 20, `${key} was reached only ${run.perTarget.get(key) ?? 0} times`);
    }
    const ok = [...run.statuses].filter(([s]) => s < 300).reduce((n, [, c]) => n + c, 0);
    assert.ok(ok > REQUESTS * 0.15, `only ${ok} of ${REQUESTS} requests succeeded: the fuzzer no longer reaches the handlers`);
  });

  it('generates the same requests for the same seed', async () => {
    const { prng, buildRequest } = await import('./fuzzer.js');
    const a = prng(7);
    const b = prng(7);
    for (let i = 0; i < 200; i++) assert.deepEqual(buildRequest(a, stack.targets, stack.vocab), buildRequest(b, stack.targets, stack.vocab));
  });
});
