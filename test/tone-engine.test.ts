// Pins the generic tone engine on synthetic tone data (no language's facts): each rule type where it applies and where it must not, melodies, morph tones, moras and the refusal to guess.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ToneEngine, type WordInput } from '../src/tone/engine.js';
import { stripTones } from '../src/tone/marks.js';
import { toneSchema } from '../src/cartridge/tone.js';

const SRC = 'synthetic-test-data';

function engine(extra: Record<string, unknown> = {}): ToneEngine {
  return new ToneEngine(
    toneSchema.parse({
      source: SRC,
      unlisted_morphs: { tone: 'toneless', source: SRC },
      depressors: { pattern: 'bh|d|z|g', source: SRC },
      lexical: [
        {
          source: SRC,
          entries: [
            { root: 'tek', tone: 'H' },
            { root: 'pat', tone: '0' },
            { root: 'dak', tone: 'H' },
            { root: 'tekelel', tone: 'H' },
            { root: 'tal', tone: 'L' },
          ],
        },
      ],
      ...extra,
    }),
  );
}

/** A word from slot:form pieces, e.g. 'subject:ku root:tek fv:a'. */
function word(spec: string, more: Partial<WordInput> = {}): WordInput {
  const morphs = spec.split(' ').map((piece) => {
    const [slot, form, id] = piece.split(':');
    return { slot: slot!, form: form!, ...(id ? { id } : {}) };
  });
  return { morphs, polarity: 'positive', wordClass: 'verb', ...more };
}

function marked(e: ToneEngine, input: WordInput): string {
  const out = e.analyseWord(input);
  assert.ok(out.ok, out.ok ? '' : out.message);
  return out.value.transcription_high;
}

const rule = (r: Record<string, unknown>) => ({ description: 'test rule', source: SRC, ...r });

describe('lexical and grammatical tone', () => {
  it('puts the root H on the root and leaves toneless units low', () => {
    const out = engine().analyseWord(word('subject:ku root:tek fv:a'));
    assert.ok(out.ok);
    assert.equal(out.value.transcription_high, 'kutéka');
    assert.equal(out.value.transcription, 'kùtékà');
    assert.deepEqual(
      out.value.units.map((u) => [u.text, u.morph, u.underlying, u.surface]),
      [
        ['ku', 'subject', '0', 'L'],
        ['te', 'root', 'H', 'H'],
        ['ka', 'fv', '0', 'L'],
      ],
    );
    assert.equal(out.value.units[1]!.underlying_from, 'root');
  });

  it('never guesses the tone of a root it has no record of', () => {
    const out = engine().analyseWord(word('subject:ku root:zzz fv:a'));
    assert.equal(out.ok, false);
    assert.equal(!out.ok && out.reason, 'root_tone_unknown');
  });

  it('analyses only the forms its coverage lists: other tenses, polarities and object forms get no tones', () => {
    const e = engine({ coverage: [{ tense: 'past', polarity: 'positive' }] });
    assert.ok(e.analyseWord(word('subject:a tam:na root:tek fv:a', { tense: 'past' })).ok);
    for (const input of [
      word('subject:a tam:na root:tek fv:a', { tense: 'future' }),
      word('subject:a tam:na root:tek fv:a', { tense: 'past', polarity: 'negative' }),
      word('subject:a tam:na object:mu root:tek fv:a', { tense: 'past' }),
    ]) {
      const out = e.analyseWord(input);
      assert.equal(out.ok, false);
      assert.equal(!out.ok && out.reason, 'form_not_covered');
    }
  });

  it('coverage limited to some subjects analyses those and refuses the others', () => {
    const e = engine({ coverage: [{ tense: 'future', polarity: 'positive', subject: ['c2'] }] });
    assert.ok(e.analyseWord(word('subject:ba:c2 tam:li root:tek fv:a', { tense: 'future' })).ok);
    const other = e.analyseWord(word('subject:a:c1 tam:li root:tek fv:a', { tense: 'future' }));
    assert.equal(other.ok, false);
    assert.equal(!other.ok && other.reason, 'form_not_covered');
    assert.match(!other.ok ? other.message : '', /subject c1/);
  });

  it('gives a listed grammatical morph its tone, only in the forms its condition names', () => {
    const e = engine({ morphs: [{ slot: 'tam', form: 'na', tone: 'H', when: { tense: ['past'] }, source: SRC }] });
    assert.equal(marked(e, word('subject:a tam:na root:pat fv:a', { tense: 'past' })), 'anápata');
    assert.equal(marked(e, word('subject:a tam:na root:pat fv:a', { tense: 'future' })), 'anapata');
  });

  it('a melody assigns H at its position for its tense and polarity only, and can replace the lexical tone', () => {
    const e = engine({
      melodies: [
        { id: 'final_h', when: { tense: ['subjunctive'], polarity: 'positive' }, assign: [{ position: 'stem_final', tone: 'H' }], source: SRC },
        { id: 'second', when: { tense: ['remote'] }, replaces_lexical: true, assign: [{ position: 'stem_second', tone: 'H' }], source: SRC },
      ],
    });
    assert.equal(marked(e, word('subject:a root:pat fv:e', { tense: 'subjunctive' })), 'apaté');
    assert.equal(marked(e, word('subject:a root:pat fv:e', { tense: 'subjunctive', polarity: 'negative' })), 'apate');
    assert.equal(marked(e, word('subject:a root:tek fv:a', { tense: 'remote' })), 'ateká');
    assert.equal(marked(e, word('subject:a root:tek fv:a', { tense: 'present' })), 'atéka');
  });

  it('stem_penult: the penult when it is in the stem, else the last unit of a one-unit stem', () => {
    const e = engine({
      lexical: [
        {
          source: SRC,
          entries: [
            { root: 't', tone: '0' },
            { root: 'pat', tone: '0' },
            { root: 'tekelel', tone: '0' },
          ],
        },
      ],
      melodies: [{ id: 'sp', when: {}, assign: [{ position: 'stem_penult', tone: 'H' }], source: SRC }],
    });
    assert.equal(marked(e, word('subject:ndi tam:ma root:t fv:i')), 'ndimatí');
    assert.equal(marked(e, word('subject:ndi tam:ma root:pat fv:a')), 'ndimapáta');
    assert.equal(marked(e, word('subject:ndi tam:ma root:tekelel fv:a')), 'ndimatekeléla');
  });

  it('counts moras when the unit is the mora: a long vowel carries two tones', () => {
    const e = engine({ unit: 'mora', lexical: [{ source: SRC, entries: [{ root: 'taal', tone: 'H0' }] }] });
    const out = e.analyseWord(word('subject:ku root:taal fv:a'));
    assert.ok(out.ok);
    assert.deepEqual(
      out.value.units.map((u) => u.text),
      ['ku', 'ta', 'a', 'la'],
    );
    assert.equal(out.value.transcription_high, 'kutáala');
  });

  it('the transcription has exactly the segments of the surface form', () => {
    const e = engine({ rules: [rule({ id: 'spread', type: 'spread', reach: 'unbounded' })] });
    const out = e.analyseWord(word('subject:ku root:tekelel fv:a'));
    assert.ok(out.ok);
    assert.equal(stripTones(out.value.transcription), out.value.surface);
    assert.equal(stripTones(out.value.transcription_high), out.value.surface);
  });
});

