// Pins the English glosses of conjugated verbs: every tense template in both polarities, pronouns and noun classes, reflexives, multi-word and irregular verbs, and English spelling rules.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { objectPlaces } from '../src/morphology/generator.js';
import {
  derivationSense,
  derivedVerb,
  englishGloss,
  glossTenses,
  objectPronoun,
  personalSense,
  resultState,
  subjectPronoun,
  type GlossObject,
  type GlossPerson,
  type GlossTense,
} from '../src/morphology/english-gloss.js';
import { ableForm, finiteForm, inflect, irregularVerbs, isIntransitive, isStative } from '../src/morphology/english-verbs.js';

const sheHe: GlossPerson = { person: 3, number: 'sg', nounClass: 1 };
const class7: GlossPerson = { person: 3, number: 'sg', nounClass: 7 };
const class8: GlossPerson = { person: 3, number: 'pl', nounClass: 8 };
const I: GlossPerson = { person: 1, number: 'sg' };
const you: GlossPerson = { person: 2, number: 'sg' };
const we: GlossPerson = { person: 1, number: 'pl' };
const youPl: GlossPerson = { person: 2, number: 'pl' };
const they: GlossPerson = { person: 3, number: 'pl' };

function gloss(verb: string, subject: GlossPerson, tense: GlossTense, polarity: 'positive' | 'negative' = 'positive', object?: GlossObject): string {
  return englishGloss({ verb, subject, tense, polarity, ...(object ? { object } : {}) });
}

/** tense -> [positive, negative] for 'she/he' + 'carry' + a class 7 object. */
const CARRY_IT: Record<GlossTense, [string, string]> = {
  infinitive: ['to carry it (class 7)', 'not to carry it (class 7)'],
  locative_infinitive: ['in carrying it (class 7)', 'in not carrying it (class 7)'],
  imperative: ['let her/him carry it (class 7)', 'let her/him not carry it (class 7)'],
  present: ['she/he carries it (class 7)', 'she/he does not carry it (class 7)'],
  present_progressive: ['she/he is carrying it (class 7)', 'she/he is not carrying it (class 7)'],
  persistive: ['she/he is still carrying it (class 7)', 'she/he is no longer carrying it (class 7)'],
  exclusive: ['she/he is now carrying it (class 7)', 'she/he is not now carrying it (class 7)'],
  general_present: ['she/he carries it (class 7)', 'she/he does not carry it (class 7)'],
  habitual: ['she/he usually carries it (class 7)', 'she/he does not usually carry it (class 7)'],
  past: ['she/he carried it (class 7)', 'she/he did not carry it (class 7)'],
  recent_past: ['she/he carried it (class 7) (today)', 'she/he did not carry it (class 7) (today)'],
  remote_past: ['she/he carried it (class 7) (long ago)', 'she/he did not carry it (class 7) (long ago)'],
  past_progressive: ['she/he was carrying it (class 7)', 'she/he was not carrying it (class 7)'],
  past_habitual: ['she/he used to carry it (class 7)', 'she/he did not use to carry it (class 7)'],
  immediate_past: ['she/he has just carried it (class 7)', 'she/he has not just carried it (class 7)'],
  perfect: ['she/he has carried it (class 7)', 'she/he has not carried it (class 7)'],
  not_yet: ['she/he has not yet carried it (class 7)', 'she/he has not yet carried it (class 7)'],
  state_not_yet: ['she/he does not yet carry it (class 7)', 'she/he does not yet carry it (class 7)'],
  exclusive_perfect: ['she/he has already carried it (class 7)', 'she/he has not already carried it (class 7)'],
  present_perfect_progressive: ['she/he has been carrying it (class 7)', 'she/he has not been carrying it (class 7)'],
  past_perfect: ['she/he had carried it (class 7)', 'she/he had not carried it (class 7)'],
  future: ['she/he will carry it (class 7)', 'she/he will not carry it (class 7)'],
  remote_future: ['she/he will carry it (class 7) (later)', 'she/he will not carry it (class 7) (later)'],
  future_progressive: ['she/he will be carrying it (class 7)', 'she/he will not be carrying it (class 7)'],
  future_perfect: ['she/he will have carried it (class 7)', 'she/he will not have carried it (class 7)'],
  conditional: ['she/he would carry it (class 7)', 'she/he would not carry it (class 7)'],
  past_conditional: ['she/he would have carried it (class 7)', 'she/he would not have carried it (class 7)'],
  conditional_progressive: ['she/he would be carrying it (class 7)', 'she/he would not be carrying it (class 7)'],
  past_conditional_progressive: ['she/he would have been carrying it (class 7)', 'she/he would not have been carrying it (class 7)'],
  conditional_perfect: ['she/he would have carried it (class 7)', 'she/he would not have carried it (class 7)'],
  subjunctive: ['that she/he carry it (class 7)', 'that she/he not carry it (class 7)'],
  consecutive: ['and then she/he carried it (class 7)', 'and then she/he did not carry it (class 7)'],
  situative: ['while she/he is carrying it (class 7)', 'if she/he does not carry it (class 7)'],
  participial: ['as she/he carries it (class 7)', 'as she/he does not carry it (class 7)'],
  potential: ['she/he can carry it (class 7)', 'she/he cannot carry it (class 7)'],
  conditional_clause: ['if she/he carries it (class 7)', 'if she/he does not carry it (class 7)'],
  relative: ['who carries it (class 7)', 'who does not carry it (class 7)'],
  relative_past: ['who carried it (class 7)', 'who did not carry it (class 7)'],
  relative_perfect: ['who has carried it (class 7)', 'who has not carried it (class 7)'],
  relative_not_yet: ['who has not yet carried it (class 7)', 'who has not yet carried it (class 7)'],
  relative_future: ['who will carry it (class 7)', 'who will not carry it (class 7)'],
  relative_progressive: ['who is carrying it (class 7)', 'who is not carrying it (class 7)'],
  relative_persistive: ['who is still carrying it (class 7)', 'who is no longer carrying it (class 7)'],
  relative_potential: ['who can carry it (class 7)', 'who cannot carry it (class 7)'],
};

