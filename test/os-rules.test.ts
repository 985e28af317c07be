// Enforces the architecture rules that GET /api/os/layers declares, and checks that every rule names a test that exists.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { packageRoot } from '../src/config.js';
import { ARCHITECTURE_RULES, layerOf } from '../src/coverage/layers.js';
import { loadCartridge } from '../src/cartridge/cartridge.js';
import { harness, type Harness } from './helpers.js';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return e.name.endsWith('.ts') ? [full] : [];
  });
}

/** Module specifiers a file imports (static and dynamic). */
function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from\s+|import\s*\(\s*)['"]([^'"]+)['"]/g)].map((m) => m[1]!);
}

const rel = (file: string) => path.relative(packageRoot, file);
const languagesDir = path.join(packageRoot, 'languages');
// languages/schema/ holds the JSON Schemas of the cartridge files (test/cartridge-schema.test.ts); every other folder is a cartridge.
const cartridgeDirs = readdirSync(languagesDir, { withFileTypes: true })
  .filter((e) => e.isDirectory() && e.name !== 'schema')
  .map((e) => e.name);

describe('architecture rules', () => {
  let h: Harness;
  before(async () => {
    h = await harness();
  });
  after(() => h.close());

  it('cartridges hold data files only, in folders named by their ISO 639-3 code', () => {
    const offences: string[] = [];
    for (const name of cartridgeDirs) {
      if (!/^[a-z]{3}$/.test(name)) offences.push(`languages/${name}: not an ISO 639-3 code`);
      for (const file of readdirSync(path.join(languagesDir, name), { recursive: true, withFileTypes: true })) {
        if (file.isDirectory()) continue;
        const where = path.relative(path.join(languagesDir, name), path.join(file.parentPath, file.name));
        if (!/\.(ya?ml|tsv|md)$/.test(file.name)) offences.push(`languages/${name}/${where}: not a data file`);
      }
      const iso = loadCartridge(path.join(languagesDir, name)).metadata.iso639_3;
      if (iso !== name) offences.push(`languages/${name}: metadata says ${iso}`);
    }
    assert.deepEqual(offences, []);
    assert.ok(cartridgeDirs.length >= 27, `${cartridgeDirs.length} cartridges`);
  });

  it('no route imports a store implementation or a database driver', () => {
    const forbidden = (spec: string) => /(^|\/)store\/(?!store\.js$)/.test(spec) || ['better-sqlite3', 'pg', 'kysely', 'ioredis', '@aws-sdk/client-s3'].includes(spec) || /blob-store\.js$/.test(spec);
    const offences = sourceFiles(path.join(packageRoot, 'src', 'http')).flatMap((f) =>
      imports(f)
        .filter(forbidden)
        .map((s) => `${rel(f)}: ${s}`),
    );
    assert.deepEqual(offences, []);
  });

  it('the engine imports no edge, store or audio module', () => {
    const offences = sourceFiles(path.join(packageRoot, 'src', 'morphology')).flatMap((f) =>
      imports(f)
        .filter((s) => /^\.\.\/(http|cli|mcp|store|audio|access)\//.test(s) || s === '../services.js')
        .map((s) => `${rel(f)}: ${s}`),
    );
    assert.deepEqual(offences, []);
  });

  it('every source file belongs to one layer and imports only the layers it uses', () => {
    // Known exceptions, each with its reason; when one is fixed, remove it here (the test fails until then).
    const known = new Map([
      ['src/cartridge/cache.ts -> src/morphology/phonology.ts', 'the parsed-cartridge cache keeps phonology.yaml, whose schema still lives beside the phonology engine'],
      ['src/cartridge/cartridge.ts -> src/morphology/nouns.ts', 'the nouns.yaml schema still lives beside the noun inflector'],
      ['src/cartridge/cartridge.ts -> src/numerals/grammar.ts', 'the numerals.yaml schema still lives beside the numeral speller'],
      ['src/text/api.ts -> src/http/envelope.ts', 'the text API schema reuses the HTTP envelope schema'],
      ['src/text/api.ts -> src/text/service.ts', 'the text API schema reads the service limits'],
      ['src/store/backends.ts -> src/access/redis-quota-counter.ts', 'the backend choice builds the Redis quota counter'],
      ['src/store/sql-quota-counter.ts -> src/access/count-buffer.ts', 'the SQL quota counter shares the group-commit buffer of the access layer with the Redis counter'],
    ]);
    const unplaced: string[] = [];
    const offences: string[] = [];
    for (const file of sourceFiles(path.join(packageRoot, 'src')).map(rel)) {
      const own = layerOf(file);
      if (!own) {
        unplaced.push(file);
        continue;
      }
      const text = readFileSync(path.join(packageRoot, file), 'utf8');
      // Run-time imports only: `import type` is erased.
      for (const m of text.matchAll(/^(?:import|export)(?!\s+type\b)[^;]*?from\s+['"](\.[^'"]+)['"]|import\s*\(\s*['"](\.[^'"]+)['"]/gm)) {
        const target = path.normalize(path.join(path.dirname(file), m[1] ?? m[2]!)).replace(/\.js$/, '.ts');
        const layer = layerOf(target);
        if (layer && layer.id !== own.id && !own.uses.includes(layer.id)) offences.push(`${file} -> ${target}`);
      }
    }
    assert.deepEqual(unplaced, []);
    assert.deepEqual(offences.sort(), [...known.keys()].sort());
  });

  it('only src/config.ts reads the environment variables', () => {
    const offences = sourceFiles(path.join(packageRoot, 'src'))
      .filter((f) => rel(f) !== path.join('src', 'config.ts'))
      .filter((f) => /process\.env\b/.test(readFileSync(f, 'utf8')))
      .map(rel);
    assert.deepEqual(offences, []);
  });

  it('no /api/os response carries the data directory, the cartridges folder or a bucket', async () => {
    const secrets = [h.dataDir, h.services.config.dataDir, h.services.config.languagesDir, packageRoot, tmpdir()];
    for (const url of ['/api/os/status', '/api/os/layers', '/api/os/cartridges', '/api/os/cartridges/swh', '/api/os/templates', '/api/os/cartridges/xyz']) {
      const res = await h.call(undefined, url);
      for (const secret of secrets) assert.ok(!res.body.includes(secret), `${url} leaks ${secret}`);
      assert.doesNotMatch(res.body, /s3:\/\/|\/blobs\b/i, url);
    }
  });

  it('every /api/os route answers GET without a key and refuses writes', async () => {
    const routes = Object.keys((await h.call(undefined, '/openapi.json')).json().paths).filter((p) => p.startsWith('/api/os/'));
    assert.deepEqual(routes.sort(), ['/api/os/cartridges', '/api/os/cartridges/{iso}', '/api/os/layers', '/api/os/status', '/api/os/templates']);
    for (const route of routes) {
      const url = route.replace('{iso}', 'swh');
      assert.equal((await h.call(undefined, url)).statusCode, 200, url);
      for (const method of ['POST', 'PUT', 'DELETE', 'PATCH'] as const) {
        const res = await h.call(undefined, { method, url });
        assert.ok([404, 405].includes(res.statusCode), `${method} ${url} answered ${res.statusCode}`);
      }
    }
  });

  it("the README's layout names every folder and module of src/", () => {
    const readme = readFileSync(path.join(packageRoot, 'README.md'), 'utf8');
    const layout = /## Layout\n+```\n([\s\S]*?)\n```/.exec(readme);
    assert.ok(layout, 'README.md has a Layout block');
    const named = new Set([...layout[1]!.matchAll(/src\/[\w.-]+\/?/g)].map((m) => m[0].replace(/\/$/, '')));
    const entries = readdirSync(path.join(packageRoot, 'src'), { withFileTypes: true })
      .filter((e) => e.isDirectory() || e.name.endsWith('.ts'))
      .map((e) => `src/${e.name}`);
    assert.deepEqual(
      entries.filter((e) => !named.has(e)),
      [],
      'every folder and top-level module of src/ has a line in the README layout',
    );
    assert.deepEqual(
      [...named].filter((n) => !entries.includes(n)),
      [],
      'the layout names nothing that is gone',
    );
  });

  it('every cartridge declares at least one source', () => {
    const offences = cartridgeDirs.filter((name) => loadCartridge(path.join(languagesDir, name)).metadata.sources.length === 0);
    assert.deepEqual(offences, []);
  });

  it('every rule of /api/os/layers names a test that exists, and the API serves exactly these rules', async () => {
    for (const rule of ARCHITECTURE_RULES) {
      assert.ok(rule.enforced_by, `${rule.id} names no test`);
      const text = readFileSync(path.join(packageRoot, rule.enforced_by.file), 'utf8');
      assert.ok(text.includes(`it('${rule.enforced_by.test}'`), `${rule.id}: no test "${rule.enforced_by.test}" in ${rule.enforced_by.file}`);
    }
    const served = (await h.call(undefined, '/api/os/layers')).json();
    assert.deepEqual(served.rules, JSON.parse(JSON.stringify(ARCHITECTURE_RULES)));
    assert.deepEqual(
      served.layers.map((l: { id: string }) => l.id),
      ['edge', 'services', 'engine', 'cartridges', 'store', 'shared'],
    );
  });
});
