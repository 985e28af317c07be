// Pins the English glosses of Zulu and Xhosa verbs of state (issue 18): the -ile tense of a lexicon verb
// flagged perfect_state reads as the state reached, in the present (Zulu: the tense's state_gloss; Xhosa:
// its perfect), and a verb of posture or sleep as the position it results in. Each expected gloss is the
// source's own translation.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { packageRoot } from '../src/config.js';
import { openMorphology } from '../src/services.js';

const morphology = openMorphology({ languagesDir: path.join(packageRoot, 'languages') });

const gloss = (language: string, root: string, tense: string, subject: string, polarity: 'positive' | 'negative' = 'positive') => {
  const result = morphology.conjugate({ language, root, tense, subject, polarity });
  assert.ok(result.ok, result.ok ? '' : result.message);
  return `${result.value.surface_form} | ${result.value.english}`;
};
const english = (root: string, tense: string, subject: string, polarity: 'positive' | 'negative' = 'positive') => gloss('zul', root, tense, subject, polarity);

describe('Zulu verbs of state: the -ile tense read as the present state (lexicon flag perfect_state)', () => {
  it('an inchoative reads as its state (get thirsty > is thirsty)', () => {
    // nonqaba-zulu-thirsty: Ngomile 'I'm thirsty', Umama womile 'mother is thirsty'.
    assert.equal(english('oma', 'recent_past', '1sg'), 'ngomile | I am thirsty');
    assert.equal(english('oma', 'recent_past', 'c1'), 'womile | she/he is thirsty');
    // doke1927 (stative verbs; unverified): ngilambile 'I am hungry'.
    assert.equal(english('lamba', 'recent_past', '1sg'), 'ngilambile | I am hungry');
  });
  it('a verb of state keeps its gloss in the present', () => {
    // nonqaba-zulu-happy: Ngithabile 'I am happy', si-thabile 'we are happy'.
    assert.equal(english('thaba', 'recent_past', '1sg'), 'ngithabile | I am happy');
    assert.equal(english('thaba', 'recent_past', '1pl'), 'sithabile | we are happy');
  });
  it('a verb of posture or sleep reads as the position it results in', () => {
    // nonqaba-zulu-sleeping: Le-le 'sleeping/asleep', Ingane ilele 'the baby is sleeping'.
    assert.equal(english('lala', 'recent_past', 'c1'), 'ulele | she/he is asleep');
    // doke1927 (stative verbs, hlezi 'is sitting'; unverified); the form: thezulukingdom-shaka-izibongo (behlez').
    assert.equal(english('hlala', 'recent_past', 'c2'), 'bahlezi | they are sitting');
  });
  it('keeps the other tenses of the flagged verbs', () => {
    // nonqaba-zulu-thirsty: Ngaze ngoma 'I'm so thirsty' is the remote past of the event, not the state.
    assert.equal(english('oma', 'present', '1sg'), 'ngiyoma | I get thirsty');
    assert.equal(english('lala', 'future', '1sg'), 'ngizolala | I will sleep');
  });
});

describe('Xhosa verbs of state: the perfect read as the present state (lexicon flag perfect_state)', () => {
  const xhosa = (root: string, tense: string, subject: string, polarity: 'positive' | 'negative' = 'positive') => gloss('xho', root, tense, subject, polarity);
  it('the stative perfects of lala and hlala', () => {
    // isixhosa-click-words (word_id 169): 'She is asleep - Ulele'; (word_id 212, 844): hleli 'sitting, staying'.
    assert.equal(xhosa('lala', 'perfect', 'c1'), 'ulele | she/he is asleep');
    assert.equal(xhosa('hlala', 'perfect', 'c1'), 'uhleli | she/he is sitting');
  });
  it('an inchoative reads as its state (become hungry > is hungry)', () => {
    // isixhosa-click-words (word_id 640 become hungry, 860 become happy, both marked inchoative).
    assert.equal(xhosa('lamba', 'perfect', '1sg'), 'ndilambile | I am hungry');
    assert.equal(xhosa('onwaba', 'perfect', 'c2'), 'bonwabile | they are happy');
    // isixhosa-click-words examples.csv: 904 'ndidiniwe' 'I am tired' (826 become tired dinwa, perfect -iwe of a
    // stem in -w-); 1107 'Ndityebile!' 'I am fat!' and 1108 'Awutyebanga.' 'You are not fat.' (936 become fat
    // tyeba); 171 'Ndidanile.' 'I am disappointed.' (157); 166 'Izikolo zigcwele.' 'The schools are full.' (152,
    // the irregular perfect gcwele).
    assert.equal(xhosa('dinwa', 'perfect', '1sg'), 'ndidiniwe | I am tired');
    assert.equal(xhosa('tyeba', 'perfect', '1sg'), 'ndityebile | I am fat');
    assert.equal(xhosa('tyeba', 'perfect', '2sg', 'negative'), 'awutyebanga | you are not fat');
    assert.equal(xhosa('dana', 'perfect', '1sg'), 'ndidanile | I am disappointed');
    assert.equal(xhosa('gcwala', 'perfect', 'c8'), 'zigcwele | they (class 8) are full');
  });
  it('a verb of posture reads as the position it results in', () => {
    // isixhosa-click-words (word_id 689 stand (i)ma, marked inchoative; example 775 'Ume ngaphandle.' 'He is
    // standing outside.'): the long perfect -ile (mclaren1955, perfect tense) of the same verb.
    assert.equal(xhosa('ma', 'perfect', 'c1'), 'umile | she/he is standing');
  });
  it('keeps the other tenses', () => {
    assert.equal(xhosa('lamba', 'present', '1sg'), 'ndiyalamba | I become hungry');
    assert.equal(xhosa('hamba', 'perfect', 'c1'), 'uhambile | she/he has gone');
  });
});