describe('tense templates', () => {
  it('lists every template name once, in table order', () => {
    assert.deepEqual([...glossTenses], Object.keys(CARRY_IT));
    assert.equal(new Set(glossTenses).size, 44);
  });

  for (const tense of glossTenses) {
    it(`${tense}: positive and negative`, () => {
      const [positive, negative] = CARRY_IT[tense];
      assert.equal(gloss('carry', sheHe, tense, 'positive', class7), positive);
      assert.equal(gloss('carry', sheHe, tense, 'negative', class7), negative);
    });
  }

  it('leaves the object slot empty for an intransitive form', () => {
    assert.equal(gloss('love', sheHe, 'past'), 'she/he loved');
    assert.equal(gloss('sleep', you, 'imperative', 'negative'), 'do not sleep!');
  });

  it('throws on an unknown tense, listing the known ones', () => {
    assert.throws(
      () => gloss('love', sheHe, 'aorist' as GlossTense),
      (error: unknown) => error instanceof Error && error.message.includes('"aorist"') && glossTenses.every((name) => error.message.includes(name)),
    );
  });
});

describe('persons and noun classes', () => {
  it('names every person and number as a subject', () => {
    assert.deepEqual([I, you, sheHe, we, youPl, they].map(subjectPronoun), ['I', 'you', 'she/he', 'we', 'you (pl.)', 'they']);
    assert.equal(subjectPronoun({ person: 3, number: 'sg' }), 'she/he');
    assert.equal(subjectPronoun({ person: 3, number: 'pl', nounClass: 2 }), 'they');
  });

  it('names every person and number as an object', () => {
    assert.deepEqual(
      [I, you, sheHe, we, youPl, they].map((o) => objectPronoun(o, sheHe)),
      ['me', 'you', 'her/him', 'us', 'you (pl.)', 'them'],
    );
  });

  it('writes non-human classes with their number, as subject and object', () => {
    assert.equal(subjectPronoun(class7), 'it (class 7)');
    assert.equal(subjectPronoun(class8), 'they (class 8)');
    assert.equal(subjectPronoun({ person: 3, number: 'sg', nounClass: 15 }), 'it (class 15)');
    assert.equal(subjectPronoun({ person: 3, number: 'sg', nounClass: 16 }), 'it (class 16)');
    assert.equal(objectPronoun(class8, I), 'them (class 8)');
    assert.equal(objectPronoun({ person: 3, number: 'sg', nounClass: 15 }, I), 'it (class 15)');
  });

  it('lets `human` override the class', () => {
    assert.equal(subjectPronoun({ person: 3, number: 'sg', nounClass: 9, human: true }), 'she/he');
    assert.equal(subjectPronoun({ person: 3, number: 'sg', human: false }), 'it');
  });

  it('makes the verb agree with every subject', () => {
    assert.equal(gloss('love', I, 'present'), 'I love');
    assert.equal(gloss('love', you, 'present'), 'you love');
    assert.equal(gloss('love', sheHe, 'present'), 'she/he loves');
    assert.equal(gloss('love', class7, 'present'), 'it (class 7) loves');
    assert.equal(gloss('love', class8, 'present'), 'they (class 8) love');
    assert.equal(gloss('love', we, 'present', 'negative'), 'we do not love');
    assert.equal(gloss('love', youPl, 'perfect'), 'you (pl.) have loved');
    assert.equal(gloss('carry', they, 'present_progressive'), 'they are carrying');
    assert.equal(gloss('carry', I, 'present_progressive'), 'I am carrying');
    assert.equal(gloss('carry', class8, 'past_progressive', 'negative'), 'they (class 8) were not carrying');
  });

  it('glosses class 15 and locative class 16 subjects', () => {
    assert.equal(gloss('fall', { person: 3, number: 'sg', nounClass: 15 }, 'past'), 'it (class 15) fell');
    assert.equal(gloss('be', { person: 3, number: 'sg', nounClass: 16 }, 'present', 'negative'), 'it (class 16) is not');
  });

  it('uses "which" for a non-human relative and "who" otherwise', () => {
    assert.equal(gloss('love', class7, 'relative', 'positive', sheHe), 'which loves her/him');
    assert.equal(gloss('love', class8, 'relative', 'negative'), 'which do not love');
    assert.equal(gloss('love', we, 'relative'), 'we who love');
  });

  it('names a 1st or 2nd person subject of a relative: I who, you (pl.) who (issue 18, item 5)', () => {
    // kamusi.org, Use of the Relative Particle: niliyefika 'I who arrived', mliopika 'you (pl.) who cooked'.
    assert.equal(gloss('arrive', I, 'relative_past'), 'I who arrived');
    assert.equal(gloss('cook', youPl, 'relative_past'), 'you (pl.) who cooked');
    assert.equal(gloss('work', youPl, 'relative', 'negative'), 'you (pl.) who do not work');
    assert.equal(gloss('be', you, 'relative'), 'you who are');
    assert.equal(gloss('read', we, 'relative_progressive', 'positive', class7), 'we who are reading it (class 7)');
    // a 3rd person keeps the bare relative word: its head noun stands before it
    assert.equal(gloss('read', sheHe, 'relative_past'), 'who read');
    // an object relative keeps its pattern: the subject stays in the clause ('which I read')
    assert.equal(englishGloss({ verb: 'read', subject: I, head: class7, object: class7, tense: 'relative_past', polarity: 'positive' }), 'which I read');
  });

  it('keeps the base form in the subjunctive for every person', () => {
    assert.equal(gloss('love', I, 'subjunctive'), 'that I love');
    assert.equal(gloss('love', we, 'subjunctive', 'negative'), 'that we not love');
    assert.equal(gloss('be', sheHe, 'subjunctive'), 'that she/he be');
  });
});

