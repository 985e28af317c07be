/**
 * The HFST command-line tools (Debian package `hfst`) as a build step: compile lexc and
 * optional xfst replace rules into a generator and an analyser in optimized-lookup form.
 * Only building needs them; looking up runs in TypeScript (transducer.ts).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';

/** True when the HFST tools this module calls are on the PATH. */
export function hfstToolsAvailable(): boolean {
  return ['hfst-lexc', 'hfst-regexp2fst', 'hfst-split', 'hfst-compose', 'hfst-minimize', 'hfst-invert', 'hfst-fst2fst', 'hfst-optimized-lookup'].every(
    (tool) => spawnSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' }).status === 0,
  );
}

/** Runs one HFST tool; throws with its stderr when it fails. */
export function runHfst(tool: string, args: string[], options: { input?: string | Buffer; cwd?: string } = {}): Buffer {
  try {
    return execFileSync(tool, args, { input: options.input, cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'], maxBuffer: 1 << 30 });
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    throw new Error(`${tool} ${args.join(' ')} failed${stderr ? `: ${stderr}` : ''}`);
  }
}

export interface CompileInput {
  /** A lexc file: upper side = analysis, lower side = surface form. */
  lexc: string;
  /** An optional file of xfst replace rules (one regular expression, `-S` syntax) composed below the lexicon. */
  rules?: string;
  /** Where the intermediate and final files go. */
  outDir: string;
  /** Base name of the outputs: `<name>.gen.hfstol`, `<name>.ana.hfstol`. */
  name: string;
  /** Write weighted optimized-lookup files (`hfst-fst2fst -w`) instead of unweighted (`-O`). */
  weighted?: boolean;
  /**
   * The rules file is a cascade: `;`-separated regular expressions applied in order. Each is
   * composed with the lexicon in turn (and the result minimised), so every intermediate is
   * restricted to the lexicon's strings; composing the rules with each other first can be
   * orders of magnitude larger.
   */
  cascade?: boolean;
  /**
   * The cascade already compiled by `compileRuleCascade` (its steps, in order): used instead of
   * `rules`, so that transducers sharing the rules (the analyser's lexicon and the guesser's)
   * compile them once. The files are read, not removed.
   */
  ruleSteps?: readonly string[];
  /**
   * An xfst regular expression read as a rewrite of the analyser's input (upper side: what the user
   * writes, lower side: the generator's spelling), composed above the analyser: a spelling that leaves
   * optional marks out generates without them, and its analyser reads words with or without them.
   */
  analyserInput?: string;
}

/**
 * Compiles a cascade of `;`-separated xfst regular expressions (`hfst-regexp2fst -S`) once and
 * splits it into one file per step, in order, for `compileLexc({ ruleSteps })`. Compiling the
 * rules is a large share of a build's CPU (51 of 106 s of one compilation for the largest
 * cartridge, docs/hfst.md), and a grammar build compiles two lexicons with the same rules.
 */
export function compileRuleCascade(rules: string, outDir: string, name: string): string[] {
  const compiled = path.join(outDir, `${name}.rules.hfst`);
  runHfst('hfst-regexp2fst', ['-S', '-o', compiled, rules]);
  const parts = path.join(outDir, `${name}.rule`);
  runHfst('hfst-split', ['-p', parts, '-i', compiled]);
  rmSync(compiled);
  const steps: string[] = [];
  for (let i = 1; existsSync(`${parts}${i}.hfst`); i++) steps.push(`${parts}${i}.hfst`);
  return steps;
}

export interface CompiledModels {
  generator: string;
  analyser: string;
}

/**
 * lexc (∘ rules) → minimised generator; its inversion → analyser; both converted to
 * optimized lookup. `hfst-compose -F` harmonises flag diacritics (without it the
 * composition of a flagged lexicon with rules comes out empty).
 */
export function compileLexc(input: CompileInput): CompiledModels {
  const file = (suffix: string) => path.join(input.outDir, `${input.name}.${suffix}`);
  runHfst('hfst-lexc', ['-q', '-o', file('lexc.hfst'), input.lexc]);
  let generator = file('lexc.hfst');
  if (input.ruleSteps || (input.rules && input.cascade)) {
    const shared = input.ruleSteps !== undefined;
    const steps = input.ruleSteps ?? compileRuleCascade(input.rules!, input.outDir, input.name);
    let current = generator;
    steps.forEach((step, i) => {
      const next = file(`step${i + 1}.hfst`);
      runHfst('hfst-compose', ['-F', '-1', current, '-2', step, '-o', file('composed.hfst')]);
      runHfst('hfst-minimize', ['-i', file('composed.hfst'), '-o', next]);
      if (current !== file('lexc.hfst')) rmSync(current);
      if (!shared) rmSync(step);
      current = next;
    });
    generator = current;
  } else if (input.rules) {
    runHfst('hfst-regexp2fst', ['-S', '-o', file('rules.hfst'), input.rules]);
    runHfst('hfst-compose', ['-F', '-1', file('lexc.hfst'), '-2', file('rules.hfst'), '-o', file('composed.hfst')]);
    generator = file('composed.hfst');
  }
  runHfst('hfst-minimize', ['-i', generator, '-o', file('gen.hfst')]);
  runHfst('hfst-invert', ['-i', file('gen.hfst'), '-o', file('ana.hfst')]);
  if (input.analyserInput !== undefined) {
    runHfst('hfst-regexp2fst', ['-S', '-o', file('input.hfst')], { input: `${input.analyserInput} ;\n` });
    runHfst('hfst-compose', ['-F', '-1', file('input.hfst'), '-2', file('ana.hfst'), '-o', file('composed.hfst')]);
    runHfst('hfst-minimize', ['-i', file('composed.hfst'), '-o', file('ana.hfst')]);
  }
  const mode = input.weighted ? '-w' : '-O';
  runHfst('hfst-fst2fst', [mode, '-i', file('gen.hfst'), '-o', file('gen.hfstol')]);
  runHfst('hfst-fst2fst', [mode, '-i', file('ana.hfst'), '-o', file('ana.hfstol')]);
  if (!existsSync(file('ana.hfstol'))) throw new Error('hfst-fst2fst wrote no analyser');
  return { generator: file('gen.hfstol'), analyser: file('ana.hfstol') };
}

/**
 * Looks many inputs up at once with `hfst-optimized-lookup` (the reference implementation,
 * fast for generation through prefix-first transducers): input -> outputs (none when unknown).
 */
export function lookupBatch(file: string, inputs: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (inputs.length === 0) return out;
  const text = runHfst('hfst-optimized-lookup', ['--pipe-mode=input', file], { input: inputs.map((w) => `${w}\n`).join('') }).toString();
  for (const line of text.split('\n')) {
    const [input, output] = line.split('\t');
    if (!input || output === undefined) continue;
    const list = out.get(input) ?? [];
    if (!out.has(input)) out.set(input, list);
    if (!output.endsWith('+?')) list.push(output);
  }
  return out;
}
