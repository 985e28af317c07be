// Pins the TypeScript optimized-lookup runtime output-for-output against hfst-optimized-lookup on transducers the HFST tools compile in this run.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { formatLookupBlock, formatWeight } from '../src/hfst/lookup-format.js';
import { packSwitch, switchTarget } from '../src/hfst/flags.js';
import { HfstFormatError, Transducer, type LookupOptions } from '../src/hfst/transducer.js';
import { compileKipo, compileRandomLexicon, compileRegex, HFST_MISSING, hfstForTests, nearMisses, type KipoModels } from './hfst-fixtures.js';
import { tempDir } from './helpers.js';

const hfst = hfstForTests();

/** hfst-optimized-lookup's output for `words` on `file`. */
function reference(file: string, words: readonly string[], args: string[] = []): string {
  const run = spawnSync('hfst-optimized-lookup', ['--pipe-mode=input', ...args, file], { input: words.map((w) => `${w}\n`).join(''), maxBuffer: 1 << 28 });
  if (run.status !== 0) throw new Error(`hfst-optimized-lookup exited with ${run.status}: ${run.stderr.toString()}`);
  return run.stdout.toString();
}

/** The same lookup through the TypeScript runtime, printed in the same format. */
function ours(file: string, words: readonly string[], args: string[] = []): string {
  const transducer = Transducer.load(readFileSync(file));
  const options: LookupOptions = { unique: args.includes('-u') };
  const n = args.indexOf('-n');
  if (n >= 0) options.nBest = Number(args[n + 1]);
  const b = args.indexOf('-b');
  if (b >= 0) options.beam = Number(args[b + 1]);
  const format = { weighted: transducer.info.weighted, showWeights: args.includes('-w') };
  const text = words.map((w) => formatLookupBlock(w, transducer.lookup(w, options), format)).join('');
  transducer.dispose();
  return text;
}

const optionSets = [[], ['-w'], ['-u'], ['-n', '1', '-w'], ['-b', '0.5', '-w']];