describe('reflexive objects', () => {
  const reflexive: GlossObject = { reflexive: true };
  it('agrees with each subject', () => {
    assert.equal(gloss('see', I, 'past', 'positive', reflexive), 'I saw myself');
    assert.equal(gloss('see', you, 'past', 'positive', reflexive), 'you saw yourself');
    assert.equal(gloss('see', sheHe, 'past', 'positive', reflexive), 'she/he saw herself/himself');
    assert.equal(gloss('see', class7, 'past', 'positive', reflexive), 'it (class 7) saw itself');
    assert.equal(gloss('see', we, 'past', 'positive', reflexive), 'we saw ourselves');
    assert.equal(gloss('see', youPl, 'past', 'positive', reflexive), 'you (pl.) saw yourselves');
    assert.equal(gloss('see', they, 'past', 'positive', reflexive), 'they saw themselves');
    assert.equal(gloss('see', class8, 'past', 'positive', reflexive), 'they (class 8) saw themselves');
  });

  it('follows the addressee in the imperative', () => {
    assert.equal(gloss('love', you, 'imperative', 'positive', reflexive), 'love yourself!');
    assert.equal(gloss('love', youPl, 'imperative', 'negative', reflexive), 'do not love yourselves!');
  });
});

describe('multi-word verbs', () => {
  it('inflects the first word and puts the object after the preposition', () => {
    assert.equal(gloss('look at', sheHe, 'past', 'positive', class7), 'she/he looked at it (class 7)');
    assert.equal(gloss('look at', sheHe, 'present', 'negative', class7), 'she/he does not look at it (class 7)');
    assert.equal(gloss('look at', I, 'present_progressive', 'positive', class8), 'I am looking at them (class 8)');
  });

  it('puts a pronoun object before an adverb particle', () => {
    assert.equal(gloss('give up', sheHe, 'past', 'positive', class7), 'she/he gave it (class 7) up');
    assert.equal(gloss('give up', they, 'perfect'), 'they have given up');
  });

  it('conjugates "be able" like "be"', () => {
    assert.equal(gloss('be able', I, 'present'), 'I am able');
    assert.equal(gloss('be able', sheHe, 'present', 'negative'), 'she/he is not able');
    assert.equal(gloss('be able', we, 'past', 'negative'), 'we were not able');
    assert.equal(gloss('be able', sheHe, 'perfect', 'negative'), 'she/he has not been able');
    assert.equal(gloss('be able', sheHe, 'future'), 'she/he will be able');
  });
});

