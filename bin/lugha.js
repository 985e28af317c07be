#!/usr/bin/env node
// Entry point of the `lugha` command; runs the compiled TypeScript in dist/.
//
// `npm run build` also bundles dist/ into one file, dist/lugha.cjs (scripts/bundle-cli.mjs). This
// runs that file when it is there and not older than the dist/ files it was made from, compiled
// with a V8 code cache: one file per command under dist/code-cache/, written at the exit of the
// first run that had none (or whose cache V8 refused: another Node, other flags), for this Node
// version, its flags and this bundle. Compiling and linking hundreds of modules was most of the
// start of `lugha mcp`; see docs/benchmarks.md. Otherwise it imports dist/cli/main.js.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import module, { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import vm from 'node:vm';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const entry = path.join(dist, 'cli', 'main.js');
if (!existsSync(entry)) {
  process.stderr.write('lugha: dist/ is missing; run `npm ci` (or `npm run build`) in the repository first\n');
  process.exit(1);
}

/** The bundle's path when it is current: present, and no dist/ file it was made from changed after it. */
function currentBundle() {
  const bundle = path.join(dist, 'lugha.cjs');
  try {
    const made = statSync(bundle).mtimeMs;
    const { inputs } = JSON.parse(readFileSync(`${bundle}.json`, 'utf8'));
    for (const input of inputs) if (statSync(path.join(dist, input)).mtimeMs > made) return undefined;
    return bundle;
  } catch {
    return undefined;
  }
}

/** Runs the CommonJS bundle as Node's loader would, with a code cache; returns its exports. */
function runBundle(bundle) {
  // The build writes ASCII only, so Latin-1 reads it as it is, into a one-byte string, without decoding UTF-8.
  const source = readFileSync(bundle, 'latin1');
  const { mtimeMs, size } = statSync(bundle);
  const command = /^[a-z][a-z-]*$/.test(process.argv[2] ?? '') ? process.argv[2] : 'other';
  const digest = (value) => createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 12);
  // <command>.<this bundle>.<this Node and its flags>.v8: a new bundle replaces the command's files, other flags keep their own.
  const made = digest([mtimeMs, size]);
  const cacheDir = path.join(dist, 'code-cache');
  const cacheFile = path.join(cacheDir, `${command}.${made}.${digest([process.version, process.arch, process.execArgv])}.v8`);
  let cachedData;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  // As Node wraps a CommonJS module, plus __lughaImport: the bundle's dynamic import() (scripts/bundle-cli.mjs), made here.
  const wrapper = `(function (exports, require, module, __filename, __dirname, __lughaImport) {${source}\n})`;
  const script = new vm.Script(wrapper, { filename: bundle, cachedData });
  const bundled = { exports: {} };
  const load = (specifier) => import(specifier);
  script.runInThisContext().call(bundled.exports, bundled.exports, createRequire(bundle), bundled, bundle, path.dirname(bundle), load);
  if (cachedData === undefined || script.cachedDataRejected) {
    // At exit the cache holds every function this run compiled (the command's whole path), not just the top level.
    process.once('exit', () => {
      try {
        mkdirSync(cacheDir, { recursive: true });
        const temporary = `${cacheFile}.${process.pid}.tmp`;
        writeFileSync(temporary, script.createCachedData());
        renameSync(temporary, cacheFile);
        for (const stale of readdirSync(cacheDir)) if (stale.startsWith(`${command}.`) && !stale.startsWith(`${command}.${made}.`) && !stale.endsWith('.tmp')) rmSync(path.join(cacheDir, stale), { force: true });
      } catch {
        // A read-only dist/ runs without a cache.
      }
    });
  }
  return bundled.exports;
}

// Node 22.1 and newer keep compiled code of what Node's own loaders load (the packages the bundle leaves out, or dist/
// when there is no bundle) in a cache of their own; Node 20 has no such cache, and the call is skipped.
module.enableCompileCache?.(path.join(dist, 'code-cache', 'node'));

const bundle = currentBundle();
const { main } = bundle ? runBundle(bundle) : await import(pathToFileURL(entry).href);
const code = await main(process.argv);
// exitCode, not exit(): `serve` keeps the process alive with its server.
process.exitCode = code;
