// Pins the cartridge engine's verb readings offered to a learnt text model (src/text/engine-readings.ts, LearnedTextAnalyzer.offerReadings): asked only for tokens the model can only guess, they join its readings scored by the same ranker, lead when the model has nothing better, are not guesses, and the service offers them (isiZulu verb forms whose prefixes the annotated text lacks: docs/text-analysis.md "The engine's verb readings").
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { packageRoot } from '../src/config.js';
import { openLanguageCodes, openMorphology, textAnalyzerFactories } from '../src/services.js';
import { EngineReadings, type FallbackReadings } from '../src/text/engine-readings.js';
import { EngineTagCounter, engineTagsOf, textTagOf, withTextTags } from '../src/text/engine-tags.js';
import { LearnedTextAnalyzer } from '../src/text/learned-analyzer.js';
import { loadModel } from '../src/text/learned-model.js';
import { TextService } from '../src/text/service.js';
import type { TokenAnalysis } from '../src/text/types.js';

const languagesDir = path.join(packageRoot, 'languages');
const model = loadModel(path.join(languagesDir, 'zul', 'text'));
assert.ok(model, 'zul has a text model');

/** A stub fallback: one verb reading for every token it is asked about, and a record of what it was asked. */
function stub(): FallbackReadings & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    readings(token: string): TokenAnalysis[] {
      asked.push(token);
      return [
        {
          lemma: 'hamba',
          pos: 'V',
          word_class: 'verb',
          morphemes: [
            { surface: token.slice(0, -6), canonical: token.slice(0, -6), tag: 'subject:1sg' },
            { surface: 'hamb', canonical: 'hamba', tag: 'root' },
            { surface: 'ile', canonical: 'ile', tag: 'fv' },
          ],
          probability: 1,
          guess: false,
          source: 'rule',
          gloss: 'go',
          stem_source: 'stub',
        },
      ];
    },
  };
}

describe('readings offered to a learnt model', () => {
  it('are asked for a token whose learnt readings are all guesses, and join them, not a guess', () => {
    const analyzer = new LearnedTextAnalyzer(model);
    const before = analyzer.analyzeTokens(['sengihambile'], { all: true })[0]!;
    assert.ok(
      before.every((r) => r.guess),
      'the model alone only guesses sengihambile',
    );
    const fallback = stub();
    analyzer.offerReadings(fallback);
    const after = analyzer.analyzeTokens(['sengihambile'], { all: true })[0]!;
    assert.deepEqual(fallback.asked, ['sengihambile']);
    assert.equal(after.length, before.length + 1);
    const offered = after.find((r) => !r.guess)!;
    assert.equal(offered.lemma, 'hamba');
    assert.equal(offered.pos, 'V');
    assert.equal(offered.stem_source, 'stub');
    // The model's engine_tags (learnt from the annotated text) give the offered morphemes the text's tags.
    assert.deepEqual(
      offered.morphemes.slice(1).map((m) => m.tag),
      ['VRoot', 'VerbTerm'],
    );
    assert.equal(after[0], offered, 'without a better context it leads the guesses');
    const sum = after.reduce((s, r) => s + r.probability, 0);
    assert.ok(Math.abs(sum - 1) < 1e-9);
    for (let k = 1; k < after.length; k++) assert.ok(after[k - 1]!.probability >= after[k]!.probability);
  });

  it('are not asked for a token the model knows, and withdrawn with offerReadings(undefined)', () => {
    const analyzer = new LearnedTextAnalyzer(model);
    const fallback = stub();
    analyzer.offerReadings(fallback);
    analyzer.analyzeTokens(['Abantu', 'bayasebenza', '.']);
    assert.deepEqual(fallback.asked, []);
    analyzer.offerReadings(undefined);
    assert.ok(analyzer.analyzeTokens(['sengihambile'], { all: true })[0]!.every((r) => r.guess));
  });
});