describe('irregular verbs', () => {
  it('go, write and eat in every tense', () => {
    const go: Partial<Record<GlossTense, string>> = {
      infinitive: 'to go',
      locative_infinitive: 'in going',
      imperative: 'let me go',
      present: 'I go',
      present_progressive: 'I am going',
      persistive: 'I am still going',
      exclusive: 'I am now going',
      general_present: 'I go',
      habitual: 'I usually go',
      past: 'I went',
      recent_past: 'I went (today)',
      remote_past: 'I went (long ago)',
      past_progressive: 'I was going',
      past_habitual: 'I used to go',
      immediate_past: 'I have just gone',
      perfect: 'I have gone',
      not_yet: 'I have not yet gone',
      state_not_yet: 'I do not yet go',
      exclusive_perfect: 'I have already gone',
      present_perfect_progressive: 'I have been going',
      past_perfect: 'I had gone',
      future: 'I will go',
      remote_future: 'I will go (later)',
      future_progressive: 'I will be going',
      future_perfect: 'I will have gone',
      conditional: 'I would go',
      past_conditional: 'I would have gone',
      conditional_progressive: 'I would be going',
      past_conditional_progressive: 'I would have been going',
      conditional_perfect: 'I would have gone',
      subjunctive: 'that I go',
      consecutive: 'and then I went',
      situative: 'while I am going',
      participial: 'as I go',
      potential: 'I can go',
      conditional_clause: 'if I go',
      relative: 'I who go',
      relative_past: 'I who went',
      relative_perfect: 'I who have gone',
      relative_not_yet: 'I who have not yet gone',
      relative_future: 'I who will go',
      relative_progressive: 'I who am going',
      relative_persistive: 'I who am still going',
      relative_potential: 'I who can go',
    };
    for (const tense of glossTenses) assert.equal(gloss('go', I, tense), go[tense], tense);

    const written: Record<string, string> = {
      past: 'they did not write it (class 7)',
      perfect: 'they have not written it (class 7)',
      past_perfect: 'they had not written it (class 7)',
      future_perfect: 'they will not have written it (class 7)',
      past_conditional: 'they would not have written it (class 7)',
      not_yet: 'they have not yet written it (class 7)',
    };
    for (const [tense, expected] of Object.entries(written)) {
      assert.equal(gloss('write', they, tense as GlossTense, 'negative', class7), expected);
    }
    assert.equal(gloss('write', sheHe, 'remote_past', 'positive', class7), 'she/he wrote it (class 7) (long ago)');
    assert.equal(gloss('eat', sheHe, 'present', 'positive', class7), 'she/he eats it (class 7)');
    assert.equal(gloss('eat', sheHe, 'consecutive', 'positive', class7), 'and then she/he ate it (class 7)');
    assert.equal(gloss('eat', sheHe, 'perfect', 'positive', class7), 'she/he has eaten it (class 7)');
    assert.equal(gloss('eat', sheHe, 'past_conditional_progressive', 'negative'), 'she/he would not have been eating');
  });

  it('holds at least 150 verbs, including the common ones', () => {
    assert.ok(irregularVerbs.size >= 150, `only ${irregularVerbs.size} irregular verbs`);
    assert.deepEqual(irregularVerbs.get('lie'), { past: 'lay', pastParticiple: 'lain' });
    assert.deepEqual(irregularVerbs.get('read'), { past: 'read', pastParticiple: 'read' });
    const common = [
      'be',
      'have',
      'do',
      'go',
      'come',
      'see',
      'eat',
      'drink',
      'write',
      'read',
      'take',
      'give',
      'get',
      'make',
      'know',
      'think',
      'bring',
      'buy',
      'teach',
      'catch',
      'fight',
      'find',
      'sell',
      'tell',
      'say',
      'sleep',
      'leave',
      'feel',
      'keep',
      'meet',
      'sit',
      'stand',
      'understand',
      'run',
      'begin',
      'swim',
      'sing',
      'fall',
      'forget',
      'hide',
      'bite',
      'break',
      'choose',
      'speak',
      'steal',
      'wake',
      'wear',
      'tear',
      'throw',
      'grow',
      'fly',
      'draw',
      'shoot',
      'build',
      'send',
      'spend',
      'lend',
      'lose',
      'pay',
      'lay',
      'put',
      'cut',
      'hit',
      'hurt',
      'let',
      'set',
      'shut',
      'cost',
      'beat',
      'become',
      'hold',
      'hear',
      'mean',
      'light',
      'ride',
      'rise',
      'drive',
      'shake',
      'forgive',
      'lie',
      'swear',
      'hang',
      'dig',
      'stick',
      'strike',
      'sweep',
      'weep',
      'bend',
      'bleed',
      'breed',
      'feed',
      'flee',
      'grind',
      'kneel',
      'lead',
      'seek',
      'shine',
      'sink',
      'spin',
      'spit',
      'split',
      'spread',
      'spring',
      'sting',
      'stink',
      'swing',
      'wind',
      'wring',
    ];
    assert.deepEqual(
      common.filter((verb) => !irregularVerbs.has(verb)),
      [],
    );
  });
});

