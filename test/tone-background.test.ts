// Pins the tone service's background build (what `lugha serve` warms with): ToneService.openInBackground answers exactly as `new ToneService` does (languages, tonal pairs, minimal pairs), and the event loop keeps turning while it reads the data.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { packageRoot } from '../src/config.js';
import { openLanguageCodes, openMorphology } from '../src/services.js';
import { ToneService } from '../src/tone/service.js';

const languagesDir = path.join(packageRoot, 'languages');
const referenceDir = path.join(packageRoot, 'reference', 'tone');

describe('ToneService.openInBackground', () => {
  it('builds the same tone service as the constructor, letting timers run meanwhile', async () => {
    const codes = openLanguageCodes();
    const morphology = openMorphology({ languagesDir }, codes);
    const options = { morphology, codes, referenceDir };
    const direct = new ToneService(options);
    let turns = 0;
    let ticking = true;
    const tick = (): void => {
      turns++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const background = await ToneService.openInBackground(options, 5);
    ticking = false;
    const languages = direct.languages();
    assert.ok(languages.length > 10, 'the reference data covers many languages');
    assert.deepStrictEqual(background.languages(), languages);
    assert.deepStrictEqual(background.tonalPairs(), direct.tonalPairs());
    for (const { language } of languages.slice(0, 5)) assert.deepStrictEqual(background.minimalPairs({ language }), direct.minimalPairs({ language }));
    assert.ok(turns >= 5, `the event loop turned ${turns} times during the build`);
  });

  it('answers a tonal analysis without reading the tone data, and reads it once for callers that come during the read', async () => {
    const codes = openLanguageCodes();
    const morphology = openMorphology({ languagesDir }, codes);
    const tone = new ToneService({ morphology, codes, referenceDir });
    const analysed = tone.tonalAnalysis({ language: 'zul', root: 'bona', subject: '1sg', tense: 'present' });
    assert.ok(analysed.ok, 'zul has a tone engine');
    assert.ok(analysed.value.surface_form.length > 0);
    assert.equal(tone.loaded, false, 'a tonal analysis needs the engine only');
    const first = tone.loadInBackground(5);
    assert.equal(tone.loadInBackground(5), first, 'a second caller waits for the same read');
    await first;
    assert.equal(tone.loaded, true);
    assert.deepStrictEqual(tone.tonalPairs(), new ToneService({ morphology, codes, referenceDir }).tonalPairs());
  });
});
