/**
 * The long fuzz run: 100,000 seeded requests (LUGHA_FUZZ_REQUESTS, LUGHA_FUZZ_SEED) over every
 * route the OpenAPI description declares, in process. Prints throughput, the status mix and every
 * bad response (a 5xx, an error that is not problem+json with a documented code, a leak), and
 * exits 1 when there is one. test/fuzz.test.ts runs the same generator briefly in CI. Requests
 * whose URL and headers pass Node's header limit are generated but not sent here (the listening
 * server's parser answers them 431 before routing); the CI run injects them all.
 * Then 20,000 seeded MCP tool calls (LUGHA_MCP_FUZZ_CALLS; 0 skips them) through an in-process
 * client, checked as test/mcp-fuzz.test.ts checks its short run.
 * When both run, they run at once in two child processes of this script (BENCH_FUZZ_PART=http|mcp),
 * one per core on a 2-core machine; each child prints and reports its own rows, and this process
 * exits 1 if either found a bad response.
 * Each part first runs the service's warm-up (what `lugha serve` does before /readyz answers 200);
 * the MCP part then makes one call from each of its clients, whose first call compiles the SDK
 * client's output-schema validators (client-side work, ~260 ms). Each part then prints the worst
 * event-loop stall it saw during the fuzz (the service's goal: at most 100 ms);
 * the fuzz includes oversized arrays, nesting thousands deep and strings past every body limit.
 */
import { spawn } from 'node:child_process';
import { maxHeaderSize } from 'node:http';
import { fileURLToPath } from 'node:url';
import { pendingSerializerSteps } from '../src/http/app.js';
import { fuzzStack, runFuzz } from '../test/fuzz-harness.js';
import { describeFailure, mcpFuzzStack, runMcpFuzz, warmClients } from '../test/mcp-fuzzer.js';
import type { Stall } from '../test/stall-watch.js';
import { report } from './lib.js';

/** The longest stall a 10 ms timer saw and what was running then (test/stall-watch.ts). */
function describeStall<T>(what: string, stall: Stall<T>, show: (item: T) => string): string {
  const flight = stall.inFlight
    .sort((a, b) => b.ranMs - a.ranMs)
    .slice(0, 4)
    .map((w) => `${show(w.item)} (${w.ranMs.toFixed(0)} ms)`);
  return (
    `  ${what}: ${stall.ms.toFixed(0)} ms, the process's CPU in it ${stall.cpuMs.toFixed(0)} ms, GC ${stall.gcMs.toFixed(0)} ms; ` + `${stall.inFlight.length} in flight, longest first: ${flight.join('; ') || 'none'}`
  );
}

const seed = Number(process.env.LUGHA_FUZZ_SEED ?? 20261122);
const part = process.env.BENCH_FUZZ_PART;
const count = part === 'mcp' ? 0 : Number(process.env.LUGHA_FUZZ_REQUESTS ?? 100_000);
// The MCP tools, through an in-process client (LUGHA_MCP_FUZZ_CALLS, default 20,000; 0 skips).
const mcpCount = part === 'http' ? 0 : Number(process.env.LUGHA_MCP_FUZZ_CALLS ?? 20_000);

if (part === undefined && count > 0 && mcpCount > 0) {
  const self = fileURLToPath(import.meta.url);
  const codes = await Promise.all(
    (['http', 'mcp'] as const).map(
      (which) =>
        new Promise<number>((resolve) => {
          const child = spawn(process.execPath, [...process.execArgv, self], { stdio: 'inherit', env: { ...process.env, BENCH_FUZZ_PART: which } });
          child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
        }),
    ),
  );
  process.exit(codes.every((c) => c === 0) ? 0 : 1);
}

