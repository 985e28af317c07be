/**
 * The one definition of "in CI" the tests use, and the one way a suite that needs something this
 * machine lacks (ffmpeg, the HFST tools, chromium, PostgreSQL, Redis, a private tmpfs) is skipped:
 * outside CI it is skipped with its reason, which `scripts/run-tests.mjs` lists at the end of the
 * run; in CI (`.ci/run` installs the tools and the machine runs the servers) it fails loudly.
 */

/** CI is set to anything but empty, `0` or `false` (CI services set `CI=true`; some `CI=1`). */
export function isCi(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}

/** Whether this test run is CI. */
export const inCi = isCi(process.env.CI);

/**
 * `reason` as the skip message of a suite that cannot run here, printed to stderr as well;
 * in CI it throws instead, which fails the test file before any test runs.
 */
export function skipOrFailInCi(reason: string): string {
  if (inCi) throw new Error(`CI is set, and ${reason}: CI must run this suite (.ci/run installs and starts what the tests need; README "Tests")`);
  process.stderr.write(`# skipping: ${reason} (in CI this is a failure)\n`);
  return reason;
}