describe('English spelling rules', () => {
  const forms = (verb: string) => {
    const f = inflect(verb);
    return [f.third, f.past, f.pastParticiple, f.presentParticiple];
  };

  it('third person -s, -es, -ies', () => {
    assert.deepEqual(
      ['watch', 'carry', 'play', 'go', 'do', 'have', 'fix', 'love'].map((v) => inflect(v).third),
      ['watches', 'carries', 'plays', 'goes', 'does', 'has', 'fixes', 'loves'],
    );
  });

  it('past -ed with doubling, e-drop and y -> ied', () => {
    assert.deepEqual(forms('stop'), ['stops', 'stopped', 'stopped', 'stopping']);
    assert.deepEqual(forms('plan'), ['plans', 'planned', 'planned', 'planning']);
    assert.deepEqual(forms('visit'), ['visits', 'visited', 'visited', 'visiting']);
    assert.deepEqual(forms('open'), ['opens', 'opened', 'opened', 'opening']);
    assert.deepEqual(forms('fix'), ['fixes', 'fixed', 'fixed', 'fixing']);
    assert.deepEqual(forms('snow'), ['snows', 'snowed', 'snowed', 'snowing']);
    assert.deepEqual(forms('play'), ['plays', 'played', 'played', 'playing']);
    assert.deepEqual(forms('love'), ['loves', 'loved', 'loved', 'loving']);
    assert.deepEqual(forms('carry'), ['carries', 'carried', 'carried', 'carrying']);
    assert.deepEqual(forms('admit'), ['admits', 'admitted', 'admitted', 'admitting']);
  });

  it('-ing forms', () => {
    assert.deepEqual(
      ['die', 'see', 'run', 'be', 'lie', 'begin', 'agree'].map((v) => inflect(v).presentParticiple),
      ['dying', 'seeing', 'running', 'being', 'lying', 'beginning', 'agreeing'],
    );
  });

  it('irregular forms and multi-word verbs', () => {
    assert.deepEqual(forms('go'), ['goes', 'went', 'gone', 'going']);
    assert.deepEqual(forms('write'), ['writes', 'wrote', 'written', 'writing']);
    assert.deepEqual(forms('eat'), ['eats', 'ate', 'eaten', 'eating']);
    assert.deepEqual(forms('look at'), ['looks at', 'looked at', 'looked at', 'looking at']);
    assert.deepEqual(forms('give up'), ['gives up', 'gave up', 'given up', 'giving up']);
    assert.deepEqual(forms('be able'), ['is able', 'was able', 'been able', 'being able']);
  });

  it('"be" agrees in person and number', () => {
    const present = (
      [
        [1, 'sg'],
        [2, 'sg'],
        [3, 'sg'],
        [1, 'pl'],
        [2, 'pl'],
        [3, 'pl'],
      ] as const
    ).map(([p, n]) => [finiteForm('be', 'present', p, n), finiteForm('be', 'past', p, n)]);
    assert.deepEqual(present, [
      ['am', 'was'],
      ['are', 'were'],
      ['is', 'was'],
      ['are', 'were'],
      ['are', 'were'],
      ['are', 'were'],
    ]);
    assert.equal(gloss('be', I, 'past'), 'I was');
    assert.equal(gloss('be', we, 'past'), 'we were');
    assert.equal(gloss('be', sheHe, 'present'), 'she/he is');
    assert.equal(gloss('be', sheHe, 'past', 'negative'), 'she/he was not');
    assert.equal(gloss('be', sheHe, 'perfect', 'negative'), 'she/he has not been');
    assert.equal(gloss('be', sheHe, 'habitual', 'negative'), 'she/he is not usually');
  });

  it('rejects an empty verb', () => {
    assert.throws(() => inflect('  '), /empty/);
  });
});

describe('English stative verbs keep the simple form where a Bantu tense is progressive', () => {
  it('reads the present progressive of know, want, love, see as the simple present', () => {
    assert.equal(gloss('know', I, 'present_progressive'), 'I know');
    assert.equal(gloss('want', I, 'present_progressive'), 'I want');
    assert.equal(gloss('love', sheHe, 'present_progressive', 'positive', class7), 'she/he loves it (class 7)');
    assert.equal(gloss('know', we, 'present_progressive', 'negative'), 'we do not know');
    assert.equal(gloss('see', I, 'present_progressive', 'positive', sheHe), 'I see her/him');
  });

  it('reads every other progressive of a stative verb as the simple tense', () => {
    assert.equal(gloss('know', sheHe, 'past_progressive'), 'she/he knew');
    assert.equal(gloss('know', sheHe, 'past_progressive', 'negative'), 'she/he did not know');
    assert.equal(gloss('want', they, 'future_progressive'), 'they will want');
    assert.equal(gloss('know', I, 'situative'), 'while I know');
    assert.equal(gloss('need', I, 'present_perfect_progressive'), 'I have needed');
    assert.equal(gloss('be able', I, 'present_progressive'), 'I am able');
    // The persistive (Luganda -kya- 'still'): 'I still know', 'she/he no longer wants it'.
    assert.equal(gloss('know', I, 'persistive'), 'I still know');
    assert.equal(gloss('want', sheHe, 'persistive', 'negative', class7), 'she/he no longer wants it (class 7)');
  });

  it('reads the habitual of a stative verb other than be as the simple present', () => {
    assert.equal(gloss('like', I, 'habitual', 'positive', class7), 'I like it (class 7)');
    assert.equal(gloss('know', they, 'habitual', 'negative'), 'they do not know');
    assert.equal(gloss('read', I, 'habitual'), 'I usually read');
    assert.equal(gloss('be', sheHe, 'habitual'), 'she/he is usually');
    // 'be' + a lasting state (a lexicalised stative, 'be known') reads simple; 'be' at a place and an event's passive keep 'usually'.
    assert.equal(gloss('be known', sheHe, 'habitual'), 'she/he is known');
    assert.equal(gloss('be at', sheHe, 'habitual'), 'she/he is usually at');
    assert.equal(englishGloss({ verb: 'be killed', subject: sheHe, tense: 'habitual', polarity: 'positive', eventPassive: true }), 'she/he is usually killed');
  });

  it('reads an unnamed subject (a form with no subject marker) as one', () => {
    const one = { person: 3, number: 'sg', human: true, generic: true } as const;
    assert.equal(gloss('read', one, 'habitual'), 'one usually reads');
    assert.equal(gloss('be', one, 'habitual'), 'one is usually');
    assert.equal(englishGloss({ verb: 'love', subject: one, object: { reflexive: true }, tense: 'habitual', polarity: 'positive' }), 'one loves oneself');
  });

  it('keeps the progressive of dynamic verbs', () => {
    assert.equal(gloss('read', I, 'present_progressive'), 'I am reading');
    assert.equal(gloss('eat', they, 'past_progressive'), 'they were eating');
    assert.equal(isStative('know'), true);
    assert.equal(isStative('run'), false);
  });
});

