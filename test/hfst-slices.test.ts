// Pins that an HFST lookup call gives the event loop a turn between inputs, so other requests are served while a long call runs, with the same answers.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { ModelRegistry } from '../src/hfst/models.js';
import { HfstService } from '../src/hfst/service.js';
import { HFST_MISSING, hfstForTests, kipoModelsFolder } from './hfst-fixtures.js';
import { tempDir } from './helpers.js';

const hfst = hfstForTests();

describe('HFST lookups in slices', { skip: hfst ? false : HFST_MISSING }, () => {
  let dir: string;
  let models: string;
  before(() => {
    dir = tempDir('lugha-hfst-slices-');
    models = kipoModelsFolder(dir);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const words = ['tɛ́ma', 'sítɛ́ma', 'bula', 'mibula', 'oo', 'tɛ́ma', 'bula', 'sítɛ́ma'];

  it('lets other work run between the inputs of one call', async () => {
    const service = new HfstService(ModelRegistry.scan([models]), { sliceMs: 0 });
    let others = 0;
    const pending = service.analyze({ model: 'kipo-analyser', inputs: words });
    // Work queued after the call started, as a second request's would be.
    const tick = () => {
      others++;
      if (others < words.length) setImmediate(tick);
    };
    setImmediate(tick);
    const result = await pending;
    assert.ok(result.ok);
    assert.ok(others >= words.length - 1, `other work ran ${others} times while ${words.length} inputs were looked up`);
  });

  it('answers the same as a call that never yields', async () => {
    const sliced = await new HfstService(ModelRegistry.scan([models]), { sliceMs: 0 }).analyze({ model: 'kipo-analyser', inputs: words });
    const whole = await new HfstService(ModelRegistry.scan([models]), { sliceMs: 1e9 }).analyze({ model: 'kipo-analyser', inputs: words });
    assert.ok(sliced.ok && whole.ok);
    // `oo` walks a cycle of the model until a cap stops it: on a slow machine the 80 ms cap, on a
    // fast one possibly the 2,000-result cap first, so how many results come back depends on the
    // machine. A truncated input is compared by being truncated, every other input whole.
    const comparable = (items: typeof sliced.value.items) => items.map((i) => (i.truncated ? { input: i.input, truncated: true } : i));
    assert.deepEqual(comparable(sliced.value.items), comparable(whole.value.items));
    assert.equal(sliced.value.model, whole.value.model);
    assert.ok(
      sliced.value.items.some((i) => i.truncated === undefined && i.results.length > 0),
      'untruncated words are compared whole',
    );
  });
});
