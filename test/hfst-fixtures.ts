/**
 * Transducers for the HFST tests, compiled during the test run by the HFST tools: the
 * Kipo test grammar (test/fixtures/hfst/kipo.lexc) and a seeded random lexicon.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileLexc, hfstToolsAvailable, runHfst, type CompiledModels } from '../src/hfst/toolchain.js';
import { skipOrFailInCi } from './environment.js';
// The fuzzer's seeded PRNG (mulberry32), so the random lexicon is the same every run.
import { prng } from './fuzzer.js';

export const KIPO_LEXC = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'hfst', 'kipo.lexc');

/** The skip message of the suites that need the HFST tools. */
export const HFST_MISSING = 'the HFST tools are not installed (Debian package hfst)';

/**
 * Whether the HFST tools are installed. `.ci/run` installs them, so in CI their absence
 * is a failure; elsewhere the suites that need them are skipped with HFST_MISSING.
 */
export function hfstForTests(): boolean {
  const available = hfstToolsAvailable();
  if (!available) skipOrFailInCi(HFST_MISSING);
  return available;
}

export interface KipoModels {
  unweighted: CompiledModels;
  weighted: CompiledModels;
}

/** Compiles Kipo into `dir`, unweighted and weighted. */
export function compileKipo(dir: string): KipoModels {
  return {
    unweighted: compileLexc({ lexc: KIPO_LEXC, outDir: dir, name: 'kipo' }),
    weighted: compileLexc({ lexc: KIPO_LEXC, outDir: dir, name: 'kipo-w', weighted: true }),
  };
}

/**
 * Compiles one xfst regular expression (`hfst-regexp2fst -S`) into `dir/<name>.hfstol`,
 * weighted (`hfst-fst2fst -w`) or not (`-O`); returns the file.
 */
export function compileRegex(dir: string, name: string, regex: string, weighted: boolean): string {
  const source = path.join(dir, `${name}.regex`);
  writeFileSync(source, `${regex}\n`);
  runHfst('hfst-regexp2fst', ['-S', '-o', path.join(dir, `${name}.hfst`), source]);
  const file = path.join(dir, `${name}.hfstol`);
  runHfst('hfst-fst2fst', [weighted ? '-w' : '-O', '-i', path.join(dir, `${name}.hfst`), '-o', file]);
  return file;
}

/**
 * A random lexicon with ambiguity, weights, a multi-code-point letter, tags and
 * P/N/R/D/U flags (among them a run of R flags on one feature, which the runtime dispatches as a
 * switch); compiled into `dir`. Returns the models and the (upper, lower) pairs
 * it accepts, read back with `hfst-fst2strings -X obey-flags`.
 */