describe('optimized-lookup runtime against hfst-optimized-lookup', { skip: hfst ? false : HFST_MISSING }, () => {
  let dir: string;
  let kipo: KipoModels;
  before(() => {
    dir = tempDir('lugha-hfst-');
    kipo = compileKipo(dir);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const kipoWords = [
    'bula',
    'mibula',
    'babula',
    'mitɛ́ma',
    'batɛ́ma',
    'baŋgɔ̌',
    'miŋgɔ̌',
    'ŋgɔ̌',
    'tɛ́ma',
    'sítɛ́ma',
    'sítɛ́mako',
    'tɛ́makoɛ́',
    'sítɛ́makoɛ́',
    'bulilɛ́',
    'bulile',
    'sibulilɛ́',
    'sítɛ́mile',
    'kɔ̌la',
    'kɔla',
    'kɛla',
    'kɛ́la',
    'xyz',
    '',
    'tɛ́ma tɛ́ma',
  ];

  it('analyses Kipo (flags, weights, multi-code-point symbols) exactly as the C++ tool, with every output option', () => {
    for (const file of [kipo.unweighted.analyser, kipo.weighted.analyser]) {
      for (const args of optionSets) {
        assert.equal(ours(file, kipoWords, args), reference(file, kipoWords, args), `${path.basename(file)} ${args.join(' ')}`);
      }
    }
  });

  it('generates Kipo forms exactly as the C++ tool', () => {
    const analyses = ['bula<n><sg>', 'bula<n><pl>', 'tɛ́m<v><pres>', 'tɛ́m<v><past>', 'tɛ́m<v><pres><neg>', 'tɛ́m<v><pres><q><emph>', 'ŋgɔ̌<n><pl>', 'bul<v><pres><emph>', 'kɔ̌l<v><past>'];
    for (const file of [kipo.unweighted.generator, kipo.weighted.generator]) {
      for (const args of optionSets) assert.equal(ours(file, analyses, args), reference(file, analyses, args), `${path.basename(file)} ${args.join(' ')}`);
    }
  });

  it('reads the flag-guarded forms a user would expect and refuses the ones the flags exclude', () => {
    const t = Transducer.load(readFileSync(kipo.weighted.analyser));
    assert.deepEqual(
      t.lookup('sítɛ́ma').results.map((r) => r.output),
      ['tɛ́m<v><pres><neg>'],
    );
    assert.deepEqual(t.lookup('mitɛ́ma').results, [], 'mi- (class A) must not unify with a class B stem');
    assert.deepEqual(
      t.lookup('sítɛ́makoɛ́').results.map((r) => r.output),
      ['tɛ́m<v><pres><neg><q><emph>'],
      'the clitic clears NEG',
    );
    assert.deepEqual(
      t.lookup('tɛ́ma').results.map((r) => [r.output, r.weight]),
      [
        ['tɛ́m<v><pres>', 0],
        ['tɛ́ma<n><sg>', 3],
      ],
    );
    assert.equal(t.lookup('kɛ́la').tokenized, true);
    assert.equal(t.lookup('xyz').tokenized, false);
  });

  it('stops on the input-epsilon cycle with the best analyses the C++ weighted tool gives, and says it stopped', () => {
    const t = Transducer.load(readFileSync(kipo.weighted.analyser));
    const result = t.lookup('oo', { maxDepth: 40 });
    assert.equal(result.truncated, 'depth');
    const cxx = reference(kipo.weighted.analyser, ['oo'], ['-w']).split('\n').filter(Boolean);
    const got = formatLookupBlock('oo', result, { weighted: true, showWeights: true }).split('\n').filter(Boolean);
    assert.ok(got.length > 30);
    assert.deepEqual(got, cxx.slice(0, got.length));
    // The unweighted file has the same cycle (the C++ unweighted tool crashes on it): bounded, and complete up to the bound.
    const u = Transducer.load(readFileSync(kipo.unweighted.analyser));
    const bounded = u.lookup('oo', { maxDepth: 12 });
    assert.equal(bounded.truncated, 'depth');
    assert.deepEqual(new Set(bounded.results.map((r) => r.output)), new Set(Array.from({ length: 10 }, (_, n) => `oo${'<emph>'.repeat(n)}<ij>`)));
    const capped = u.lookup('oo', { maxResults: 7 });
    assert.equal(capped.truncated, 'results');
    assert.equal(capped.results.length, 7);
  });

  for (const weighted of [false, true]) {
    it(`agrees with the C++ tool on every word of a random ${weighted ? 'weighted' : 'unweighted'} lexicon and on near misses`, () => {
      const { models, pairs } = compileRandomLexicon(path.join(dir, 'random'), weighted ? 11 : 7, 400, weighted);
      const surfaces = [...new Set(pairs.map(([, lower]) => lower))];
      assert.ok(surfaces.length > 500, `the random lexicon has ${surfaces.length} forms`);
      const words = [...surfaces, ...nearMisses(surfaces, 3)];
      for (const args of [[], ['-w'], ['-u', '-n', '2']]) {
        assert.equal(ours(models.analyser, words, args), reference(models.analyser, words, args), `analyser ${args.join(' ')}`);
      }
      const uppers = [...new Set(pairs.map(([upper]) => upper))].slice(0, 600);
      assert.equal(ours(models.generator, uppers, ['-w']), reference(models.generator, uppers, ['-w']), 'generator');
    });
  }

  it('keeps the lookahead where it cuts the search (analysers) and drops it where it does not (generators), with the same results', () => {
    const { models, pairs } = compileRandomLexicon(path.join(dir, 'weigh'), 11, 400, true);
    const uppers = [...new Set(pairs.map(([upper]) => upper))].slice(0, 600);
    const surfaces = [...new Set(pairs.map(([, lower]) => lower))];
    for (const [file, words, kept] of [
      [models.generator, uppers, false],
      [models.analyser, [...surfaces, ...nearMisses(surfaces, 5)], true],
    ] as const) {
      const expected = reference(file, words, ['-w']);
      const t = Transducer.load(readFileSync(file));
      const pass = () => words.map((w) => formatLookupBlock(w, t.lookup(w), { weighted: true, showWeights: true })).join('');
      assert.ok(t.usesLookahead);
      assert.equal(pass(), expected, 'with the lookahead');
      for (let i = 0; i < 40; i++) pass();
      assert.equal(t.usesLookahead, kept, path.basename(file));
      assert.equal(pass(), expected, 'after weighing it');
    }
  });

  it('reads a transducer compiled by hfst-regexp2fst, with or without the HFST3 header', () => {
    const file = compileRegex(dir, 'cycle', '[ [ 0:x ]* b ] | [ a:b::1.5 c ] | [ a:b::0.5 c:d ]', true);
    const t = Transducer.load(readFileSync(file));
    assert.deepEqual(t.lookup('ac').results, [
      { output: 'bd', weight: 0.5 },
      { output: 'bc', weight: 1.5 },
    ]);
    assert.deepEqual(formatLookupBlock('ac', t.lookup('ac'), { weighted: true, showWeights: true }), reference(file, ['ac'], ['-w']));
    const b = t.lookup('b', { maxDepth: 20 });
    assert.equal(b.truncated, 'depth');
    assert.deepEqual(
      b.results
        .map((r) => r.output)
        .sort((x, y) => x.length - y.length)
        .slice(0, 3),
      ['b', 'xb', 'xxb'],
    );
    // Strip the HFST3 header: the older header-less layout reads the same.
    const bytes = readFileSync(file);
    const headerless = bytes.subarray(8 + bytes.readUInt16LE(5));
    assert.deepEqual(Transducer.load(headerless).lookup('ac').results, t.lookup('ac').results);
  });

  it('reads symbols numbered past 31 behind ε arcs (the lookahead spans several words) as the C++ tool does', () => {
    const letters = [...'abcdefghijklmnopqrstuvwxyz', ...'αβγδεζηθικλμνξοπρστ'];
    // Every letter is reached through an ε-input arc, and the last letters get the highest symbol numbers.
    const file = compileRegex(dir, 'wide', `[ [ 0:x [ ${letters.join(' | ')} ] ]+ 0:y ] | [ 0:z τ ]`, false);
    const t = Transducer.load(readFileSync(file));
    assert.ok(t.info.inputSymbolCount > 40, `${t.info.inputSymbolCount} input symbols`);
    const words = ['a', 'τ', 'σ', 'ab', 'τa', 'aτ', 'στ', 'zστ', letters.join(''), [...letters].reverse().join(''), 'qq', 'ω'];
    assert.equal(ours(file, words), reference(file, words));
    assert.deepEqual(
      t.lookup('τ').results.map((r) => r.output),
      ['xτy', 'zτ'],
    );
  });

  it('gives many inputs their distinct outputs at once (outputsOfAll, the closure shared) exactly as the C++ tool', () => {
    const random = compileRandomLexicon(path.join(dir, 'closure'), 13, 400, true);
    const uppers = [...new Set(random.pairs.map(([upper]) => upper))];
    const surfaces = [...new Set(random.pairs.map(([, lower]) => lower))];
    const letters = [...'abcdefghijklmnopqrstuvwxyz', ...'αβγδεζηθικλμνξοπρστ'];
    const wide = compileRegex(dir, 'closure-wide', `[ [ 0:x [ ${letters.join(' | ')} ] ]+ 0:y ] | [ 0:z τ ] | [ 0:w 0:v a ]`, false);
    const cases: Array<[string, readonly string[]]> = [
      [kipo.unweighted.generator, ['bula<n><sg>', 'bula<n><pl>', 'tɛ́m<v><pres>', 'tɛ́m<v><pres><neg>', 'tɛ́m<v><pres><q><emph>', 'ŋgɔ̌<n><pl>', 'kɔ̌l<v><past>', 'bula<v><pres>', 'xyz']],
      [kipo.weighted.analyser, kipoWords],
      [random.models.generator, [...uppers, ...nearMisses(uppers, 3)]],
      [random.models.analyser, [...surfaces, ...nearMisses(surfaces, 3)]],
      [wide, ['a', 'τ', 'σ', 'ab', 'τa', 'aτ', 'στ', 'qq', 'ω', letters.join('')]],
    ];
    for (const [file, words] of cases) {
      const expected = new Map<string, string[]>();
      for (const line of reference(file, words).split('\n')) {
        const [input, output] = line.split('\t');
        if (input === undefined || output === undefined) continue;
        const list = expected.get(input) ?? [];
        // `word<TAB>word<TAB>+?`: no output.
        expected.set(input, line.endsWith('\t+?') || list.includes(output) ? list : [...list, output]);
      }
      const got = Transducer.load(readFileSync(file)).outputsOfAll(words);
      for (const w of words.filter((x) => x !== '')) {
        assert.deepEqual([...(got.get(w) ?? ['(missing)'])].sort(), [...(expected.get(w) ?? [])].sort(), `${path.basename(file)}: ${w}`);
      }
    }
    // A transducer with an input-epsilon cycle has no finite closure: each input is searched alone, bounded.
    const cycle = Transducer.load(readFileSync(compileRegex(dir, 'closure-cycle', '[ [ 0:x ]* b ] | [ a:b c ] | [ a:b c:d ]', false)));
    assert.deepEqual(cycle.outputsOfAll(['ac']).get('ac')?.sort(), ['bc', 'bd']);
  });

  it('keeps what hfst-optimized-lookup -u keeps: the first path found per output, ties in code point order', () => {
    // Two paths give "z": the one searched first is the heavier. Three outputs tie at 1.5 in an order that is not the code point order.
    const file = compileRegex(dir, 'unique', '[a:z::1.5 b:0] | [a:0 b:z::2] | [a:y b:y::1.5] | [a:x::1 b:0::0.5]', true);
    for (const args of [['-w'], ['-u', '-w'], ['-u', '-n', '2', '-w']]) assert.equal(ours(file, ['ab'], args), reference(file, ['ab'], args), args.join(' '));
    assert.deepEqual(Transducer.load(readFileSync(file)).lookup('ab', { unique: true }).results, [
      { output: 'x', weight: 1.5 },
      { output: 'yy', weight: 1.5 },
      { output: 'z', weight: 2 },
    ]);
  });

  it('refuses files that are not optimized-lookup transducers, saying how to convert them', () => {
    assert.throws(
      () => Transducer.load(readFileSync(path.join(dir, 'kipo.ana.hfst'))),
      (e: unknown) => e instanceof HfstFormatError && /hfst-fst2fst -O/.test(e.message),
    );
    const good = readFileSync(kipo.weighted.analyser);
    assert.throws(() => Transducer.load(good.subarray(0, good.length - 20)), HfstFormatError);
    assert.throws(() => Transducer.load(Buffer.from('not a transducer at all, just some text that is long enough to fill a header')), HfstFormatError);
  });
});

describe('weights print as the C++ tool prints floats', () => {
  it('uses six significant digits and no trailing zeros', () => {
    assert.deepEqual([0, 0.5, 3, 1.75, 2.25, 0.1 + 0.2, 1234567, 0.00001, 1 / 3, 4294967296].map(formatWeight), ['0', '0.5', '3', '1.75', '2.25', '0.3', '1.23457e+06', '1e-05', '0.333333', '4.29497e+09']);
  });
});

describe('flag switches', () => {
  it("find each value's group when values collide in the hash table, and send every other value past the run", () => {
    const table: number[] = [7, 7, 7]; // another switch before this one: offsets must be honoured
    // Values 1, 9, 17 and 25 all hash to slot 1 of an 8-slot table.
    const groups = [1, 9, 17, 25].map((value, i) => ({ value, start: 100 + 10 * i }));
    const at = packSwitch(table, 3, 500, groups);
    const packed = Int32Array.from(table);
    assert.equal(packed[at], 3, 'the feature');
    for (const g of groups) assert.equal(switchTarget(packed, at, g.value), g.start, `value ${g.value}`);
    for (const value of [0, 2, 33, -9]) assert.equal(switchTarget(packed, at, value), 500, `value ${value} (unset, absent or negative) skips the run`);
  });
});
