// Pins the HFST toolchain's two runners of one compilation: the asynchronous one (several tool processes at once, as `lugha hfst build --jobs` runs them) writes what the synchronous one writes, never runs more processes than its slots, and fails as the synchronous one does, after its steps have cleaned up.
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { compileLexc, compileLexcSteps, ProcessSlots, runSteps, runStepsAsync, type HfstSteps } from '../src/hfst/toolchain.js';
import { HFST_MISSING, hfstForTests, KIPO_LEXC } from './hfst-fixtures.js';
import { tempDir } from './helpers.js';

const hfst = hfstForTests();

/** A transducer file without its HFST header (which names the files it was made from). */
function body(file: string): Buffer {
  const bytes = readFileSync(file);
  assert.equal(bytes.subarray(0, 5).toString('latin1'), 'HFST\0', file);
  return bytes.subarray(8 + bytes.readUInt16LE(5));
}

describe('HFST compilation steps, run one after another or side by side', { skip: hfst ? false : HFST_MISSING }, () => {
  let dir: string;
  before(() => {
    dir = tempDir('lugha-hfst-toolchain-');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('compiles the same transducers either way', async () => {
    const serial = compileLexc({ lexc: KIPO_LEXC, outDir: dir, name: 'kipo-a', weighted: true });
    const slots = new ProcessSlots(2);
    // Two compilations side by side (a parallel group), as a build compiles a lexicon and its guesser.
    const both = function* (): HfstSteps<unknown> {
      return yield { parallel: [compileLexcSteps({ lexc: KIPO_LEXC, outDir: dir, name: 'kipo-b', weighted: true }), compileLexcSteps({ lexc: KIPO_LEXC, outDir: dir, name: 'kipo-c', weighted: true })] };
    };
    const [b, c] = (await runStepsAsync(both(), slots)) as Array<typeof serial>;
    for (const other of [b!, c!]) {
      assert.deepEqual(body(other.analyser), body(serial.analyser));
      assert.deepEqual(body(other.generator), body(serial.generator));
    }
    assert.equal(path.basename(b!.analyser), 'kipo-b.ana.hfstol');
  });

  it('runs no more processes at once than its slots, the lowest priority number first', async () => {
    const slots = new ProcessSlots(2);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const task = (priority: number) =>
      slots.run(priority, async () => {
        running++;
        most = Math.max(most, running);
        order.push(priority);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running--;
      });
    await Promise.all([task(5), task(4), task(3), task(1), task(2), task(0)]);
    assert.equal(most, 2);
    // The first two start at once; the others wait and are taken lowest number first.
    assert.deepEqual(order, [5, 4, 0, 1, 2, 3]);
    assert.throws(() => new ProcessSlots(0), /positive whole number/);
  });

  it('fails as the synchronous runner does, once the parallel group has settled, with the steps cleaned up', async () => {
    const cleaned: string[] = [];
    const failing = function* (label: string): HfstSteps<unknown> {
      try {
        return yield {
          parallel: [
            (function* (): HfstSteps<unknown> {
              return yield { tool: 'hfst-lexc', args: ['-q', '-o', path.join(dir, `${label}.hfst`), path.join(dir, 'no-such.lexc')] };
            })(),
            compileLexcSteps({ lexc: KIPO_LEXC, outDir: dir, name: `kipo-${label}` }),
          ],
        };
      } finally {
        cleaned.push(label);
      }
    };
    let syncError: Error | undefined;
    try {
      runSteps(failing('sync'));
    } catch (error) {
      syncError = error as Error;
    }
    assert.match(syncError?.message ?? '', /^hfst-lexc -q -o .* failed/);
    await assert.rejects(runStepsAsync(failing('async'), new ProcessSlots(2)), (error: Error) => error.message === syncError!.message.replace('sync.hfst', 'async.hfst'));
    assert.deepEqual(cleaned, ['sync', 'async']);
    // The other part of the group ran to its end before the failure was thrown.
    assert.ok(readFileSync(path.join(dir, 'kipo-async.ana.hfstol')).length > 0);
  });
});