describe('the imperative addresses the second person', () => {
  it('gives a command to 2sg and 2pl, and a let-form to the other persons', () => {
    assert.equal(gloss('read', you, 'imperative'), 'read!');
    assert.equal(gloss('read', youPl, 'imperative', 'negative'), 'do not read!');
    assert.equal(gloss('read', sheHe, 'imperative', 'negative'), 'let her/him not read');
    assert.equal(gloss('go', we, 'imperative'), 'let us go');
    assert.equal(gloss('read', they, 'imperative', 'negative', class7), 'let them not read it (class 7)');
  });
});

describe('derived verbs are glossed by their derivation', () => {
  it('combinations keep each derivation: a beneficiary after a causative, each other in the object place, able to be', () => {
    assert.equal(gloss(derivedVerb('see', ['causative', 'applicative']), sheHe, 'past', 'positive', I), 'she/he made me see for/to someone');
    assert.equal(gloss(derivedVerb('see', ['causative', 'reciprocal']), they, 'past'), 'they made each other see');
    assert.equal(gloss(derivedVerb('hold', ['intensive', 'reciprocal']), they, 'past'), 'they held each other firmly');
    assert.equal(gloss(derivedVerb('see', ['passive', 'reciprocal']), they, 'past'), 'they were seen by each other');
    assert.equal(gloss(derivedVerb('see', ['reciprocal', 'passive']), they, 'past'), 'they were seen by each other');
    assert.equal(gloss(derivedVerb('love', ['causative', 'stative']), sheHe, 'present_progressive'), 'she/he is able to be made to love');
    assert.equal(gloss(derivedVerb('see', ['reciprocal', 'stative']), they, 'present_progressive'), 'they are able to see each other');
    // a stative has no passive of its own: not 'be been seeable'
    assert.equal(derivedVerb('see', ['stative', 'passive']), 'be seeable');
  });

  it('an object marker needs a place for an object: not after a passive, stative or reciprocal of one object, nor on a verb of none', () => {
    // The verb's own objects are lexicon flags (no_object 0, two_objects 2, else 1), not its English gloss.
    assert.equal(objectPlaces(1, []), 1);
    assert.equal(objectPlaces(1, ['passive']), 0);
    assert.equal(objectPlaces(1, ['applicative', 'passive']), 1);
    assert.equal(objectPlaces(1, ['reciprocal']), 0);
    assert.equal(objectPlaces(0, []), 0);
    assert.equal(objectPlaces(0, ['applicative']), 1);
    assert.equal(objectPlaces(0, ['passive']), 0);
    // A verb of two objects keeps one after the passive ('I have been given it').
    assert.equal(objectPlaces(2, ['passive']), 1);
    assert.equal(objectPlaces(2, ['passive', 'reciprocal']), 0);
  });

  it('applicative: for/to, with the object after it', () => {
    assert.equal(derivedVerb('read', ['applicative']), 'read for/to _');
    assert.equal(gloss(derivedVerb('read', ['applicative']), sheHe, 'past', 'positive', I), 'she/he read for/to me');
    assert.equal(gloss(derivedVerb('buy', ['applicative']), sheHe, 'past'), 'she/he bought for/to someone');
  });

  it('causative: make ... read, the object between', () => {
    assert.equal(gloss(derivedVerb('read', ['causative']), sheHe, 'past', 'positive', I), 'she/he made me read');
    assert.equal(gloss(derivedVerb('know', ['causative']), they, 'future'), 'they will make someone know');
  });

  it('thorough intensive: the action done carefully, the object before "carefully" and none without one', () => {
    assert.equal(gloss(derivedVerb('listen', ['thorough']), sheHe, 'past'), 'she/he listened carefully');
    assert.equal(gloss(derivedVerb('examine', ['thorough']), sheHe, 'past', 'positive', class7), 'she/he examined it (class 7) carefully');
    assert.equal(gloss(derivedVerb('examine', ['thorough', 'passive']), class7, 'past'), 'it (class 7) was examined carefully');
  });

  it('intensive: the action done firmly, the object before "firmly"; its passive too', () => {
    assert.equal(gloss(derivedVerb('hold', ['intensive']), sheHe, 'past', 'positive', class7), 'she/he held it (class 7) firmly');
    assert.equal(gloss(derivedVerb('hold', ['intensive', 'passive']), sheHe, 'past'), 'she/he was held firmly');
  });

  it('passive: be + past participle, also after a causative', () => {
    assert.equal(gloss(derivedVerb('love', ['passive']), sheHe, 'present_progressive'), 'she/he is loved');
    assert.equal(gloss(derivedVerb('give', ['passive']), I, 'past', 'positive', class7), 'I was given it (class 7)');
    assert.equal(gloss(derivedVerb('read', ['causative', 'passive']), sheHe, 'past'), 'she/he was made to read');
    assert.equal(gloss(derivedVerb('buy', ['applicative', 'passive']), sheHe, 'past'), 'she/he was bought for/to');
  });

  it('stative in a perfective tense: get ...-ed (the change of state)', () => {
    assert.equal(gloss(derivedVerb('break', ['stative'], true), class7, 'past'), 'it (class 7) got broken');
    assert.equal(gloss(derivedVerb('break', ['stative'], true), class7, 'perfect'), 'it (class 7) has got broken');
  });

  it('stative: be ...-able; stative + reciprocal (-ikana, -ekana) is the state, be ...-ed', () => {
    assert.equal(gloss(derivedVerb('read', ['stative']), class7, 'present_progressive'), 'it (class 7) is readable');
    // Daily News (Tanzania), 'Kiswahili for beginners: The impersonal and the reciprocal forms of verbs' 2:
    // kuonekana 'to be seen', kujulikana 'to be known'; semekana: inasemekana 'it is said'.
    assert.equal(gloss(derivedVerb('say', ['stative', 'reciprocal']), class7, 'present_progressive'), 'it (class 7) is said');
    assert.equal(gloss(derivedVerb('know', ['stative', 'reciprocal']), sheHe, 'past'), 'she/he was known');
    assert.equal(ableForm('love'), 'lovable');
    assert.equal(ableForm('deny'), 'deniable');
    assert.equal(ableForm('see'), 'seeable');
    // a Latin -ible adjective where English has one: Swahili kinalika 'it is edible', not 'eatable'
    assert.equal(ableForm('eat'), 'edible');
  });

  it("stative of 'get' and of a verb that is a state: no 'get got', no 'be bable able'", () => {
    assert.equal(gloss(derivedVerb('get', ['stative'], true), class7, 'past'), 'it (class 7) got obtained');
    assert.equal(gloss(derivedVerb('get', ['stative']), class7, 'present_progressive'), 'it (class 7) is obtainable');
    assert.equal(gloss(derivedVerb('be able', ['stative']), sheHe, 'present_progressive'), 'she/he is able');
  });

  it('reciprocal: each other, in the simple present for a stative verb', () => {
    assert.equal(gloss(derivedVerb('love', ['reciprocal']), they, 'present_progressive'), 'they love each other');
    assert.equal(gloss(derivedVerb('help', ['reciprocal']), we, 'past'), 'we helped each other');
  });

  it('reciprocal with a singular subject: the subject and another party, the verb agreeing with both', () => {
    // The other party is named with na 'and, with' after the verb: newt.clara.co.uk/isizulu/sobonana.htm (Zulu, 'if both
    // parties implied in the subject are mentioned one is named using its subject concord and the other using na- after
    // the verb'); makalima.online.fr E_Chap40 (Swahili, 'after a reciprocal verb, "with" is translated by NA').
    const mutual = (verb: string, subject: GlossPerson, tense: GlossTense, polarity: 'positive' | 'negative' = 'positive') =>
      englishGloss({ verb: derivedVerb(verb, ['reciprocal']), subject, tense, polarity, mutual: true });
    assert.equal(mutual('see', sheHe, 'past'), 'she/he and someone saw each other');
    assert.equal(mutual('love', I, 'present'), 'I and someone love each other');
    assert.equal(mutual('love', sheHe, 'present', 'negative'), 'she/he and someone do not love each other');
    assert.equal(mutual('work', sheHe, 'perfect'), 'she/he and someone have worked together');
    assert.equal(mutual('touch', class7, 'present'), 'it (class 7) and another touch each other');
    // A plural subject is already both parties.
    assert.equal(mutual('see', they, 'past'), 'they saw each other');
  });

  it('reciprocal of a verb that takes no object: together (the associative), not each other', () => {
    assert.equal(gloss(derivedVerb('work', ['reciprocal']), they, 'present'), 'they work together');
    assert.equal(gloss(derivedVerb('play', ['reciprocal']), we, 'past'), 'we played together');
    // With an object slot made by another extension, 'each other' fills it.
    assert.equal(gloss(derivedVerb('work', ['applicative', 'reciprocal']), they, 'present'), 'they work for/to each other');
    assert.equal(isIntransitive('work'), true);
    assert.equal(isIntransitive('look at'), false);
    assert.equal(isIntransitive('see'), false);
  });

  it('a passive of the bare verb takes the first sense that has an object', () => {
    assert.equal(derivationSense(['work', 'do'], ['passive']), 'do');
    assert.equal(gloss(derivedVerb(derivationSense(['work', 'do'], ['passive'])!, ['passive']), they, 'present'), 'they are done');
    assert.equal(derivationSense(['work', 'do'], ['reciprocal']), 'work');
    assert.equal(derivationSense(['work', 'do'], []), 'work');
    // No sense with an object: the first.
    assert.equal(derivationSense(['work'], ['passive']), 'work');
    // The passive of a causative keeps the first sense ('be made to work').
    assert.equal(derivationSense(['work', 'do'], ['causative', 'passive']), 'work');
  });
  it("says 'love' of a person where the gloss reads 'want, love' ('I love you', not 'I want you')", () => {
    assert.equal(personalSense(['want', 'like', 'love'], 'want'), 'love');
    assert.equal(personalSense(['want', 'love'], 'want'), 'love');
    // without a 'love' sense, or another first sense, the verb stays
    assert.equal(personalSense(['want', 'look for'], 'want'), 'want');
    assert.equal(personalSense(['see'], 'see'), 'see');
  });
});

