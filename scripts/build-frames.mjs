// Builds every installed language's parsed cartridge into dist/cartridges, its analysis frames
// into dist/frames and its learnt text model (languages/<iso>/text/, if any) in binary form into
// dist/text-models (run after `npm run build`; `npm run build:frames`), so that no server, MCP
// session or CLI run parses a cartridge's YAML, builds frames or parses a text model's TSV files
// on a request. Languages whose cached files are current are skipped.
import path from 'node:path';
import { loadConfig } from '../dist/config.js';
import { cartridgeCacheDir, frameCacheDir, openMorphology } from '../dist/services.js';
import { loadModelFile, textModelCacheDir } from '../dist/text/model-file.js';

const morphology = openMorphology(loadConfig({ env: process.env }));
let started = performance.now();
// Reads every cartridge: from dist/cartridges when current, else from its YAML, then written there.
const installed = morphology.languages().length;
process.stdout.write(`cartridges of ${installed} languages in ${cartridgeCacheDir}: ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
started = performance.now();
for (const { iso } of morphology.languages()) {
  const t = performance.now();
  const source = await morphology.prepareInBackground(iso);
  process.stdout.write(`${iso.padEnd(4)} ${source.padEnd(6)} ${Math.round(performance.now() - t)} ms\n`);
}
process.stdout.write(`frames of ${morphology.languages().length} languages in ${frameCacheDir}: ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
started = performance.now();
let models = 0;
for (const { iso } of morphology.languages()) {
  const t = performance.now();
  const loaded = loadModelFile(path.join(morphology.engine(iso).value.cartridge.dir, 'text'), textModelCacheDir);
  if (!loaded) continue;
  models++;
  process.stdout.write(`${iso.padEnd(4)} ${loaded.source.padEnd(6)} ${Math.round(performance.now() - t)} ms\n`);
}
process.stdout.write(`text models of ${models} languages in ${textModelCacheDir}: ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
