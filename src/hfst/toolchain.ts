/**
 * The HFST command-line tools (Debian package `hfst`) as a build step: compile lexc and
 * optional xfst replace rules into a generator and an analyser in optimized-lookup form.
 * Only building needs them; looking up runs in TypeScript (transducer.ts).
 *
 * A compilation is written once, as steps (a generator that yields each tool run and receives
 * its output), and run either synchronously (`runSteps`: one tool after another) or
 * asynchronously (`runStepsAsync`: independent steps side by side, as many tool processes at
 * once as a `ProcessSlots` allows), so that several compilations can use every core.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
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

/** One run of an HFST tool, as a step yields it; the step is resumed with the tool's standard output. */
export interface HfstRun {
  tool: string;
  args: string[];
  input?: string | Buffer;
  cwd?: string;
}

/** Independent steps: run one after another by `runSteps`, side by side by `runStepsAsync`; resumed with their results, in order. */
export interface HfstParallel {
  parallel: ReadonlyArray<HfstSteps<unknown>>;
}

/** A compilation as steps: yields tool runs (and groups of independent steps), returns its result. */
export type HfstSteps<T> = Generator<HfstRun | HfstParallel, T, unknown>;

/** Runs steps one tool at a time, synchronously. A failing tool's error is thrown into the steps (their `finally` blocks run) and out. */
export function runSteps<T>(steps: HfstSteps<T>): T {
  let next = steps.next();
  while (!next.done) {
    const step = next.value;
    let output: unknown;
    try {
      output = 'parallel' in step ? step.parallel.map((part) => runSteps(part)) : runHfst(step.tool, step.args, step);
    } catch (error) {
      next = steps.throw(error);
      continue;
    }
    next = steps.next(output);
  }
  return next.value;
}

/**
 * At most `size` HFST processes at once, shared by every compilation run with it. A waiting
 * step of a lower `priority` number gets the next free slot first (a build gives its first
 * language's steps precedence, so that language finishes first and frees its memory).
 */
export class ProcessSlots {
  #free: number;
  readonly #waiting: Array<{ priority: number; order: number; start: () => void }> = [];
  #order = 0;

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1) throw new Error(`process slots: a positive whole number, not ${size}`);
    this.#free = size;
  }

  /** Runs `task` when a slot is free, and frees the slot when it settles. */
  async run<T>(priority: number, task: () => Promise<T>): Promise<T> {
    if (this.#free > 0) this.#free--;
    else await new Promise<void>((start) => this.#waiting.push({ priority, order: this.#order++, start }));
    try {
      return await task();
    } finally {
      const waiting = this.#waiting;
      if (waiting.length === 0) this.#free++;
      else {
        let best = 0;
        for (let i = 1; i < waiting.length; i++) {
          const w = waiting[i]!;
          const b = waiting[best]!;
          if (w.priority < b.priority || (w.priority === b.priority && w.order < b.order)) best = i;
        }
        waiting.splice(best, 1)[0]!.start();
      }
    }
  }
}

/**
 * Runs steps asynchronously: each tool as a child process when `slots` has room (at `priority`),
 * the parts of a parallel group side by side. A failing tool's error is thrown into the steps
 * once every part of its group has settled (so no tool still writes where a `finally` cleans up).
 */
export async function runStepsAsync<T>(steps: HfstSteps<T>, slots: ProcessSlots, priority = 0): Promise<T> {
  let next = steps.next();
  while (!next.done) {
    const step = next.value;
    let output: unknown;
    try {
      if ('parallel' in step) {
        const settled = await Promise.allSettled(step.parallel.map((part) => runStepsAsync(part, slots, priority)));
        const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
        if (failed) throw failed.reason;
        output = settled.map((r) => (r as PromiseFulfilledResult<unknown>).value);
      } else output = await slots.run(priority, () => runHfstAsync(step.tool, step.args, step));
    } catch (error) {
      next = steps.throw(error);
      continue;
    }
    next = steps.next(output);
  }
  return next.value;
}

/** `runHfst` as a child process that does not block: resolves with its standard output; rejects with its stderr as `runHfst` throws. */
export function runHfstAsync(tool: string, args: string[], options: { input?: string | Buffer; cwd?: string } = {}): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    // A tool that exits without reading its input closes the pipe: that is its exit status's business, not an error here.
    child.stdin.on('error', () => {});
    const fail = (detail: string) => reject(new Error(`${tool} ${args.join(' ')} failed${detail ? `: ${detail}` : ''}`));
    child.on('error', (error) => fail(error.message));
    child.on('close', (code, signal) => {
      if (code === 0) resolve(Buffer.concat(stdout));
      else fail(Buffer.concat(stderr).toString().trim() || (signal ? `killed by ${signal}` : ''));
    });
    child.stdin.end(options.input ?? '');
  });
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
  return runSteps(compileRuleCascadeSteps(rules, outDir, name));
}