describe("the engine's verb readings (isiZulu)", () => {
  const morphology = openMorphology({ languagesDir }, openLanguageCodes(), { only: ['zul'] });

  it("reads an exclusive perfect and a not-yet tense on the lexicon root, a relative verb as a relative (REL by the model's engine_tags)", () => {
    const engine = new EngineReadings('zul', morphology);
    const perfect = engine.readings('sengihambile');
    assert.equal(perfect[0]?.lemma, 'hamba');
    assert.deepEqual(
      perfect[0]!.morphemes.map((m) => m.surface),
      ['sengi', 'hamb', 'ile'],
    );
    assert.ok(engine.readings('akakahambi').some((r) => r.lemma === 'hamba' && r.morphemes.map((m) => m.surface).join('-') === 'a-ka-ka-hamb-i'));
    for (const readings of [perfect, engine.readings('akakahambi')]) {
      assert.ok(readings.every((r) => r.word_class === 'verb' && r.pos === 'V' && !r.guess));
    }
    const relative = engine.readings('ezelulekayo');
    assert.ok(relative.length > 0);
    assert.ok(relative.every((r) => r.word_class === 'relative'));
    const tags = engineTagsOf(model.meta);
    assert.ok(tags, 'the zul model has engine_tags');
    const tagged = withTextTags(relative[0]!, tags);
    assert.equal(tagged.pos, 'REL');
    assert.ok(tagged.morphemes.some((m) => m.tag === 'VRoot'));
  });

  it('the text service offers them to the learnt model: sengihambile and akakahambi are read as hamba', async () => {
    const service = new TextService({ morphology: () => morphology, factories: textAnalyzerFactories });
    const result = await service.analyzeText('zul', 'sengihambile akakahambi', { all: true });
    assert.ok(result.ok);
    assert.equal(result.value.analyzer, 'learned');
    const [perfect, notYet] = result.value.tokens;
    assert.equal(perfect!.analyses[0]!.lemma, 'hamba');
    assert.equal(perfect!.analyses[0]!.pos, 'V');
    assert.equal(perfect!.analyses[0]!.guess, false);
    // The cartridge's lexicon row (languages/zul/lexicon.tsv: hamba 'go, walk') gives its source and gloss.
    assert.equal(perfect!.analyses[0]!.stem_source, 'lugha-zul-lexicon');
    assert.match(perfect!.analyses[0]!.gloss ?? '', /go/);
    const hamba = notYet!.analyses.find((r) => r.lemma === 'hamba');
    assert.ok(hamba, 'akakahambi has the reading hamba');
    assert.equal(hamba.pos, 'V');
    assert.equal(hamba.guess, false);
  });
});

describe("the text's tags for the engine's morphemes (engine-tags.ts)", () => {
  it('learns a slot with a class as one row for every class, never a row that gives a reading another agreement, and a word class as its commonest POS', () => {
    const counter = new EngineTagCounter();
    const verb = (pre: string, tag: string) => ({
      word_class: 'verb',
      morphemes: [
        { surface: pre, canonical: pre, tag },
        { surface: 'bon', canonical: 'bona', tag: 'root' },
        { surface: 'a', canonical: 'a', tag: 'fv' },
      ],
    });
    const gold = (pre: string, tag: string, pos = 'V') => ({
      pos,
      morphemes: [
        { surface: pre, canonical: pre, tag },
        { surface: 'bon', canonical: 'bon', tag: 'VRoot' },
        { surface: 'a', canonical: 'a', tag: 'VerbTerm' },
      ],
    });
    for (let k = 0; k < 5; k++) {
      counter.add('babona', gold('ba', 'SC2'), verb('ba', 'subject:c2'));
      counter.add('zibona', gold('zi', 'SC8'), verb('zi', 'subject:c8'));
      // The engine reads i- as class 4 where the text has class 9, and si- as 1pl where it has class 7: both
      // concords are ambiguous and the engine offers each reading, so the class-4 reading keeps class 4.
      counter.add('ibona', gold('i', 'SC9'), verb('i', 'subject:c4'));
      counter.add('sibona', gold('si', 'SC7'), verb('si', 'subject:1pl'));
      // A morpheme of one slot that the text tags otherwise for every agreement (the infinitive's ku-) keeps its row.
      counter.add('ukubona', gold('uku', 'BPre15'), verb('uku', 'subject:infinitive'));
    }
    // Cut at other letters: no pairing of the first morpheme.
    counter.add('babona', gold('b', 'SC2'), verb('ba', 'subject:c2'));
    const table = counter.table();
    assert.equal(table.tags['subject:{id}'], 'SC{id}');
    assert.equal(table.tags['subject:c4'], undefined);
    assert.equal(table.tags['subject:1pl'], undefined);
    assert.equal(table.tags['subject:infinitive'], 'BPre15');
    assert.equal(table.tags.root, 'VRoot');
    assert.equal(table.pos.verb, 'V');
    assert.equal(textTagOf('subject:c15', table.tags), 'SC15', 'a class never met takes its slot row');
    assert.equal(textTagOf('subject:c4', table.tags), 'SC4');
    assert.equal(textTagOf('subject:1pl', table.tags), undefined, 'a person keeps the engine tag');
    assert.equal(textTagOf('tam:present', table.tags), undefined, 'a tag the table does not name');
    const reading = { pos: 'V', word_class: 'verb', morphemes: verb('zi', 'subject:c8').morphemes.concat({ surface: '', canonical: '', tag: 'tam:present' }) };
    assert.deepEqual(
      withTextTags(reading, table).morphemes.map((m) => m.tag),
      ['SC8', 'VRoot', 'VerbTerm', 'tam:present'],
    );
  });
});
