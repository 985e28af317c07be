// A test reporter for `scripts/run-tests.mjs --times <file>`: seconds per test file (the sum of its
// top-level suites and tests, so module loading is not counted), slowest first. It is what the
// choice of the files .ci/run leaves out on the other Node lines was measured with.
import path from 'node:path';

export default async function* fileTimes(source) {
  const times = new Map();
  for await (const event of source) {
    if ((event.type === 'test:pass' || event.type === 'test:fail') && event.data.nesting === 0 && event.data.file) {
      const file = path.relative(process.cwd(), event.data.file);
      times.set(file, (times.get(file) ?? 0) + (event.data.details?.duration_ms ?? 0));
    }
  }
  const total = [...times.values()].reduce((a, b) => a + b, 0);
  for (const [file, ms] of [...times].sort((a, b) => b[1] - a[1])) yield `${(ms / 1000).toFixed(1).padStart(7)} s  ${file}\n`;
  yield `${(total / 1000).toFixed(1).padStart(7)} s  (all files)\n`;
}