describe('a perfect that reports a present state (lexicon flag perfect_state)', () => {
  const me: GlossPerson = { person: 1, number: 'sg' };
  const read = (verb: string, tense: GlossTense, polarity: 'positive' | 'negative' = 'positive') => {
    const state = resultState(verb, tense);
    return englishGloss({ verb: state.verb, subject: me, tense: state.tense, polarity });
  };
  it('reads the perfect as the present, and an inchoative get/become X as be X', () => {
    assert.equal(read('know', 'perfect'), 'I know');
    assert.equal(read('know', 'perfect', 'negative'), 'I do not know');
    assert.equal(read('get tired', 'perfect'), 'I am tired');
    assert.equal(read('become angry', 'perfect'), 'I am angry');
    // a 'not yet' (Swahili -ja-, the negative of -me-) is the state not yet reached
    assert.equal(read('get tired', 'not_yet', 'negative'), 'I am not yet tired');
    assert.equal(read('know', 'not_yet', 'negative'), 'I do not yet know');
  });
  it('reads the perfect of a verb of posture or sleep as the position or state it results in', () => {
    assert.equal(read('sleep', 'perfect'), 'I am asleep');
    assert.equal(read('lie down', 'perfect'), 'I am lying down');
    assert.equal(read('sit', 'perfect'), 'I am sitting');
    assert.equal(read('stand', 'perfect', 'negative'), 'I am not standing');
    // the state of fearing is 'be afraid' (Luganda ntidde 'I am afraid')
    assert.equal(read('fear', 'perfect'), 'I am afraid');
    assert.equal(read('sleep', 'relative_past'), 'I who am asleep');
    assert.deepEqual(resultState('sleep', 'present'), { verb: 'sleep', tense: 'present' });
  });
  it('reads the perfect of an intransitive verb of breaking as the broken state', () => {
    assert.equal(read('break', 'perfect'), 'I am broken');
    assert.equal(read('break', 'perfect', 'negative'), 'I am not broken');
    assert.deepEqual(resultState('break', 'present'), { verb: 'break', tense: 'present' });
  });
  it("reads the perfect of 'die' as the state of being dead", () => {
    assert.equal(read('die', 'perfect'), 'I am dead');
    assert.equal(read('die', 'perfect', 'negative'), 'I am not dead');
  });
  it('reads a perfect relative as a present relative, and leaves every other tense alone', () => {
    assert.equal(read('know', 'relative_past'), 'I who know');
    assert.equal(read('know', 'relative_perfect'), 'I who know');
    assert.deepEqual(resultState('get tired', 'present'), { verb: 'get tired', tense: 'present' });
    assert.deepEqual(resultState('know', 'remote_past'), { verb: 'know', tense: 'remote_past' });
  });
});