describe('tone rules: each where it applies and where it must not', () => {
  it('spread: one unit to the right', () => {
    const e = engine({ rules: [rule({ id: 'hts', type: 'spread', reach: 1 })] });
    const out = e.analyseWord(word('subject:ku root:tekelel fv:a'));
    assert.ok(out.ok);
    assert.equal(out.value.transcription_high, 'kutékélela');
    assert.deepEqual(out.value.units[2]!.rules, ['hts']);
    assert.equal(out.value.units[2]!.surface_from, 'root');
    assert.deepEqual(
      out.value.rules_applied.map((r) => r.id),
      ['hts'],
    );
  });

  it('spread: unbounded, or to the penult, or not onto the final unit', () => {
    const w = word('subject:ku root:tekelel fv:a');
    assert.equal(marked(engine({ rules: [rule({ id: 's', type: 'spread', reach: 'unbounded' })] }), w), 'kutékélélá');
    assert.equal(marked(engine({ rules: [rule({ id: 's', type: 'spread', reach: 'penult' })] }), w), 'kutékéléla');
    assert.equal(marked(engine({ rules: [rule({ id: 's', type: 'spread', reach: 3, not_final: true })] }), w), 'kutékéléla');
  });

  it('spread: stopped by a specified L, by a depressor onset, and absent where the word has no H', () => {
    const lowed = engine({
      morphs: [{ slot: 'fv', tone: 'L', source: SRC }],
      rules: [rule({ id: 's', type: 'spread', reach: 'unbounded' })],
    });
    assert.equal(marked(lowed, word('subject:ku root:tek fv:a')), 'kutéka');
    const depressed = engine({ rules: [rule({ id: 's', type: 'spread', reach: 'unbounded', blocked_by_depressor: true })] });
    assert.equal(marked(depressed, word('subject:ku root:tek extensions:ez fv:a')), 'kutékéza');
    assert.equal(marked(engine({ rules: [rule({ id: 's', type: 'spread', reach: 'unbounded' })] }), word('subject:ku root:tek extensions:ez fv:a')), 'kutékézá');
    const out = depressed.analyseWord(word('subject:ku root:pat fv:a'));
    assert.ok(out.ok);
    assert.equal(out.value.transcription_high, 'kupata');
    assert.deepEqual(out.value.rules_applied, []);
  });

  it('spread: only for the origins and tenses its condition names', () => {
    const e = engine({ rules: [rule({ id: 's', type: 'spread', reach: 1, when: { origin: ['tam'], tense: ['past'] } })], morphs: [{ slot: 'tam', form: 'na', tone: 'H', source: SRC }] });
    assert.equal(marked(e, word('subject:a tam:na root:pat fv:a', { tense: 'past' })), 'anápáta');
    assert.equal(marked(e, word('subject:a tam:na root:pat fv:a', { tense: 'present' })), 'anápata');
    assert.equal(marked(e, word('subject:a root:tekelel fv:a', { tense: 'past' })), 'atékelela');
  });

  it('shift: the H moves and leaves its unit; not past the reach, not onto a blocked unit', () => {
    const e = engine({ rules: [rule({ id: 'shift', type: 'shift', reach: 'penult' })] });
    const out = e.analyseWord(word('subject:ku root:tekelel fv:a'));
    assert.ok(out.ok);
    assert.equal(out.value.transcription_high, 'kutekeléla');
    assert.equal(out.value.units[1]!.underlying, 'H');
    assert.equal(out.value.units[1]!.surface, 'L');
    assert.equal(marked(e, word('subject:ku root:tek fv:a')), 'kutéka', 'already on the penult: no shift');
    const blocked = engine({ rules: [rule({ id: 'shift', type: 'shift', reach: 'final', blocked_by_depressor: true })] });
    assert.equal(marked(blocked, word('subject:ku root:tek extensions:ez fv:a')), 'kutekéza');
    const open = engine({ rules: [rule({ id: 'shift', type: 'shift', reach: 'final' })] });
    assert.equal(marked(open, word('subject:ku root:tek extensions:ez fv:a')), 'kutekezá');
  });

  it("Meeussen's rule: the second of two adjacent H tones goes; H L H is left alone", () => {
    const e = engine({ morphs: [{ slot: 'tam', form: 'na', tone: 'H', source: SRC }], rules: [rule({ id: 'meeussen', type: 'meeussen' })] });
    const out = e.analyseWord(word('subject:a tam:na root:tek fv:a'));
    assert.ok(out.ok);
    assert.equal(out.value.transcription_high, 'anáteka');
    assert.deepEqual(out.value.units[2]!.rules, ['meeussen']);
    assert.equal(marked(e, word('subject:a tam:na object:mu root:tek fv:a')), 'anámutéka');
  });

  it("Meeussen's rule, scope underlying: H H H -> H L L (an H after a deleted H goes too); surviving scope keeps it", () => {
    const morphs = [
      { slot: 'subject', form: 'ba', tone: 'H', source: SRC },
      { slot: 'tam', form: 'li', tone: 'H', source: SRC },
    ];
    const underlying = engine({ morphs, rules: [rule({ id: 'm', type: 'meeussen', scope: 'underlying' })] });
    const out = underlying.analyseWord(word('subject:ba tam:li root:tek fv:a'));
    assert.ok(out.ok);
    assert.equal(out.value.transcription_high, 'báliteka');
    assert.deepEqual(
      out.value.units.map((u) => u.rules),
      [[], ['m'], ['m'], []],
    );
    const surviving = engine({ morphs, rules: [rule({ id: 'm', type: 'meeussen', scope: 'surviving' })] });
    assert.equal(marked(surviving, word('subject:ba tam:li root:tek fv:a')), 'bálitéka');
    // Where no H follows an H (a toneless unit between), neither scope changes anything.
    assert.equal(marked(underlying, word('subject:ba object:mu root:tek fv:a')), 'bámutéka');
    const none = underlying.analyseWord(word('subject:ba object:mu root:tek fv:a'));
    assert.ok(none.ok);
    assert.deepEqual(none.value.rules_applied, []);
  });

  it('insert: adds an H at its position after the rules before it; not onto an H or a specified L, not where the condition fails', () => {
    const e = engine({ rules: [rule({ id: 'phrasal', type: 'insert', position: 'word_final', when: { tense: ['future'] } })] });
    const out = e.analyseWord(word('subject:ku root:pat fv:a', { tense: 'future' }));
    assert.ok(out.ok);
    assert.equal(out.value.transcription_high, 'kupatá');
    assert.equal(out.value.units[2]!.underlying, '0');
    assert.equal(out.value.units[2]!.surface_from, 'rule:phrasal');
    assert.equal(marked(e, word('subject:ku root:pat fv:a', { tense: 'past' })), 'kupata');
    const onH = engine({ melodies: [{ id: 'f', when: {}, assign: [{ position: 'word_final', tone: 'H' }], source: SRC }], rules: [rule({ id: 'phrasal', type: 'insert', position: 'word_final' })] });
    const already = onH.analyseWord(word('subject:ku root:pat fv:a'));
    assert.ok(already.ok);
    assert.deepEqual(already.value.rules_applied, []);
    const lowFinal = engine({ morphs: [{ slot: 'fv', tone: 'L', source: SRC }], rules: [rule({ id: 'phrasal', type: 'insert', position: 'word_final' })] });
    assert.equal(marked(lowFinal, word('subject:ku root:pat fv:a')), 'kupata');
    const toneless = engine({ rules: [rule({ id: 'd', type: 'insert', position: 'penult', only_if_toneless: true })] });
    assert.equal(marked(toneless, word('subject:ku root:pat fv:a')), 'kupáta');
    assert.equal(marked(toneless, word('subject:ku root:tek fv:a')), 'kutéka');
  });

  it('downstep: an H right after another H tone is downstepped; a single H plateau is not', () => {
    const e = engine({ morphs: [{ slot: 'tam', form: 'na', tone: 'H', source: SRC }], rules: [rule({ id: 'downstep', type: 'downstep' })] });
    assert.equal(marked(e, word('subject:a tam:na root:tek fv:a')), 'anáꜜtéka');
    const spread = engine({ rules: [rule({ id: 's', type: 'spread', reach: 2 }), rule({ id: 'downstep', type: 'downstep' })] });
    assert.equal(marked(spread, word('subject:ku root:tekelel fv:a')), 'kutékéléla');
  });

  it('depressor: lowers an H on a unit with a depressor onset, not on others', () => {
    const e = engine({ rules: [rule({ id: 'dep', type: 'depressor', effect: 'lower' })] });
    assert.equal(marked(e, word('subject:ku root:dak fv:a')), 'kudaka');
    assert.equal(marked(e, word('subject:ku root:tek fv:a')), 'kutéka');
  });

  it('depressor: shifts an H off a depressed unit to the next free one', () => {
    const e = engine({ rules: [rule({ id: 'dep', type: 'depressor', effect: 'shift' })] });
    assert.equal(marked(e, word('subject:ku root:dak fv:a')), 'kudaká');
    assert.equal(marked(e, word('subject:ku root:tek fv:a')), 'kutéka');
  });

  it('final lowering: an H on the final unit goes, but not from a non-final unit; a lone H may be spared', () => {
    const e = engine({ melodies: [{ id: 'f', when: {}, assign: [{ position: 'word_final', tone: 'H' }], source: SRC }], rules: [rule({ id: 'fl', type: 'final_lowering' })] });
    assert.equal(marked(e, word('subject:ku root:pat fv:a')), 'kupata');
    assert.equal(marked(e, word('subject:ku root:tek fv:a')), 'kutéka');
    const spared = engine({
      melodies: [{ id: 'f', when: {}, assign: [{ position: 'word_final', tone: 'H' }], source: SRC }],
      rules: [rule({ id: 's', type: 'spread', reach: 1 }), rule({ id: 'fl', type: 'final_lowering', only_multiply_linked: true })],
    });
    assert.equal(marked(spared, word('subject:ku root:pat fv:a')), 'kupatá');
    const spreadThenLower = engine({ rules: [rule({ id: 's', type: 'spread', reach: 1 }), rule({ id: 'fl', type: 'final_lowering', only_multiply_linked: true })] });
    assert.equal(marked(spreadThenLower, word('root:tek fv:a')), 'téka');
  });

  it('rules apply in the order listed: spread then Meeussen differs from Meeussen then spread', () => {
    const base = { morphs: [{ slot: 'subject', form: 'ba', tone: 'H', source: SRC }] };
    const spreadFirst = engine({ ...base, rules: [rule({ id: 's', type: 'spread', reach: 1 }), rule({ id: 'm', type: 'meeussen' })] });
    const meeussenFirst = engine({ ...base, rules: [rule({ id: 'm', type: 'meeussen' }), rule({ id: 's', type: 'spread', reach: 1 })] });
    assert.equal(marked(spreadFirst, word('subject:ba root:pat fv:a')), 'bápáta');
    assert.equal(marked(meeussenFirst, word('subject:ba root:tek fv:a')), 'bátéka');
    assert.equal(marked(spreadFirst, word('subject:ba root:tek fv:a')), 'báteka');
  });
});