/** `compileRuleCascade` as steps. */
export function* compileRuleCascadeSteps(rules: string, outDir: string, name: string): HfstSteps<string[]> {
  const compiled = path.join(outDir, `${name}.rules.hfst`);
  yield { tool: 'hfst-regexp2fst', args: ['-S', '-o', compiled, rules] };
  const parts = path.join(outDir, `${name}.rule`);
  yield { tool: 'hfst-split', args: ['-p', parts, '-i', compiled] };
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
  return runSteps(compileLexcSteps(input));
}

/** `compileLexc` as steps. */
export function* compileLexcSteps(input: CompileInput): HfstSteps<CompiledModels> {
  const file = (suffix: string) => path.join(input.outDir, `${input.name}.${suffix}`);
  const run = (tool: string, args: string[], options: { input?: string } = {}): HfstRun => ({ tool, args, ...options });
  yield run('hfst-lexc', ['-q', '-o', file('lexc.hfst'), input.lexc]);
  let generator = file('lexc.hfst');
  if (input.ruleSteps || (input.rules && input.cascade)) {
    const shared = input.ruleSteps !== undefined;
    const steps = input.ruleSteps ?? (yield* compileRuleCascadeSteps(input.rules!, input.outDir, input.name));
    let current = generator;
    for (const [i, step] of steps.entries()) {
      const next = file(`step${i + 1}.hfst`);
      yield run('hfst-compose', ['-F', '-1', current, '-2', step, '-o', file('composed.hfst')]);
      yield run('hfst-minimize', ['-i', file('composed.hfst'), '-o', next]);
      if (current !== file('lexc.hfst')) rmSync(current);
      if (!shared) rmSync(step);
      current = next;
    }
    generator = current;
  } else if (input.rules) {
    yield run('hfst-regexp2fst', ['-S', '-o', file('rules.hfst'), input.rules]);
    yield run('hfst-compose', ['-F', '-1', file('lexc.hfst'), '-2', file('rules.hfst'), '-o', file('composed.hfst')]);
    generator = file('composed.hfst');
  }
  yield run('hfst-minimize', ['-i', generator, '-o', file('gen.hfst')]);
  yield run('hfst-invert', ['-i', file('gen.hfst'), '-o', file('ana.hfst')]);
  if (input.analyserInput !== undefined) {
    yield run('hfst-regexp2fst', ['-S', '-o', file('input.hfst')], { input: `${input.analyserInput} ;\n` });
    yield run('hfst-compose', ['-F', '-1', file('input.hfst'), '-2', file('ana.hfst'), '-o', file('composed.hfst')]);
    yield run('hfst-minimize', ['-i', file('composed.hfst'), '-o', file('ana.hfst')]);
  }
  const mode = input.weighted ? '-w' : '-O';
  yield run('hfst-fst2fst', [mode, '-i', file('gen.hfst'), '-o', file('gen.hfstol')]);
  yield run('hfst-fst2fst', [mode, '-i', file('ana.hfst'), '-o', file('ana.hfstol')]);
  if (!existsSync(file('ana.hfstol'))) throw new Error('hfst-fst2fst wrote no analyser');
  return { generator: file('gen.hfstol'), analyser: file('ana.hfstol') };
}