describe('the passive of an event keeps the progressive; a passive of a state reads simple', () => {
  const passive = (verb: string, subject: GlossPerson, tense: GlossTense, polarity: 'positive' | 'negative' = 'positive') =>
    englishGloss({ verb: derivedVerb(verb, ['passive']), subject, tense, polarity, eventPassive: !isStative(verb) });
  it('reads the present and past progressive of an event passive with being', () => {
    // deissler-passive: Nyumba zinabomolewa 'Houses are being demolished' (the -na- present).
    assert.equal(passive('demolish', { person: 3, number: 'pl', nounClass: 10 }, 'present_progressive'), 'they (class 10) are being demolished');
    assert.equal(passive('eat', class7, 'present_progressive', 'negative'), 'it (class 7) is not being eaten');
    assert.equal(passive('read', class7, 'past_progressive'), 'it (class 7) was being read');
    assert.equal(passive('write', class7, 'relative_progressive'), 'which is being written');
  });
  it("says 'will be eaten', not 'will be being eaten', and leaves the other tenses alone", () => {
    assert.equal(passive('eat', class7, 'future_progressive'), 'it (class 7) will be eaten');
    assert.equal(passive('eat', class7, 'present_perfect_progressive'), 'it (class 7) has been eaten');
    assert.equal(passive('give', I, 'past'), 'I was given');
    assert.equal(passive('eat', class7, 'present'), 'it (class 7) is eaten');
  });
  it('reads the passive of a stative verb in the simple tense', () => {
    // safari2012-l22: Dada anapendwa na kila mtu '(My) sister is loved by every one'.
    assert.equal(passive('love', sheHe, 'present_progressive'), 'she/he is loved');
    assert.equal(passive('know', sheHe, 'past_progressive'), 'she/he was known');
  });
});
