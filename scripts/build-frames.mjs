// Builds every installed language's analysis frames into dist/frames (run after `npm run build`;
// `npm run build:frames`), so that no server, MCP session or CLI run builds them on a request.
// Languages whose cached frames are current are skipped.
import { loadConfig } from '../dist/config.js';
import { frameCacheDir, openMorphology } from '../dist/services.js';

const morphology = openMorphology(loadConfig({ env: process.env }));
const started = performance.now();
for (const { iso } of morphology.languages()) {
  const t = performance.now();
  const source = await morphology.prepareInBackground(iso);
  process.stdout.write(`${iso.padEnd(4)} ${source.padEnd(6)} ${Math.round(performance.now() - t)} ms\n`);
}
process.stdout.write(`frames of ${morphology.languages().length} languages in ${frameCacheDir}: ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
