// Pins the third-party model mechanism and the HFST REST routes: a transducer compiled in this run from a grammar that is not a Lugha cartridge, dropped into the models folder with a manifest, is listed and answers over /api/v1/hfst.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { packageRoot } from '../src/config.js';
import { compileRegex, HFST_MISSING, hfstForTests, kipoModelsFolder } from './hfst-fixtures.js';
import { harness, problemOf, tempDir, type Harness } from './helpers.js';

const hfst = hfstForTests();

describe('third-party HFST models over REST', { skip: hfst ? false : HFST_MISSING }, () => {
  let dir: string;
  let models: string;
  let h: Harness;
  let key: string;

  before(async () => {
    dir = tempDir('lugha-hfst-http-');
    models = kipoModelsFolder(dir);
    // Operator mistakes: a manifest naming a missing file, one with a bad direction, and a plain .hfst file posing as .hfstol.
    writeFileSync(path.join(models, 'missing.model.yaml'), 'file: nowhere.hfstol\nlanguage: und\ndirection: analyse\ntags: x\nlicence: MIT\nsource: x\n');
    writeFileSync(path.join(models, 'sideways.model.yaml'), 'file: kipo-analyser.hfstol\nlanguage: und\ndirection: sideways\ntags: x\nlicence: MIT\nsource: x\n');
    copyFileSync(path.join(dir, 'build', 'kipo.ana.hfst'), path.join(models, 'raw.hfstol'));
    writeFileSync(path.join(models, 'raw.model.yaml'), 'file: raw.hfstol\nlanguage: und\ndirection: analyse\ntags: x\nlicence: MIT\nsource: x\n');
    h = await harness({ flags: { modelsDir: models } });
    key = (await h.issue('startup')).key;
  });
  after(async () => {
    await h.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const post = (route: string, body: unknown, k: string | undefined = key) => h.call(k, { method: 'POST', url: `/api/v1/hfst/${route}`, payload: body as Record<string, unknown> });

  it('lists each dropped-in model with its manifest and what the transducer holds', async () => {
    const res = await h.call(key, '/api/v1/hfst/models');
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.equal(body.status, 'ok');
    const byName = Object.fromEntries(body.data.map((m: { name: string }) => [m.name, m]));
    assert.deepEqual(Object.keys(byName).sort(), ['kipo-analyser', 'kipo-generator', 'kipo-plain-analyser', 'raw']);
    const analyser = byName['kipo-analyser'];
    assert.equal(analyser.direction, 'analyse');
    assert.equal(analyser.weighted, true);
    assert.equal(analyser.origin, 'third_party');
    assert.equal(analyser.licence, 'CC0-1.0');
    assert.equal(analyser.flag_diacritics, 10);
    assert.ok(analyser.tags.includes('<neg>') && analyser.tags.includes('<pl>'), analyser.tags.join(' '));
    assert.ok(!analyser.tags.some((t: string) => t.startsWith('@')), 'flags are not tags');
    assert.equal(byName['kipo-plain-analyser'].weighted, false);
    assert.ok(byName['kipo-generator'].tags.includes('<v>'));
    assert.equal(byName.raw.usable, false, 'a file that is not optimized-lookup is listed as unusable');
    const filtered = await h.call(key, '/api/v1/hfst/models?direction=generate');
    assert.deepEqual(
      filtered.json().data.map((m: { name: string }) => m.name),
      ['kipo-generator'],
    );
  });

  it('analyses with flags, weights (best first) and multi-code-point symbols, in NFC or NFD', async () => {
    const res = await post('analyze', { model: 'kipo-analyser', inputs: ['tɛ́ma', 'sítɛ́ma', 'mitɛ́ma', 'batɛ́ma', 'tɛ́ma'.normalize('NFD'), 'qq'] });
    assert.equal(res.statusCode, 200, res.body);
    const items = res.json().data;
    assert.deepEqual(items[0].results, [
      { output: 'tɛ́m<v><pres>', weight: 0 },
      { output: 'tɛ́ma<n><sg>', weight: 3 },
    ]);
    assert.equal(items[0].model, 'kipo-analyser');
    assert.deepEqual(
      items[1].results.map((r: { output: string }) => r.output),
      ['tɛ́m<v><pres><neg>'],
    );
    assert.deepEqual(items[2].results, [], 'the class flags forbid mi- with a class B stem');
    assert.equal(items[2].known_symbols, true);
    assert.deepEqual(items[3].results, [{ output: 'tɛ́ma<n><pl>', weight: 3 }]);
    assert.deepEqual(items[4].results, items[0].results, 'NFD input is normalised to the NFC symbols');
    assert.equal(items[5].known_symbols, false);
  });

  it('chooses the model by language and generates through the generator', async () => {
    const res = await post('generate', { language: 'und', inputs: ['tɛ́m<v><past>', 'bula<n><pl>', 'tɛ́m<v><pres><neg>'], n_best: 1 });
    assert.equal(res.statusCode, 200, res.body);
    const items = res.json().data;
    assert.equal(items[0].model, 'kipo-generator');
    assert.deepEqual(items[0].results, [{ output: 'tɛ́milɛ́', weight: 1.25 }]);
    assert.deepEqual(
      items[1].results.map((r: { output: string }) => r.output),
      ['mibula'],
    );
    assert.deepEqual(
      items[2].results.map((r: { output: string }) => r.output),
      ['sítɛ́ma'],
    );
  });

  it('stops on the input-epsilon cycle and says so', async () => {
    const res = await post('analyze', { model: 'kipo-plain-analyser', inputs: ['oo'], n_best: 3 });
    assert.equal(res.statusCode, 200, res.body);
    const [item] = res.json().data;
    assert.ok(item.truncated === 'results' || item.truncated === 'depth' || item.truncated === 'time', JSON.stringify(item));
    assert.equal(item.results.length, 3);
    for (const r of item.results) assert.match(r.output, /^oo(<emph>)*<ij>$/);
  });

  it('answers problem+json for unknown models, wrong directions, unreadable files and bad bodies', async () => {
    const unknown = await post('analyze', { model: 'nope', inputs: ['bula'] });
    assert.equal(unknown.statusCode, 404);
    const p = problemOf(unknown);
    assert.equal(p.code, 'model_not_found');
    assert.match(String(p.detail), /kipo-analyser/);
    assert.ok(!String(p.detail).includes(models), 'no storage path in an error');
    const wrong = await post('generate', { model: 'kipo-analyser', inputs: ['bula'] });
    assert.equal(wrong.statusCode, 400);
    assert.equal(problemOf(wrong).code, 'invalid_parameter');
    const raw = await post('analyze', { model: 'raw', inputs: ['bula'] });
    assert.equal(raw.statusCode, 500);
    assert.equal(problemOf(raw).code, 'model_unreadable');
    assert.match(String(problemOf(raw).detail), /hfst-fst2fst -O/);
    assert.ok(!String(problemOf(raw).detail).includes(models));
    const neither = await post('analyze', { inputs: ['bula'] });
    assert.equal(neither.statusCode, 400);
    const empty = await post('analyze', { model: 'kipo-analyser', inputs: [] });
    assert.equal(empty.statusCode, 400);
  });

  it('is metered and keyed, limits inputs to the tier batch size, and never offers third-party files for download', async () => {
    const anonymous = await h.call(undefined, { method: 'POST', url: '/api/v1/hfst/analyze', payload: { model: 'kipo-analyser', inputs: ['bula'] } });
    assert.equal(anonymous.statusCode, 401);
    const evaluation = (await h.issue('evaluation', 'evaluation')).key;
    const ok = await post('analyze', { model: 'kipo-analyser', inputs: ['bula'] }, evaluation);
    assert.equal(ok.statusCode, 200);
    assert.match(String(ok.headers.ratelimit), /r=99/);
    const big = await post('analyze', { model: 'kipo-analyser', inputs: Array.from({ length: 11 }, () => 'bula') }, evaluation);
    assert.equal(big.statusCode, 413);
    assert.equal(problemOf(big).code, 'batch_too_large');
    const download = await h.call(key, '/api/v1/hfst/models/kipo-analyser/download');
    assert.equal(download.statusCode, 404);
    assert.equal(problemOf(download).code, 'model_not_found');
  });

  it("asks an operator's fallback analyser only for words the analyser cannot read, and reports fallbacks it cannot use", async () => {
    const own = tempDir('lugha-hfst-fallback-');
    try {
      const folder = kipoModelsFolder(own);
      // A guesser of the operator's own: any word of these letters, tagged <guess>. Its name sorts before kipo-analyser.
      copyFileSync(compileRegex(own, 'guess', '[ a | b | k | l | m | o | s | t | u | z ]+ 0:%<guess%>', false), path.join(folder, 'aaa-guesser.hfstol'));
      const manifest = (name: string, file: string, direction: string, extra = '') =>
        writeFileSync(path.join(folder, `${name}.model.yaml`), `file: ${file}\nlanguage: und\ndirection: ${direction}\ntags: x\nlicence: CC0-1.0\nsource: test\n${extra}`);
      manifest('aaa-guesser', 'aaa-guesser.hfstol', 'analyse');
      writeFileSync(path.join(folder, 'kipo-analyser.model.yaml'), `${readFileSync(path.join(folder, 'kipo-analyser.model.yaml'), 'utf8')}\nfallback: aaa-guesser\n`);
      manifest('gen-with-fallback', 'kipo-generator.hfstol', 'generate', 'fallback: aaa-guesser\n');
      manifest('lost-fallback', 'kipo-plain-analyser.hfstol', 'analyse', 'fallback: nowhere\n');
      const fh = await harness({ flags: { modelsDir: folder } });
      try {
        const k = (await fh.issue('startup')).key;
        const listed = (await fh.call(k, '/api/v1/hfst/models')).json().data as Array<{ name: string; fallback: string | null }>;
        const fallbacks = Object.fromEntries(listed.map((m) => [m.name, m.fallback]));
        assert.equal(fallbacks['kipo-analyser'], 'aaa-guesser');
        assert.equal(fallbacks['gen-with-fallback'], null, 'a generator cannot have a fallback');
        assert.equal(fallbacks['lost-fallback'], null, 'a missing fallback is dropped');
        const call = (payload: Record<string, unknown>) => fh.call(k, { method: 'POST', url: '/api/v1/hfst/analyze', payload });
        // By language, the analyser is chosen, not the guesser that is its fallback.
        const res = await call({ language: 'und', inputs: ['bula', 'zuzu'] });
        assert.equal(res.statusCode, 200, res.body);
        const [known, unknown] = res.json().data;
        assert.equal(known.model, 'kipo-analyser');
        const outputs = known.results.map((r: { output: string }) => r.output);
        assert.ok(outputs.includes('bula<n><sg>') && outputs.every((o: string) => !o.endsWith('<guess>')), outputs.join(', '));
        assert.equal(known.fallback, undefined);
        assert.deepEqual(
          unknown.results.map((r: { output: string }) => r.output),
          ['zuzu<guess>'],
        );
        assert.equal(unknown.fallback, 'aaa-guesser');
        const strict = (await call({ model: 'kipo-analyser', inputs: ['zuzu'], fallback: false })).json().data[0];
        assert.deepEqual(strict.results, []);
        assert.equal(strict.fallback, undefined);
        const cli = spawnSync(process.execPath, [path.join(packageRoot, 'bin', 'lugha.js'), 'hfst', 'list', '--models-dir', folder], { encoding: 'utf8' });
        assert.match(cli.stderr, /gen-with-fallback\.model\.yaml: only an analyser can have a fallback; served without it/);
        assert.match(cli.stderr, /lost-fallback\.model\.yaml: fallback nowhere is not a model of the folder/);
      } finally {
        await fh.close();
      }
    } finally {
      rmSync(own, { recursive: true, force: true });
    }
  });

  it('describes the routes in OpenAPI', async () => {
    const spec = (await h.app.inject('/openapi.json')).json();
    for (const route of ['/api/v1/hfst/models', '/api/v1/hfst/analyze', '/api/v1/hfst/generate', '/api/v1/hfst/models/{name}/download']) {
      assert.ok(spec.paths[route], route);
    }
    assert.ok(spec.paths['/api/v1/hfst/analyze'].post.requestBody);
  });
});

describe('a models folder that is missing or empty', () => {
  it('lists no models and the service still starts (a fresh machine)', async () => {
    const dir = tempDir('lugha-hfst-none-');
    const h = await harness({ flags: { modelsDir: path.join(dir, 'absent') } });
    try {
      const { key } = await h.issue('startup');
      const res = await h.call(key, '/api/v1/hfst/models');
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json().data, []);
      const none = await h.call(key, { method: 'POST', url: '/api/v1/hfst/analyze', payload: { language: 'swh', inputs: ['ninapenda'] } });
      assert.equal(none.statusCode, 404);
      assert.equal(problemOf(none).code, 'model_not_found');
    } finally {
      await h.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
