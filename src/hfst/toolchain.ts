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
  if (input.rules && input.cascade) {
    runHfst('hfst-regexp2fst', ['-S', '-o', file('rules.hfst'), input.rules]);
    const parts = path.join(input.outDir, `${input.name}.rule`);
    runHfst('hfst-split', ['-p', parts, '-i', file('rules.hfst')]);
    let current = generator;
    for (let i = 1; existsSync(`${parts}${i}.hfst`); i++) {
      const next = file(`step${i}.hfst`);
      runHfst('hfst-compose', ['-F', '-1', current, '-2', `${parts}${i}.hfst`, '-o', file('composed.hfst')]);
      runHfst('hfst-minimize', ['-i', file('composed.hfst'), '-o', next]);
      if (current !== file('lexc.hfst')) rmSync(current);
      rmSync(`${parts}${i}.hfst`);
      current = next;
    }
    generator = current;
  } else if (input.rules) {
    runHfst('hfst-regexp2fst', ['-S', '-o', file('rules.hfst'), input.rules]);
    runHfst('hfst-compose', ['-F', '-1', file('lexc.hfst'), '-2', file('rules.hfst'), '-o', file('composed.hfst')]);
    generator = file('composed.hfst');
  }
  runHfst('hfst-minimize', ['-i', generator, '-o', file('gen.hfst')]);
  runHfst('hfst-invert', ['-i', file('gen.hfst'), '-o', file('ana.hfst')]);
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
