// Measures every cartridge that has a feature mapping against its UniMorph development table and
// writes reference/measured-accuracy.json, which the product status API reads (never edit it by hand).
// Usage: node --import tsx scripts/measure-accuracy.ts UNIMORPH_DIR [--no-analysis] [--language ISO[,ISO...]]
// With --language only those cartridges are measured and printed; the file is not written (it holds every language).
// UNIMORPH_DIR holds the UniMorph development tables <iso>.dev.tsv (docs/gold-data.md says where they come from).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../src/config.js';
import { cartridgeDigest, measuredFileSchema, type MeasuredFile } from '../src/coverage/measured-accuracy.js';
import { evaluateAnalysis, evaluateInflection } from '../src/morphology/evaluate.js';
import { withConvention } from '../src/cartridge/cartridge.js';
import { LanguageEngine } from '../src/morphology/service.js';
import { openMorphology } from '../src/services.js';

const args = process.argv.slice(2);
const withAnalysis = !args.includes('--no-analysis');
const languageAt = args.indexOf('--language');
const only = languageAt >= 0 ? new Set((args[languageAt + 1] ?? '').split(',').filter((iso) => iso !== '')) : undefined;
const goldArg = args.find((a, i) => !a.startsWith('--') && (languageAt < 0 || i !== languageAt + 1));
if (goldArg === undefined || (only !== undefined && only.size === 0)) {
  process.stderr.write('usage: node --import tsx scripts/measure-accuracy.ts UNIMORPH_DIR [--no-analysis] [--language ISO[,ISO...]] (the folder of <iso>.dev.tsv; see docs/gold-data.md)\n');
  process.exit(2);
}
const goldDir = path.resolve(goldArg);
const out = path.join(packageRoot, 'reference', 'measured-accuracy.json');

const morphology = openMorphology({ languagesDir: path.join(packageRoot, 'languages') });
const result: MeasuredFile = {
  generated_by: `scripts/measure-accuracy.ts${withAnalysis ? '' : ' --no-analysis'} on the UniMorph development tables (<iso>.dev.tsv), with the cartridge's \`unimorph\` convention where it names one`,
  measured_at: new Date().toISOString(),
  languages: {},
};
for (const { iso } of morphology.languages()) {
  if (only !== undefined && !only.has(iso)) continue;
  const found = morphology.engine(iso);
  if (!found.ok || !found.value.cartridge.features) continue;
  // Where the cartridge names the UniMorph tables' convention (verbs.conventions, id `unimorph`), the
  // tables are measured with it, as `lugha eval --variant unimorph` does; the standard stays the default.
  const conventionId = found.value.cartridge.verbs?.conventions.some((c) => c.id === 'unimorph') ? 'unimorph' : undefined;
  const engine = conventionId ? new LanguageEngine(withConvention(found.value.cartridge, conventionId)) : found.value;
  // A cartridge may be measured on a table filed under another code (ktu on UniMorph's kon tables).
  const dataset = engine.cartridge.features?.dataset ?? iso;
  const file = path.join(goldDir, `${dataset}.dev.tsv`);
  if (!existsSync(file)) continue;
  const inflection = evaluateInflection(engine.generator, [file]);
  const analysis = withAnalysis ? evaluateAnalysis(engine.generator, engine.analyzer, [file]) : undefined;
  result.languages[iso] = {
    dataset: `unimorph/${dataset}.dev.tsv`,
    dataset_sha256: createHash('sha256').update(readFileSync(file)).digest('hex'),
    cartridge_digest: cartridgeDigest(engine.cartridge.dir),
    inflection: { cells: inflection.cells, right: inflection.right, accuracy: inflection.accuracy },
    ...(analysis ? { analysis: { rows: analysis.rows, found: analysis.found, recall: analysis.recall } } : {}),
  };
  process.stderr.write(`${iso}: inflection ${inflection.accuracy}% (${inflection.right}/${inflection.cells})${analysis ? `, analysis ${analysis.recall}% (${analysis.found}/${analysis.rows})` : ''}\n`);
}
if (only === undefined) {
  writeFileSync(out, `${JSON.stringify(measuredFileSchema.parse(result), null, 2)}\n`);
  process.stderr.write(`wrote ${path.relative(packageRoot, out)}\n`);
} else {
  process.stderr.write(`measured ${Object.keys(result.languages).join(', ') || 'nothing'} (--language: ${path.relative(packageRoot, out)} not written)\n`);
}
