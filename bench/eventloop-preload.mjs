// Bench-only preload (node --import bench/eventloop-preload.mjs ...): samples the event-loop
// delay of the process it is loaded into with perf_hooks.monitorEventLoopDelay and appends one
// JSON line every BENCH_ELD_INTERVAL_MS (default 1000) to the file named by BENCH_ELD_FILE:
// { t (ms since epoch), p50, p99, max, mean } in milliseconds, then resets the histogram.
// The histogram measures the gap between timer ticks, which includes the 10 ms sampling
// resolution itself; that is subtracted, so an idle process reports about 0.
// Used by bench/soak.ts; nothing in the product loads it.
import { appendFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const file = process.env.BENCH_ELD_FILE;
if (file) {
  const resolutionMs = 10;
  const histogram = monitorEventLoopDelay({ resolution: resolutionMs });
  histogram.enable();
  const ms = (ns) => Math.max(0, Math.round((ns / 1e6 - resolutionMs) * 100) / 100);
  const timer = setInterval(
    () => {
      const sample = { t: Date.now(), p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max), mean: ms(histogram.mean) };
      histogram.reset();
      appendFileSync(file, `${JSON.stringify(sample)}\n`);
    },
    Number(process.env.BENCH_ELD_INTERVAL_MS ?? 1000),
  );
  timer.unref();
}
