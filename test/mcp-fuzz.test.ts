// A short, seeded fuzz run over every MCP tool through an in-process client: no protocol-level
// error, no internal error, every failure an isError result with a documented code and a hint on
// what to fix, nothing secret in any result. The long run is bench/fuzz.ts (LUGHA_MCP_FUZZ_CALLS);
// reproduce a failure with LUGHA_FUZZ_SEED and LUGHA_MCP_FUZZ_CALLS.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildCall, describeFailure, mcpFuzzStack, mcpViolations, prng, runMcpFuzz, type McpFuzzStack } from './mcp-fuzzer.js';

const SEED = Number(process.env.LUGHA_FUZZ_SEED ?? 20261122);
const CALLS = Number(process.env.LUGHA_MCP_FUZZ_CALLS ?? 1500);

describe('MCP tool fuzzing', () => {
  let stack: McpFuzzStack;
  before(async () => {
    stack = await mcpFuzzStack();
  });
  after(() => stack.close());

  it(`survives ${CALLS} generated tool calls (seed ${SEED})`, async () => {
    const run = await runMcpFuzz(stack, SEED, CALLS);
    assert.equal(run.calls, CALLS);
    assert.deepEqual(run.failures.slice(0, 5).map(describeFailure), [], `${run.failures.length} bad results (seed ${SEED})`);
    assert.equal(stack.targets.length, 21);
    const minimum = Math.floor(CALLS / stack.targets.length / 3);
    for (const target of stack.targets) assert.ok((run.perTool.get(target.name) ?? 0) >= minimum, `${target.name} was called only ${run.perTool.get(target.name) ?? 0} times`);
    const ok = run.outcomes.get('ok') ?? 0;
    assert.ok(ok > CALLS * 0.15, `only ${ok} of ${CALLS} calls succeeded: the fuzzer no longer reaches the handlers (${JSON.stringify([...run.outcomes])})`);
    assert.ok((run.outcomes.get('validation') ?? 0) > 0 && (run.outcomes.get('invalid_parameter') ?? 0) > 0, 'both schema and handler refusals are exercised');
  });

  it('flags what a model must never see', () => {
    const call = { tool: 'spell_number', arguments: { language: 'swh' }, client: 0 };
    const codes = stack.codes;
    const check = (text: string, isError = true) => mcpViolations(call, { isError, content: [{ type: 'text', text }] }, codes, stack.secrets);
    assert.deepEqual(check('invalid_parameter: bad number\nFix the `number` argument.'), []);
    assert.match(check('internal_error: spell_number failed unexpectedly').join(), /internal error/);
    assert.match(check('invalid_parameter: bad number').join(), /without a fix hint/);
    assert.match(check('bogus_code: x\nFix the `x` argument.').join(), /undocumented code/);
    assert.match(check(`language_not_found: no file ${stack.h.dataDir}/lugha.db\nFix the \`language\` argument.`).join(), /leaks/);
    assert.match(check('Output validation error: Invalid structured content').join(), /its own schema/);
    assert.match(check('{"a":1}', false).join(), /without structured content/);
  });

  it('generates the same calls for the same seed', () => {
    const a = prng(7);
    const b = prng(7);
    // Compared as JSON: a call may nest 1,500 deep, past what deepEqual's recursion can walk.
    for (let i = 0; i < 300; i++) assert.equal(JSON.stringify(buildCall(a, stack.targets, stack.vocab, 3)), JSON.stringify(buildCall(b, stack.targets, stack.vocab, 3)));
  });
});