export function compileRandomLexicon(dir: string, seed: number, stems: number, weighted: boolean): { models: CompiledModels; pairs: [string, string][] } {
  mkdirSync(dir, { recursive: true });
  const random = prng(seed);
  const letters = ['a', 'e', 'i', 'o', 'u', 'k', 't', 'm', 'n', 'ŋ', 'ɛ́', 'l', 's', 'b'];
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const stem = () => Array.from({ length: 2 + Math.floor(random() * 5) }, () => pick(letters)).join('');
  const weight = () => (random() < 0.5 ? '' : ` "weight: ${(Math.round(random() * 40) / 8).toString()}"`);
  const lines = [
    'Multichar_Symbols',
    '+N +V +Sg +Pl +Past +Pres +Neg +Prs +Pst +Fut +Hab ɛ́ @P.NEG.ON@ @R.NEG.ON@ @D.NEG.ON@ @U.G.X@ @U.G.Y@',
    '@P.T.PRS@ @P.T.PST@ @P.T.FUT@ @N.T.PRS@ @R.T.PRS@ @R.T.PST@ @R.T.FUT@',
    '',
    'LEXICON Root',
    'Stems ;',
    '@P.NEG.ON@:@P.NEG.ON@ka Stems ;',
    // Tense prefixes whose value only the verb ending's R flags test (a flag "switch"), and an N flag.
    '@P.T.PRS@:@P.T.PRS@na Stems ;',
    '@P.T.PST@:@P.T.PST@li Stems ;',
    '@P.T.FUT@:@P.T.FUT@ta Stems "weight: 0.25" ;',
    '@N.T.PRS@:@N.T.PRS@si Stems ;',
    '',
    'LEXICON Stems',
  ];
  for (let i = 0; i < stems; i++) {
    const s = stem();
    const cls = pick(['NounEnd', 'VerbEnd']);
    const gender = pick(['', '@U.G.X@', '@U.G.Y@']);
    lines.push(`${gender}${s}:${gender}${s} ${cls}${weight()} ;`);
  }
  lines.push(
    '',
    'LEXICON NounEnd',
    '@D.NEG.ON@+N+Sg:@D.NEG.ON@ # ;',
    `@D.NEG.ON@+N+Pl:@D.NEG.ON@@U.G.X@i # ;`,
    `@D.NEG.ON@+N+Pl:@D.NEG.ON@@U.G.Y@e # "weight: 0.5" ;`,
    '',
    'LEXICON VerbEnd',
    '+V+Pres:a Polarity ;',
    '+V+Past:ile Polarity "weight: 1.5" ;',
    '+V+Past:ilɛ́ Polarity "weight: 0.25" ;',
    '@R.T.PRS@+V+Prs:@R.T.PRS@a Polarity ;',
    '@R.T.PRS@+V+Prs+Hab:@R.T.PRS@aga Polarity ;',
    '@R.T.PST@+V+Pst:@R.T.PST@ile Polarity ;',
    '@R.T.FUT@+V+Fut:@R.T.FUT@a Polarity "weight: 0.75" ;',
    '',
    'LEXICON Polarity',
    '@D.NEG.ON@:@D.NEG.ON@ # ;',
    '@R.NEG.ON@+Neg:@R.NEG.ON@ # ;',
  );
  const lexc = path.join(dir, `random-${seed}.lexc`);
  writeFileSync(lexc, `${lines.join('\n')}\n`);
  const models = compileLexc({ lexc, outDir: dir, name: `random-${seed}${weighted ? '-w' : ''}`, weighted });
  const strings = runHfst('hfst-fst2strings', ['-X', 'obey-flags', path.join(dir, `random-${seed}${weighted ? '-w' : ''}.gen.hfst`)]).toString();
  const pairs = strings
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [upper, lower] = splitPair(line.replace(/\t.*$/, ''));
      return [upper, lower] as [string, string];
    });
  return { models, pairs };
}

/** Splits `hfst-fst2strings` output `upper:lower` (no colon in these lexicons' symbols). */
function splitPair(line: string): [string, string] {
  const at = line.indexOf(':');
  return at < 0 ? [line, line] : [line.slice(0, at), line.slice(at + 1)];
}

/** Words near `words`: each with one letter dropped or doubled, for unknown-word coverage. */
export function nearMisses(words: readonly string[], seed: number): string[] {
  const random = prng(seed);
  return words.map((w) => {
    const chars = [...w];
    const at = Math.floor(random() * chars.length);
    if (random() < 0.5) chars.splice(at, 1);
    else chars.splice(at, 0, chars[at] ?? 'a');
    return chars.join('');
  });
}

/**
 * A models folder as an operator would set it up for a third-party analyser: Kipo's
 * weighted analyser and generator and its unweighted analyser, each with a manifest.
 */
export function kipoModelsFolder(dir: string): string {
  const build = path.join(dir, 'build');
  mkdirSync(build, { recursive: true });
  const models = path.join(dir, 'models');
  mkdirSync(models, { recursive: true });
  const kipo = compileKipo(build);
  const install = (name: string, from: string, direction: 'analyse' | 'generate', extra = '') => {
    writeFileSync(path.join(models, `${name}.hfstol`), readFileSync(from));
    writeFileSync(
      path.join(models, `${name}.model.yaml`),
      [
        `file: ${name}.hfstol`,
        'language: und',
        `direction: ${direction}`,
        'tags: "Apertium style: lemma<n><sg>, lemma<v><pres><neg>"',
        'licence: CC0-1.0',
        'source: test/fixtures/hfst/kipo.lexc (a synthetic test grammar)',
        extra,
      ].join('\n'),
    );
  };
  install('kipo-analyser', kipo.weighted.analyser, 'analyse');
  install('kipo-generator', kipo.weighted.generator, 'generate');
  install('kipo-plain-analyser', kipo.unweighted.analyser, 'analyse', 'description: the same analyser without weights');
  return models;
}
