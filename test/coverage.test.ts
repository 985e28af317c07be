// Pins that coverage is computed from what a cartridge holds and how its golden tests score: changing the files changes the status.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { packageRoot } from '../src/config.js';
import { capabilityEvaluators, fileCapability } from '../src/coverage/capabilities.js';
import { CoverageService } from '../src/coverage/coverage.js';
import { cartridgeDigest, measuredFileSchema, readMeasured, type MeasuredFile } from '../src/coverage/measured-accuracy.js';
import { loadRoadmap, milestoneStatuses, nextMilestone } from '../src/coverage/roadmap.js';
import { MorphologyService } from '../src/morphology/service.js';
import { openLanguageCodes } from '../src/services.js';
import { tempDir } from './helpers.js';

const codes = openLanguageCodes();
const source = path.join(packageRoot, 'languages');
const measuredFile = path.join(packageRoot, 'reference', 'measured-accuracy.json');

/** Coverage of the cartridges in `dir`, computed afresh. */
function coverageOf(dir: string, evaluators = capabilityEvaluators, measured: () => MeasuredFile | undefined = () => readMeasured(measuredFile)) {
  return new CoverageService({ morphology: () => MorphologyService.load(dir, codes), codes, measured, evaluators });
}

/** A measured-accuracy file for the cartridge in `dir` as it is now. */
function measuredNow(iso: string, dir: string, accuracy: number): MeasuredFile {
  const figure = { dataset: `unimorph/${iso}.dev.tsv`, dataset_sha256: '0'.repeat(64), cartridge_digest: cartridgeDigest(dir) };
  return {
    generated_by: 'test',
    measured_at: '2026-03-10T12:00:00.000Z',
    languages: { [iso]: { ...figure, inflection: { cells: 100, right: accuracy, accuracy }, analysis: { rows: 100, found: accuracy, recall: accuracy } } },
  };
}