let httpFailures = 0;
if (count > 0) {
  const stack = await fuzzStack();
  // The warm-up `lugha serve` runs before /readyz answers 200 (analysers, lexicon indexes, the
  // catalogue, the response serialisers): the stall measured is then that of requests after ready.
  await stack.h.services.warmAnalyzers({ steps: () => pendingSerializerSteps(stack.h.app) });
  const started = performance.now();
  // A request whose URL and headers pass Node's header limit (16 KiB unless --max-http-header-size)
  // is generated but not sent: `lugha serve`'s parser answers it 431 before routing, which inject
  // would bypass (in process, routing an 840 KB URL held the loop ~90 ms).
  const run = await runFuzz(stack, seed, count, 16, { maxHeaderSize });
  const seconds = (performance.now() - started) / 1000;
  await stack.close();

  console.log(`\nfuzz: ${run.requests} requests, seed ${seed}, ${seconds.toFixed(1)} s (${(run.requests / seconds).toFixed(0)} req/s in process)`);
  console.log(`  not sent: ${run.overHeaderLimit} over the ${maxHeaderSize}-byte header limit (a real server answers 431 before routing)`);
  console.log(
    `  statuses: ${[...run.statuses]
      .sort((a, b) => a[0] - b[0])
      .map(([s, n]) => `${s}×${n}`)
      .join(' ')}`,
  );
  const reached = stack.targets.map((t) => `${t.method} ${t.path}`).filter((k) => (run.perTarget.get(k) ?? 0) > 0).length;
  console.log(`  operations reached: ${reached} of ${stack.targets.length}`);
  console.log(`  bad responses: ${run.failures.length}`);
  console.log(
    `  worst event-loop stall: ${run.worstStallMs.toFixed(0)} ms (goal <= 100 ms); slowest request ${run.slowest.ms.toFixed(0)} ms: ${run.slowest.request?.method} ${run.slowest.request?.url.slice(0, 120)} (${run.slowest.request?.payload?.length ?? 0} B body)`,
  );
  const showRequest = (r: { method: string; url: string; payload?: string }) => `${r.method} ${r.url.slice(0, 100)} (${r.payload?.length ?? 0} B body)`;
  console.log(describeStall('longest gap between 10 ms ticks', run.worstStall, showRequest));
  console.log(describeStall('gap with the most CPU', run.busiestStall, showRequest));
  // No baseline: these rows say how much was fuzzed and what failed (NaN baseline = none).
  report(`HTTP fuzz, seed ${seed}`, [
    { figure: `HTTP fuzz, ${run.requests} requests in process`, lugha: run.requests / seconds, baseline: Number.NaN, unit: 'req/s' },
    { figure: 'HTTP fuzz, bad responses', lugha: run.failures.length, baseline: Number.NaN, unit: 'count' },
    // Baseline here = how many the OpenAPI description declares, so a ratio of 1.00 means every one was fuzzed.
    { figure: 'HTTP fuzz, operations reached of declared', lugha: reached, baseline: stack.targets.length, unit: 'count' },
    // Baseline = the goal (100 ms): a ratio above 1.00 means some request blocked the loop for longer.
    { figure: 'HTTP fuzz, worst event-loop stall', lugha: run.worstStallMs, baseline: 100, unit: 'ms' },
    // The CPU the process used in its busiest gap: what would hold the loop on an idle machine.
    { figure: 'HTTP fuzz, most CPU in one event-loop gap', lugha: run.busiestStall.cpuMs, baseline: 100, unit: 'ms' },
  ]);
  for (const f of run.failures.slice(0, 20)) console.log(`    #${f.index} ${f.request.method} ${f.request.url.slice(0, 160)} -> ${f.status}: ${f.problems.join('; ')}`);
  httpFailures = run.failures.length;
}

let mcpFailures = 0;
if (mcpCount > 0) {
  const mcp = await mcpFuzzStack();
  // The same warm-up `lugha mcp` runs before its tools answer without waiting on a build.
  await mcp.h.services.warmAnalyzers();
  // Then one call per client: each SDK client compiles every tool's output-schema validator on its
  // first call (~260 ms in this process, client-side work), which is not a server stall.
  await warmClients(mcp.clients);
  const mcpStarted = performance.now();
  const mcpRun = await runMcpFuzz(mcp, seed, mcpCount);
  const mcpSeconds = (performance.now() - mcpStarted) / 1000;
  await mcp.close();
  mcpFailures = mcpRun.failures.length;
  console.log(`\nmcp fuzz: ${mcpRun.calls} tool calls, seed ${seed}, ${mcpSeconds.toFixed(1)} s (${(mcpRun.calls / mcpSeconds).toFixed(0)} calls/s in process)`);
  console.log(
    `  outcomes: ${[...mcpRun.outcomes]
      .sort((a, b) => b[1] - a[1])
      .map(([k, n]) => `${k}×${n}`)
      .join(' ')}`,
  );
  const toolsReached = [...mcpRun.perTool.values()].filter((n) => n > 0).length;
  console.log(`  tools reached: ${toolsReached} of ${mcp.targets.length}`);
  console.log(`  bad results: ${mcpFailures}`);
  const slow = mcpRun.slowest.call;
  console.log(
    `  worst event-loop stall (clients warmed first): ${mcpRun.worstStallMs.toFixed(0)} ms (goal <= 100 ms); slowest call ${mcpRun.slowest.ms.toFixed(0)} ms: ${slow?.tool}(${JSON.stringify(slow?.arguments ?? {}).slice(0, 160)})`,
  );
  const showCall = (c: { tool: string; arguments?: unknown }) => `${c.tool}(${JSON.stringify(c.arguments ?? {}).slice(0, 100)})`;
  console.log(describeStall('longest gap between 10 ms ticks', mcpRun.worstStall, showCall));
  console.log(describeStall('gap with the most CPU', mcpRun.busiestStall, showCall));
  report(`MCP fuzz, seed ${seed}`, [
    { figure: `MCP fuzz, ${mcpRun.calls} tool calls in process`, lugha: mcpRun.calls / mcpSeconds, baseline: Number.NaN, unit: 'calls/s' },
    { figure: 'MCP fuzz, bad results', lugha: mcpFailures, baseline: Number.NaN, unit: 'count' },
    { figure: 'MCP fuzz, tools reached of listed', lugha: toolsReached, baseline: mcp.targets.length, unit: 'count' },
    { figure: 'MCP fuzz, worst event-loop stall', lugha: mcpRun.worstStallMs, baseline: 100, unit: 'ms' },
    { figure: 'MCP fuzz, most CPU in one event-loop gap', lugha: mcpRun.busiestStall.cpuMs, baseline: 100, unit: 'ms' },
  ]);
  for (const f of mcpRun.failures.slice(0, 20)) console.log(`    ${describeFailure(f).slice(0, 400)}`);
}
process.exit(httpFailures === 0 && mcpFailures === 0 ? 0 : 1);
