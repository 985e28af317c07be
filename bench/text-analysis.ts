/**
 * The learnt text analyser (src/text/learned-analyzer.ts), measured in one process:
 *  - model load time (reading and indexing languages/<iso>/text/) and the first analysis after it;
 *  - words per second through analyzeTokens, in sentences of 20 tokens, on the word forms of the
 *    training text in their frequency (rebuilt from the model's forms.tsv counts, shuffled with a
 *    fixed seed: the bench reads nothing outside the repository), or on a SADII file given with
 *    --text; baseline: MorphologyService.analyze (the cartridge engine) on the same words;
 *  - the same with the engine's verb readings offered for the tokens the model can only guess (as served);
 *  - words per second on words the model never saw (another language's forms, cache cold), alone and
 *    with the engine's verb readings offered;
 *  - RSS after loading and analysing, and with the four Nguni models (zul, xho, ssw, nbl) loaded
 *    and warm (what `lugha serve` holds for them), before the engine is loaded for the baseline.
 *
 *   npx tsx bench/text-analysis.ts [--language zul] [--seconds 5] [--text FILE] [--other xho]
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { packageRoot } from '../src/config.js';
import { EngineReadings } from '../src/text/engine-readings.js';
import { LearnedTextAnalyzer } from '../src/text/learned-analyzer.js';
import { loadModel } from '../src/text/learned-model.js';
import { parseSadii } from '../src/text/sadii.js';
import { openMorphology } from '../src/services.js';
import { printTable } from './lib.js';

const { values } = parseArgs({
  options: {
    language: { type: 'string', default: 'zul' },
    other: { type: 'string', default: 'xho' },
    seconds: { type: 'string', default: '5' },
    text: { type: 'string' },
  },
});
const seconds = Number(values.seconds);
const iso = values.language;
const modelDir = (language: string) => path.join(packageRoot, 'languages', language, 'text');

const rssMiB = () => process.memoryUsage().rss / 1048576;
const rssBefore = rssMiB();
let started = performance.now();
const model = loadModel(modelDir(iso));
const loadMs = performance.now() - started;
if (!model) throw new Error(`${iso} has no text model`);
const analyzer = new LearnedTextAnalyzer(model);
started = performance.now();
analyzer.analyzeTokens(['ngiyabonga']);
const firstMs = performance.now() - started;
// Reading the same files without indexing them: what any model must at least pay.
started = performance.now();
for (const f of ['readings.tsv', 'forms.tsv', 'prefixes.tsv', 'suffixes.tsv', 'pairs.tsv', 'lexicon.tsv', 'weights.tsv']) readFileSync(path.join(modelDir(iso), f), 'utf8').split('\n');
const readMs = performance.now() - started;

/** The words of the training text in their frequencies, from the model's counts, in a fixed-seed order. */
function wordsOf(dir: string): string[] {
  const words: string[] = [];
  for (const line of readFileSync(path.join(dir, 'forms.tsv'), 'utf8').split('\n').slice(1)) {
    if (!line) continue;
    const [form, list] = line.split('\t');
    const count = list!.split(' ').reduce((s, p) => s + Number(p.slice(p.lastIndexOf(':') + 1)), 0);
    for (let k = 0; k < count; k++) words.push(form!);
  }
  let seed = 1;
  for (let i = words.length - 1; i > 0; i--) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    const j = seed % (i + 1);
    [words[i], words[j]] = [words[j]!, words[i]!];
  }
  return words;
}
const words = values.text ? parseSadii(readFileSync(values.text, 'utf8')).flatMap((p) => p.tokens.map((t) => t.token)) : wordsOf(modelDir(iso));
const sentences: string[][] = [];
for (let i = 0; i < words.length; i += 20) sentences.push(words.slice(i, i + 20));

/** Words per second of `work` over `batches` (each a list of words) for about `seconds`. */
function wordRate(batches: string[][], work: (batch: string[]) => unknown, limit = seconds): number {
  const deadline = performance.now() + limit * 1000;
  const begin = performance.now();
  let done = 0;
  let i = 0;
  while (performance.now() < deadline) {
    const batch = batches[i++ % batches.length]!;
    work(batch);
    done += batch.length;
  }
  return done / ((performance.now() - begin) / 1000);
}