describe('coverage computed from cartridges', () => {
  const dirs: string[] = [];
  after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
  const fresh = () => {
    const d = tempDir('lugha-coverage-');
    dirs.push(d);
    return d;
  };

  it('adding a part to a cartridge changes its computed coverage', () => {
    const dir = fresh();
    mkdirSync(path.join(dir, 'bem'));
    cpSync(path.join(source, 'bem', 'cartridge.yaml'), path.join(dir, 'bem', 'cartridge.yaml'));
    const before = coverageOf(dir).find('bem')!;
    assert.equal(before.capabilities.metadata!.level, 'complete');
    assert.equal(before.capabilities.syllables!.level, 'none');
    assert.equal(before.level, 'declared');

    // A phonology file whose every syllable type is confirmed by its example makes syllables complete.
    cpSync(path.join(source, 'swh', 'phonology.yaml'), path.join(dir, 'bem', 'phonology.yaml'));
    const withPhonology = coverageOf(dir).find('bem')!;
    assert.equal(withPhonology.capabilities.syllables!.level, 'complete');
    assert.equal(withPhonology.level, 'complete');
    assert.ok(withPhonology.files.includes('phonology.yaml'));

    // An example that no longer shows its syllable type drops it to partial.
    const text = readFileSync(path.join(dir, 'bem', 'phonology.yaml'), 'utf8').replace('{ template: NCwV, example: mbwa }', '{ template: NCwV, example: kaka }');
    writeFileSync(path.join(dir, 'bem', 'phonology.yaml'), text);
    const broken = coverageOf(dir).find('bem')!;
    assert.equal(broken.capabilities.syllables!.level, 'partial');
    assert.match(broken.capabilities.syllables!.evidence, /6 of 7 syllable types/);
  });

  it('scores verb conjugation by the golden tests and the measured accuracy, and notices a changed cartridge', () => {
    const dir = fresh();
    cpSync(path.join(source, 'swh'), path.join(dir, 'swh'), { recursive: true });
    // Cases whose gloss golden.yaml marks gloss_open do not pass (the sentence decides the sense); the copy leaves
    // them out so that every golden test passes, and one is marked again below.
    const goldenFile = path.join(dir, 'swh', 'golden.yaml');
    const lines = readFileSync(goldenFile, 'utf8').split('\n');
    writeFileSync(goldenFile, lines.filter((line) => !line.includes('gloss_open:')).join('\n'));
    const measured = measuredNow('swh', path.join(dir, 'swh'), 99);
    const full = coverageOf(dir, capabilityEvaluators, () => measured).find('sw')!;
    assert.equal(full.iso, 'swh');
    assert.equal(full.capabilities.verb_conjugation!.level, 'complete');
    assert.equal(full.capabilities.analysis!.level, 'complete');
    assert.equal(full.measured_accuracy?.stale, false);
    // Below the measured-accuracy bar: partial, whatever the golden tests say.
    const low = coverageOf(dir, capabilityEvaluators, () => measuredNow('swh', path.join(dir, 'swh'), 80)).find('swh')!;
    assert.equal(low.capabilities.verb_conjugation!.level, 'partial');
    assert.match(low.capabilities.verb_conjugation!.evidence, /UniMorph accuracy 80%/);

    // A gloss marked open: the form passes, the case does not, and verb conjugation is partial.
    const golden = path.join(dir, 'swh', 'golden.yaml');
    const original = readFileSync(golden, 'utf8');
    const glossed = /gloss: "([^"]+)"/.exec(original)!;
    writeFileSync(golden, original.replace(glossed[0], `gloss: "${glossed[1]} (wrong)", gloss_open: "a test's mark"`));
    const open = coverageOf(dir, capabilityEvaluators, () => measuredNow('swh', path.join(dir, 'swh'), 99)).find('swh')!;
    assert.equal(open.capabilities.verb_conjugation!.level, 'partial');
    assert.equal(open.golden_tests.passing, open.golden_tests.total - 1);

    // One wrong golden form: partial, and the measured figure is now stale.
    const first = /form: (\w+)/.exec(original)!;
    writeFileSync(golden, original.replace(first[0], `form: ${first[1]}x`));
    writeFileSync(path.join(dir, 'swh', 'lexicon.tsv'), `${readFileSync(path.join(dir, 'swh', 'lexicon.tsv'), 'utf8')}`.replace(/\n$/, '\n\n'));
    const wrong = coverageOf(dir, capabilityEvaluators, () => measured).find('swh')!;
    assert.equal(wrong.capabilities.verb_conjugation!.level, 'partial');
    assert.equal(wrong.golden_tests.passing, wrong.golden_tests.total - 1);
    assert.equal(wrong.measured_accuracy?.stale, true);
    assert.equal(wrong.capabilities.analysis!.level, 'partial', 'a stale analysis figure is not complete');

    // No golden tests at all: the grammar is declared, not tested.
    rmSync(golden);
    assert.equal(coverageOf(dir).find('swh')!.capabilities.verb_conjugation!.level, 'declared');
    // No grammar: none.
    rmSync(path.join(dir, 'swh', 'verbs.yaml'));
    rmSync(path.join(dir, 'swh', 'features.yaml'));
    const bare = coverageOf(dir).find('swh')!;
    assert.equal(bare.capabilities.verb_conjugation!.level, 'none');
    assert.equal(bare.capabilities.analysis!.level, 'none');
  });

  it('takes a new capability with one more evaluator, and the roadmap follows', () => {
    const dir = fresh();
    mkdirSync(path.join(dir, 'bem'));
    cpSync(path.join(source, 'bem', 'cartridge.yaml'), path.join(dir, 'bem', 'cartridge.yaml'));
    writeFileSync(path.join(dir, 'bem', 'hfst.yaml'), 'format: 1\n');
    const evaluators = [...capabilityEvaluators, fileCapability('transducer', 'transducer', 'HFST transducer', 'hfst.yaml')];
    const coverage = coverageOf(dir, evaluators).all();
    assert.equal(coverage[0]!.capabilities.transducer!.level, 'declared');
    const roadmap = loadRoadmap(path.join(packageRoot, 'docs', 'roadmap.yaml'));
    const transducers = milestoneStatuses(roadmap, coverage).find((m) => m.id === 'transducers')!;
    assert.equal(transducers.done, false);
    assert.match(transducers.evidence, /0 of 1 cartridges/);
    const without = milestoneStatuses(roadmap, coverageOf(dir).all()).find((m) => m.id === 'transducers')!;
    assert.match(without.evidence, /no evaluator measures "transducer" yet/);
  });

  it('reads the committed measured-accuracy file, generated for installed cartridges only', () => {
    const file = readMeasured(measuredFile);
    assert.ok(file, 'reference/measured-accuracy.json exists');
    measuredFileSchema.parse(file);
    const installed = new Set(
      coverageOf(source)
        .all()
        .map((c) => c.iso),
    );
    for (const iso of Object.keys(file.languages)) assert.ok(installed.has(iso), iso);
  });

  it('computes the next milestone from the coverage of the installed cartridges', () => {
    const roadmap = loadRoadmap(path.join(packageRoot, 'docs', 'roadmap.yaml'));
    const statuses = milestoneStatuses(roadmap, coverageOf(source).all());
    const engine = statuses.find((m) => m.id === 'engine')!;
    assert.deepEqual([engine.done, engine.basis], [true, 'computed']);
    const next = nextMilestone(statuses);
    assert.ok(next && !next.done);
    assert.ok(statuses.slice(0, statuses.indexOf(next)).every((m) => m.done));
    // With no cartridges at all, the first computed milestone is the next one.
    const empty = milestoneStatuses(roadmap, []);
    assert.equal(nextMilestone(empty)?.id, 'engine');
  });
});
