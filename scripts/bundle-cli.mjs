/**
 * Bundles the compiled command (dist/cli/main.js and every dist/ module and package it imports)
 * into one CommonJS file, dist/lugha.cjs, which bin/lugha.js runs with a V8 code cache
 * (bin/lugha.js says how). Run by `npm run build` after tsc; needs esbuild (a dev dependency).
 *
 * Why: `lugha mcp` loaded about 600 files before its first answer (234 ES modules, 367 CommonJS
 * files: zod, the MCP server SDK, kysely, yaml, commander, dist/ itself), each resolved, read,
 * compiled and linked, and Node 20 keeps no compiled code between runs. One file compiled from a
 * cache skips all of that (docs/benchmarks.md, start-up section).
 *
 * What the bundle leaves to Node at run time:
 * - native and optional packages: the SQLite drivers;
 * - packages loaded only when configured or used: the PostgreSQL, Redis and S3 clients,
 *   music-metadata (ES module only), and the HTTP server (fastify and its plugins, which read
 *   their own files beside their code: swagger-ui's assets, for one).
 * Everything else, zod included, is in the bundle once, so the schemas of the MCP SDK, of
 * fastify-type-provider-zod and of Lugha are one zod.
 *
 * `import.meta.url` of each dist/ module (the package root in config.ts, the caches' code
 * fingerprints in frame-cache.ts and cartridge/cache.ts, createRequire) is rewritten to that
 * module's own file URL, computed from the bundle's place: the code finds the same files, and
 * the caches' keys (which hash dist/morphology, dist/cartridge, ...) are the same as unbundled.
 * kysely, which src/store/kysely.ts takes from its CommonJS build through createRequire, is
 * bundled from that same build.
 *
 * Besides the bundle it writes dist/lugha.cjs.json: the dist/ files it was made from, so that
 * bin/lugha.js can tell a bundle older than them (a `tsc` run without this script) and run dist/
 * as it is instead.
 */
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const outfile = path.join(dist, 'lugha.cjs');
const manifest = `${outfile}.json`;

/** Left to Node's own loaders at run time (see the head of this file). */
const external = ['better-sqlite3', 'better-sqlite3-node20', 'pg', 'ioredis', '@aws-sdk/*', 'music-metadata', 'fastify', '@fastify/*'];

const KYSELY_REQUIRE = "createRequire(import.meta.url)('kysely')";

/** dist/ modules: `import.meta.url` as the module's own URL, and kysely's CommonJS build bundled. */
const distModules = {
  name: 'lugha-dist-modules',
  setup(build) {
    build.onLoad({ filter: /\.js$/ }, async (args) => {
      if (!args.path.startsWith(dist + path.sep)) return undefined;
      let text = await readFile(args.path, 'utf8');
      if (args.path === path.join(dist, 'store', 'kysely.js')) {
        if (!text.includes(KYSELY_REQUIRE)) throw new Error(`dist/store/kysely.js no longer reads kysely with ${KYSELY_REQUIRE}; update scripts/bundle-cli.mjs`);
        text = text.replace(KYSELY_REQUIRE, "require('kysely')");
      }
      if (text.includes('import.meta.url')) {
        const own = path.relative(path.dirname(outfile), args.path).split(path.sep).join('/');
        text = text.replaceAll('import.meta.url', `new URL(${JSON.stringify(`./${own}`)}, __lughaBundleUrl).href`);
      }
      return { contents: text, loader: 'js' };
    });
  },
};

await rm(manifest, { force: true });
const result = await esbuild.build({
  absWorkingDir: root,
  entryPoints: [path.join(dist, 'cli', 'main.js')],
  outfile,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  external,
  plugins: [distModules],
  banner: { js: "const __lughaBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
  // A package's own import.meta would be empty in CommonJS: fail rather than ship that.
  logOverride: { 'empty-import-meta': 'error' },
  logLevel: 'warning',
  metafile: true,
  // Written below, whole, by a rename: a `lugha` starting meanwhile reads the old file or the new one, never half of one.
  write: false,
  legalComments: 'none',
  // No comments and no non-ASCII characters: bin/lugha.js reads the file as Latin-1, a one-byte string (a UTF-8 read
  // with a few non-ASCII comment characters made a two-byte copy of all of it: 280 ms for 5 MB at load 16, against 137 ms).
  minifyWhitespace: true,
  charset: 'ascii',
});
// esbuild leaves non-ASCII characters in regular expression literals; each becomes its \u escape (UTF-16 code units:
// a pair of surrogate escapes is one code point in a /u expression, as in a string), which means the same there too.
// A dynamic import() left in the bundle (a package it leaves out, such as music-metadata) calls __lughaImport, which
// bin/lugha.js passes in: import() itself, from a script compiled by node:vm, needs an option Node marks experimental.
const ascii = result.outputFiles[0].text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
const bundled = ascii.replace(/\bimport\((?=["'])/g, '__lughaImport(');
const other = /.{0,60}\bimport\(.{0,60}/.exec(bundled);
if (other) throw new Error(`dist/lugha.cjs has an import() with a computed argument, which bin/lugha.js cannot serve: ${other[0]}`);
await writeFile(`${outfile}.${process.pid}.tmp`, bundled);
await rename(`${outfile}.${process.pid}.tmp`, outfile);
const inputs = Object.keys(result.metafile.inputs)
  .map((input) => path.resolve(root, input))
  .filter((file) => file.startsWith(dist + path.sep))
  .map((file) => path.relative(dist, file).split(path.sep).join('/'))
  .sort();
await writeFile(manifest, `${JSON.stringify({ inputs }, null, 1)}\n`);
const { bytes } = result.metafile.outputs[path.relative(root, outfile)] ?? { bytes: 0 };
process.stdout.write(`bundle-cli: dist/lugha.cjs, ${(bytes / 1e6).toFixed(1)} MB from ${Object.keys(result.metafile.inputs).length} files (${inputs.length} of dist/)\n`);