const retained: LearnedTextAnalyzer[] = [];
const cpuBefore = process.cpuUsage();
const wallBefore = performance.now();
const learnt = wordRate(sentences, (s) => analyzer.analyzeTokens(s));
// On a shared machine the wall-clock rate depends on the other load; the share of a CPU the run got says how much.
const cpuShare = (() => {
  const used = process.cpuUsage(cpuBefore);
  return (used.user + used.system) / 1000 / (performance.now() - wallBefore);
})();
const rssLearnt = rssMiB();
// Every Nguni text model loaded and warm on a sentence of its own training words.
for (const other of ['zul', 'xho', 'ssw', 'nbl']) {
  if (other === iso) continue;
  const loaded = loadModel(modelDir(other));
  if (!loaded) continue;
  const warm = new LearnedTextAnalyzer(loaded);
  const own = wordsOf(modelDir(other));
  for (let i = 0; i < Math.min(own.length, 2000); i += 20) warm.analyzeTokens(own.slice(i, i + 20));
  retained.push(warm);
}
const rssNguni = rssMiB();
const morphology = openMorphology({ languagesDir: path.join(packageRoot, 'languages') });
morphology.analyze('ngiyabonga', iso); // builds the engine's analyser once, outside the timing
const engine = wordRate(sentences, (s) => {
  for (const w of s) morphology.analyze(w, iso);
});

// As served (TextService): the engine's verb readings offered for the tokens the model can only guess.
const served = new LearnedTextAnalyzer(model);
served.offerReadings(new EngineReadings(iso, morphology));
const servedRate = wordRate(sentences, (s) => served.analyzeTokens(s));

// Unseen words: another language's forms that this model never saw, in sentences of 20, cache cold;
// `offered`: with the engine's verb readings offered, their cache cold too.
const otherWords = [...new Set(wordsOf(modelDir(values.other)))].filter((w) => !model.forms.has(w));
function unseenRate(offered: boolean): number {
  let done = 0;
  const begin = performance.now();
  const fresh = () => {
    const a = new LearnedTextAnalyzer(model!);
    if (offered) a.offerReadings(new EngineReadings(iso, morphology));
    return a;
  };
  let cold = fresh();
  for (let i = 0; performance.now() - begin < Math.min(seconds, 3) * 1000; i += 20) {
    if (i >= otherWords.length) {
      i = 0;
      cold = fresh();
    }
    const batch = otherWords.slice(i, i + 20);
    cold.analyzeTokens(batch);
    done += batch.length;
  }
  return done / ((performance.now() - begin) / 1000);
}
const unseenAlone = unseenRate(false);
const unseenOffered = unseenRate(true);

printTable(`Learnt text analyser (${iso}) in one process: ${words.length} words of the training text in sentences of 20, ${seconds} s each`, [
  { figure: 'words/s, learnt analyser vs cartridge engine', lugha: learnt, baseline: engine, unit: 'words/s' },
  { figure: 'words per CPU-second, learnt analyser (rate / CPU share)', lugha: learnt / Math.min(1, cpuShare), baseline: engine, unit: 'words/s' },
  { figure: "words/s, learnt analyser with the engine's verb readings offered (as served)", lugha: servedRate, baseline: engine, unit: 'words/s' },
  { figure: `words/s on unseen forms (${values.other} words), cold cache`, lugha: unseenAlone, baseline: engine, unit: 'words/s' },
  { figure: `words/s on unseen forms (${values.other} words), cold cache, engine's verb readings offered`, lugha: unseenOffered, baseline: engine, unit: 'words/s' },
  { figure: 'model load vs reading its files', lugha: loadMs, baseline: readMs, unit: 'ms' },
  { figure: 'first analysis after load', lugha: firstMs, baseline: firstMs, unit: 'ms' },
  { figure: 'RSS with the model loaded and warm vs before', lugha: rssLearnt, baseline: rssBefore, unit: 'MiB' },
  { figure: `RSS with the four Nguni models loaded and warm (${retained.length + 1}) vs before`, lugha: rssNguni, baseline: rssBefore, unit: 'MiB' },
]);
