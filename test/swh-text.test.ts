// Pins how the engine reads Swahili running text: on the annotated development texts (UDHR preamble and
// articles 1-13; two African Storybook stories; Global Voices news; test/fixtures/swh-text/) the first
// reading has the gold lemma and word class for at least the measured share of words, and the readings a
// user meets first in a sentence come in the order a reader would give them (a known noun before a guessed
// verb, closed-class words first, the neighbours deciding between na 'and' and na 'with').
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { packageRoot } from '../src/config.js';
import { openMorphology } from '../src/services.js';
import { EngineTextAnalyzer } from '../src/text/engine-analyzer.js';
import { evaluateText } from '../src/text/evaluate-text.js';
import { parseSadii } from '../src/text/sadii.js';
import { TextService } from '../src/text/service.js';
import { DEV_TEXT, measure } from './swh-text-measure.js';

const CHECK_TEXT = path.join(packageRoot, 'test', 'fixtures', 'swh-text', 'udhr-check.txt');
const STORIES_TEXT = path.join(packageRoot, 'test', 'fixtures', 'swh-text', 'stories-dev.txt');
const WIKI_TEXT = path.join(packageRoot, 'test', 'fixtures', 'swh-text', 'wiki-check.txt');
const NEWS_TEXT = path.join(packageRoot, 'test', 'fixtures', 'swh-text', 'news-dev.txt');
const HEALTH_TEXT = path.join(packageRoot, 'test', 'fixtures', 'swh-text', 'health-dev.txt');
const GOV_TEXT = path.join(packageRoot, 'test', 'fixtures', 'swh-text', 'gov-dev.txt');
const SCIENCE_TEXT = path.join(packageRoot, 'test', 'fixtures', 'swh-text', 'science-dev.txt');
const SPORT_FARM_TEXT = path.join(packageRoot, 'test', 'fixtures', 'swh-text', 'sport-farm-check.txt');
const CITIES_TEXT = path.join(packageRoot, 'test', 'fixtures', 'swh-text', 'cities-history-check.txt');
const TECHNOLOGY_TEXT = path.join(packageRoot, 'test', 'fixtures', 'swh-text', 'technology-check.txt');
const LAW_TEXT = path.join(packageRoot, 'test', 'fixtures', 'swh-text', 'law-check.txt');
const DIALOGUE_TEXT = path.join(packageRoot, 'test', 'fixtures', 'swh-text', 'dialogue-check.txt');
const LETTER_TEXT = path.join(packageRoot, 'test', 'fixtures', 'swh-text', 'letter-check.txt');
const RECIPE_TEXT = path.join(packageRoot, 'test', 'fixtures', 'swh-text', 'recipe-check.txt');
const BIOGRAPHY_TEXT = path.join(packageRoot, 'test', 'fixtures', 'swh-text', 'biography-check.txt');
const ANIMAL_TEXT = path.join(packageRoot, 'test', 'fixtures', 'swh-text', 'animal-check.txt');
const CONSTITUTION_TEXT = path.join(packageRoot, 'test', 'fixtures', 'swh-text', 'constitution-check.txt');
const EDUCATION_TEXT = path.join(packageRoot, 'test', 'fixtures', 'swh-text', 'education-check.txt');
const ECONOMY_TEXT = path.join(packageRoot, 'test', 'fixtures', 'swh-text', 'economy-check.txt');
const MUSIC_TEXT = path.join(packageRoot, 'test', 'fixtures', 'swh-text', 'music-check.txt');
const GEOGRAPHY_TEXT = path.join(packageRoot, 'test', 'fixtures', 'swh-text', 'geography-check.txt');
const TRANSPORT_TEXT = path.join(packageRoot, 'test', 'fixtures', 'swh-text', 'transport-check.txt');
const MATHEMATICS_TEXT = path.join(packageRoot, 'test', 'fixtures', 'swh-text', 'mathematics-check.txt');
const FISHING_TEXT = path.join(packageRoot, 'test', 'fixtures', 'swh-text', 'fishing-check.txt');
const KINGDOM_TEXT = path.join(packageRoot, 'test', 'fixtures', 'swh-text', 'kingdom-check.txt');
const LANGUAGES_TEXT = path.join(packageRoot, 'test', 'fixtures', 'swh-text', 'languages-check.txt');
const PLANTS_TEXT = path.join(packageRoot, 'test', 'fixtures', 'swh-text', 'plants-check.txt');
const BODY_TEXT = path.join(packageRoot, 'test', 'fixtures', 'swh-text', 'body-check.txt');
const PARKS_TEXT = path.join(packageRoot, 'test', 'fixtures', 'swh-text', 'parks-check.txt');
const WAR_TEXT = path.join(packageRoot, 'test', 'fixtures', 'swh-text', 'war-check.txt');
const CUSTOMS_TEXT = path.join(packageRoot, 'test', 'fixtures', 'swh-text', 'customs-check.txt');
const VOLCANOES_TEXT = path.join(packageRoot, 'test', 'fixtures', 'swh-text', 'volcanoes-check.txt');
const CHEMISTRY_TEXT = path.join(packageRoot, 'test', 'fixtures', 'swh-text', 'chemistry-check.txt');

const morphology = openMorphology({ languagesDir: path.join(packageRoot, 'languages') });

function first(word: string) {
  const result = morphology.analyze(word, 'swh');
  assert.ok(result.ok);
  return result.value;
}

describe('Swahili running text', () => {
  it('the first analysis has the gold lemma and word class for at least 92% of the development text', () => {
    const m = measure(morphology);
    // Measured 94.2% (599/636) when this floor was set; a regression of a dozen words fails here.
    assert.ok(m.words > 600, `the development text has ${m.words} words`);
    assert.ok(m.right / m.words >= 0.92, `${m.right}/${m.words} right; first misses:\n${m.misses.slice(0, 30).join('\n')}`);
  });

  it('the first analysis has the gold lemma and word class for at least 92% of the check text (UDHR articles 14-19)', () => {
    const m = measure(morphology, CHECK_TEXT);
    // Measured 94.9% (242/255) when this floor was set.
    assert.ok(m.words > 250, `the check text has ${m.words} words`);
    assert.ok(m.right / m.words >= 0.92, `${m.right}/${m.words} right; misses:\n${m.misses.join('\n')}`);
  });

  it('the first reading has the gold lemma and word class for at least 85% of the Wikipedia check text (annotated apart, never tuned on)', () => {
    const m = measure(morphology, WIKI_TEXT);
    // Measured 88.2% (231/262) when the text was first read, 88.2% also with the engine as it was before it was written.
    assert.ok(m.words >= 260, `the check text has ${m.words} words`);
    assert.ok(m.right / m.words >= 0.85, `${m.right}/${m.words} right; misses:\n${m.misses.join('\n')}`);
  });

  it('the first reading has the gold lemma and word class for at least 89% of the news text (Global Voices headlines and leads)', () => {
    const m = measure(morphology, NEWS_TEXT);
    // Measured 86.5% (313/362) before any change for this text, 92.3% (334/362) when this floor was set.
    assert.ok(m.words >= 360, `the news text has ${m.words} words`);
    assert.ok(m.right / m.words >= 0.89, `${m.right}/${m.words} right; misses:\n${m.misses.join('\n')}`);
  });

  it('the first reading has the gold lemma and word class for at least 92% of the health text (Wikipedia on diseases and vaccines)', () => {
    const m = measure(morphology, HEALTH_TEXT);
    // Measured 92.8% (269/290) before any change for this text (93.4% once mbili was annotated wili), 95.2% (276/290) when this floor was set.
    assert.ok(m.words >= 290, `the health text has ${m.words} words`);
    assert.ok(m.right / m.words >= 0.92, `${m.right}/${m.words} right; misses:\n${m.misses.join('\n')}`);
  });

  it('the first reading has the gold lemma and word class for at least 93% of the government text (Wikipedia on the state, the constitution and the courts)', () => {
    const m = measure(morphology, GOV_TEXT);
    // Measured 94.7% (355/375) before any change for this text, 95.7% (359/375) when this floor was set.
    assert.ok(m.words >= 375, `the government text has ${m.words} words`);
    assert.ok(m.right / m.words >= 0.93, `${m.right}/${m.words} right; misses:\n${m.misses.join('\n')}`);
  });

  it('the first reading has the gold lemma and word class for at least 91% of the science text (Wikipedia on the planets)', () => {
    const m = measure(morphology, SCIENCE_TEXT);
    // Measured 93.0% (319/343) before any change for this text, 93.6% (321/343) when this floor was set.
    assert.ok(m.words >= 343, `the science text has ${m.words} words`);
    assert.ok(m.right / m.words >= 0.91, `${m.right}/${m.words} right; misses:\n${m.misses.join('\n')}`);
  });

  it('the first reading has the gold lemma and word class for at least 93% of the sport and farming text (Wikipedia, annotated before the engine read it)', () => {
    const m = measure(morphology, SPORT_FARM_TEXT);
    // Measured 93.6% (234/250) before any change for this text, 96.0% (240/250) when this floor was set.
    assert.ok(m.words >= 250, `the sport and farming text has ${m.words} words`);
    assert.ok(m.right / m.words >= 0.93, `${m.right}/${m.words} right; misses:\n${m.misses.join('\n')}`);
  });

  it('the first reading has the gold lemma and word class for at least 92% of the cities and colonial history text (Wikipedia, annotated before the engine read it)', () => {
    const m = measure(morphology, CITIES_TEXT);
    // Measured 93.3% (291/312) before any change for this text, 94.2% (294/312) when this floor was set (94.6% after the na rule).
    assert.ok(m.words >= 300, `the cities and history text has ${m.words} words`);
    assert.ok(m.right / m.words >= 0.92, `${m.right}/${m.words} right; misses:\n${m.misses.join('\n')}`);
  });

  it('the first reading has the gold lemma and word class for at least 93% of the dialogue text (greetings, questions, commands; annotated before the engine read it)', () => {
    const m = measure(morphology, DIALOGUE_TEXT);
    // Measured 88.0% (256/291) before any change for this text, 96.2% (280/291) when this floor was set.
    assert.ok(m.words >= 290, `the dialogue text has ${m.words} words`);
    assert.ok(m.right / m.words >= 0.93, `${m.right}/${m.words} right; misses:\n${m.misses.join('\n')}`);
  });

  it('the first reading has the gold lemma and word class for at least 92% of the letter text (a school letter: relatives, conditionals, passives; annotated before the engine read it)', () => {
    const m = measure(morphology, LETTER_TEXT);
    // Measured 90.7% (264/291) before any change for this text, 94.5% (275/291) when this floor was set.
    assert.ok(m.words >= 290, `the letter text has ${m.words} words`);
    assert.ok(m.right / m.words >= 0.92, `${m.right}/${m.words} right; misses:\n${m.misses.join('\n')}`);
  });

  it('the first reading has the gold lemma and word class for at least 94% of the biography text (a life told in the past; annotated before the engine read it)', () => {
    const m = measure(morphology, BIOGRAPHY_TEXT);
    // Measured 92.8% (233/251) before any change for this text, 93.2% (234/251) at the fourteenth session's start, 96.0% (241/251) when this floor was set.
    assert.ok(m.words >= 250, `the biography text has ${m.words} words`);
    assert.ok(m.right / m.words >= 0.94, `${m.right}/${m.words} right; misses:\n${m.misses.join('\n')}`);
  });

  it('the first reading has the gold lemma and word class for at least 93% of the animal text (Wikipedia on the hippopotamus; annotated before the engine read it)', () => {
    const m = measure(morphology, ANIMAL_TEXT);
    // Measured 92.5% (186/201) before any change for this text, 95.5% (192/201) when this floor was set.
    assert.ok(m.words >= 200, `the animal text has ${m.words} words`);
    assert.ok(m.right / m.words >= 0.93, `${m.right}/${m.words} right; misses:\n${m.misses.join('\n')}`);
  });

  it('the first reading has the gold lemma and word class for at least 94% of the constitution text (Constitution of Kenya, 2010; annotated before the engine read it)', () => {
    const m = measure(morphology, CONSTITUTION_TEXT);
    // Measured 95.6% (262/274) before any change for this text, 97.1% (266/274) when this floor was set.
    assert.ok(m.words >= 270, `the constitution text has ${m.words} words`);
    assert.ok(m.right / m.words >= 0.94, `${m.right}/${m.words} right; misses:\n${m.misses.join('\n')}`);
  });

  it('the first reading has the gold lemma and word class for at least 95% of the education text (Wikipedia on education and universities; annotated before the engine read it)', () => {
    const m = measure(morphology, EDUCATION_TEXT);
    // Measured 92.2% (285/309) before any change for this text, 98.1% (303/309) when this floor was set.
    assert.ok(m.words >= 300, `the education text has ${m.words} words`);
    assert.ok(m.right / m.words >= 0.95, `${m.right}/${m.words} right; misses:\n${m.misses.join('\n')}`);
  });

  it('the first reading has the gold lemma and word class for at least 95% of the economy text (Wikipedia on the economy; annotated before the engine read it)', () => {
    const m = measure(morphology, ECONOMY_TEXT);
    // Measured 93.5% (243/260) before any change for this text, 98.5% (256/260) when this floor was set (3 of the 13 words
    // gained are annotations corrected to the conventions: mahitaji x2, kushughulikia).
    assert.ok(m.words >= 255, `the economy text has ${m.words} words`);
    assert.ok(m.right / m.words >= 0.95, `${m.right}/${m.words} right; misses:\n${m.misses.join('\n')}`);
  });

  it('the first reading has the gold lemma and word class for at least 95% of the music and the geography texts (Wikipedia; annotated before the engine read them)', () => {
    const music = measure(morphology, MUSIC_TEXT);
    // Measured 84.5% (261/309) before any change for this text, 97.7% (302/309) when this floor was set.
    assert.ok(music.words >= 300, `the music text has ${music.words} words`);
    assert.ok(music.right / music.words >= 0.95, `${music.right}/${music.words} right; misses:\n${music.misses.join('\n')}`);
    const geography = measure(morphology, GEOGRAPHY_TEXT);
    // Measured 93.6% (263/281) before any change for this text, 97.5% (274/281) when this floor was set.
    assert.ok(geography.words >= 275, `the geography text has ${geography.words} words`);
    assert.ok(geography.right / geography.words >= 0.95, `${geography.right}/${geography.words} right; misses:\n${geography.misses.join('\n')}`);
  });

  it("reads a class 14 noun's plural from the lexicon, zingine as -ingine, makaa as charcoal but Kaa opening a clause as 'sit!', an adjective after a noun of another class and a hyphened ki- adverb (words outside the texts)", () => {
    const analyzer = new EngineTextAnalyzer('swh', morphology);
    const at = (tokens: string[], i: number) => analyzer.analyzeTokens(tokens)[i]?.[0];
    const decisions = at(['Walifanya', 'maamuzi', 'mazuri', '.'], 1);
    assert.deepEqual([decisions?.lemma, decisions?.word_class, decisions?.pos], ['uamuzi', 'noun', 'N06']);
    const others = at(['Nyumba', 'zingine', 'ni', 'kubwa', '.'], 1);
    assert.deepEqual([others?.lemma, others?.word_class], ['ingine', 'adjective']);
    const charcoal = at(['Wanauza', 'makaa', 'sokoni', '.'], 1);
    assert.deepEqual([charcoal?.lemma, charcoal?.word_class], ['kaa', 'noun']);
    assert.equal(at(['Kaa', 'hapa', '.'], 0)?.word_class, 'verb');
    const holy = at(['Ni', 'ufalme', 'Mtakatifu', '.'], 2);
    assert.deepEqual([holy?.lemma, holy?.word_class], ['takatifu', 'adjective']);
    const worldly = at(['Ni', 'desturi', 'ya', 'watu', 'ki-Afrika', '.'], 4);
    assert.deepEqual([worldly?.lemma, worldly?.word_class], ['Afrika', 'manner_adverb']);
  });

  it('reads vile after kama and hivi after a verb as adverbs, a noun-or-adjective at a clause start as the noun, and pana after its noun as the adjective (words outside the texts)', () => {
    const analyzer = new EngineTextAnalyzer('swh', morphology);
    const at = (tokens: string[], i: number) => analyzer.analyzeTokens(tokens)[i]?.[0];
    const read = (tokens: string[], i: number) => {
      const r = at(tokens, i);
      return [r?.lemma, r?.word_class];
    };
    // kama vile 'such as' (makalima-ch19: vile vile, hivi among the adverbs); after its noun vile stays the demonstrative
    assert.deepEqual(read(['Tulinunua', 'matunda', 'kama', 'vile', 'machungwa', '.'], 3), ['vile', 'adverb']);
    assert.deepEqual(read(['Nilivisoma', 'vitabu', 'vile', '.'], 2), ['vile', 'demonstrative']);
    assert.deepEqual(read(['Usiseme', 'hivi', '.'], 1), ['hivi', 'adverb']);
    assert.deepEqual(read(['Viti', 'hivi', 'ni', 'vipya', '.'], 1), ['hivi', 'demonstrative']);
    // a word that is a noun and an adjective heads its clause as the noun; after a noun it is the adjective
    assert.deepEqual(read(['Jirani', 'yangu', 'alikuja', 'jana', '.'], 0), ['jirani', 'noun']);
    assert.deepEqual(read(['Tajiri', 'huyo', 'alinunua', 'shamba', '.'], 0), ['tajiri', 'noun']);
    assert.deepEqual(read(['Mtu', 'tajiri', 'alinunua', 'shamba', '.'], 1), ['tajiri', 'adjective']);
    // -pana 'wide' in class 9/10 has no nasal (barabara pana), the one-syllable -pya keeps it (nyumba mpya)
    assert.deepEqual(read(['Tulipita', 'barabara', 'pana', '.'], 2), ['pana', 'adjective']);
    assert.deepEqual(read(['Nyumbani', 'pana', 'watu', 'wengi', '.'], 1), ['na', 'have']);
    assert.deepEqual(read(['Walijenga', 'nyumba', 'mpya', '.'], 2), ['pya', 'adjective']);
    // pasi na 'without'; a stative is read by its root (walitawanyika: tawanya)
    assert.deepEqual(read(['Alifanya', 'kazi', 'pasi', 'na', 'msaada', '.'], 2), ['pasi', 'preposition']);
    assert.deepEqual(read(['Alifanya', 'kazi', 'pasi', 'na', 'msaada', '.'], 3), ['na', 'preposition']);
    assert.deepEqual(read(['Watu', 'walitawanyika', 'haraka', '.'], 1), ['tawanya', 'verb']);
  });

  it('reads na before an infinitive as and, kuwa with a locative enclitic as kuwa, and regular applicatives by their root (words outside the texts)', () => {
    const analyzer = new EngineTextAnalyzer('swh', morphology);
    const at = (tokens: string[], i: number) => analyzer.analyzeTokens(tokens)[i]?.[0];
    // na right after a passive is the agent 'by', except before an infinitive, which it joins to the verb before
    assert.equal(at(['Watoto', 'walifundishwa', 'na', 'kuandika', 'barua', '.'], 2)?.word_class, 'conjunction');
    assert.equal(at(['Tunapenda', 'kusoma', 'na', 'kuimba', '.'], 2)?.word_class, 'conjunction');
    assert.equal(at(['Barua', 'iliandikwa', 'na', 'mwalimu', '.'], 2)?.word_class, 'preposition');
    // kuwa 'be' + -po, -ko, -mo (the final -a written -e or -a)
    for (const [tokens, i] of [
      [['Mvua', 'itakuwepo', 'kesho', '.'], 1],
      [['Wageni', 'walikuwako', 'sokoni', '.'], 1],
      [['Matunda', 'mengi', ',', 'yakiwemo', 'maembe', ',', 'yaliletwa', '.'], 3],
      [['Kuwepo', 'kwa', 'maji', 'ni', 'muhimu', '.'], 0],
    ] as const) {
      const reading = at([...tokens], i);
      assert.deepEqual([reading?.lemma, reading?.word_class], ['wa', 'verb'], tokens[i]);
      assert.equal(reading?.morphemes.at(-1)?.surface, tokens[i].slice(-2));
    }
    // fikia, hamia are fika, hama + the applicative (as golden.yaml's alifikia), and the -aji noun of hamia is still read
    assert.equal(at(['Tulifikia', 'mji', 'jioni', '.'], 0)?.lemma, 'fika');
    assert.equal(at(['Familia', 'itahamia', 'Mombasa', '.'], 1)?.lemma, 'hama');
    assert.equal(at(['Mhamiaji', 'huyo', 'alifika', 'jana', '.'], 0)?.lemma, 'mhamiaji');
    // -kavu 'dry' agrees with its noun (makalima-ch11)
    const dry = at(['Nguo', 'kavu', 'ziko', 'ndani', '.'], 1);
    assert.deepEqual([dry?.lemma, dry?.word_class], ['kavu', 'adjective']);
  });

  it('reads a command with a causative headword as that verb (Endesha, Tuliza, Lisha), wake after a verb as wives, and nouns of peoples with their capital (words outside the texts)', () => {
    const analyzer = new EngineTextAnalyzer('swh', morphology);
    const first = (tokens: string[], i = 0) => analyzer.analyzeTokens(tokens)[i]?.[0];
    // each was read as a shorter known verb + causative before (enda, tulia, la, kimbia, unga)
    assert.equal(first(['Endesha', 'gari', 'polepole', '.'])?.lemma, 'endesha');
    assert.equal(first(['Tuliza', 'moyo', 'wako', '.'])?.lemma, 'tuliza');
    assert.equal(first(['Lisha', 'mifugo', 'kila', 'siku', '.'])?.lemma, 'lisha');
    assert.equal(first(['Kimbiza', 'mbuzi', 'hao', '!'])?.lemma, 'kimbiza');
    assert.equal(first(['Osha', 'vipande', ',', 'kisha', 'unganisha', 'vyote', '.'], 4)?.lemma, 'unganisha');
    // an applicative is not a headword the rule prefers: the root stays first
    assert.equal(first(['Pikia', 'wageni', 'wali', '.'])?.lemma, 'pika');
    const wives = first(['Aliwaoa', 'wake', 'wawili', '.'], 1);
    assert.equal(wives?.lemma, 'mke');
    assert.equal(wives?.word_class, 'noun');
    assert.equal(first(['Mtoto', 'wake', 'analia', '.'], 1)?.word_class, 'possessive');
    assert.equal(first(['Wayao', 'wengi', 'wanaishi', 'Malawi', '.'])?.lemma, 'Myao');
    assert.equal(first(['Wazungu', 'walikuja', 'pwani', '.'])?.lemma, 'Mzungu');
    assert.equal(first(['Mwalimu', 'atamuajiri', 'kijana', '.'], 1)?.lemma, 'ajiri');
    assert.equal(first(['mji', 'mtulivu', '.'], 1)?.lemma, 'tulivu');
  });

  it('reads a word standing alone between punctuation marks as the call or answer (Haya, kwaheri; Ndiyo, wapo), the same word in a sentence as what it is there', () => {
    const analyzer = new EngineTextAnalyzer('swh', morphology);
    const [haya, , kwaheri] = analyzer.analyzeTokens(['Haya', ',', 'kwaheri', '.']);
    assert.equal(haya?.[0]?.word_class, 'interjection');
    assert.equal(kwaheri?.[0]?.word_class, 'interjection');
    assert.equal(analyzer.analyzeTokens(['mambo', 'haya', 'yote'])[1]?.[0]?.word_class, 'demonstrative');
    const [ndiyo, , wapo] = analyzer.analyzeTokens(['Ndiyo', ',', 'wapo', '.']);
    assert.equal(ndiyo?.[0]?.word_class, 'adverb');
    assert.equal(wapo?.[0]?.word_class, 'copula');
    assert.equal(analyzer.analyzeTokens(['Karibu', ',', 'dada', '!'])[0]?.[0]?.word_class, 'interjection');
    assert.equal(analyzer.analyzeTokens(['karibu', 'na', 'shule'])[0]?.[0]?.word_class, 'adverb');
  });

  it('the first reading has the gold lemma and word class for at least 91% of the stories (another source and genre)', () => {
    const m = measure(morphology, STORIES_TEXT);
    // Measured 77.8% (311/400) before any change for this text, 94.0% (376/400) when this floor was set.
    assert.ok(m.words >= 400, `the stories have ${m.words} words`);
    assert.ok(m.right / m.words >= 0.91, `${m.right}/${m.words} right; misses:\n${m.misses.join('\n')}`);
  });

  it('reads na as "with" after kuwa, a passive or karibu, and as "and" between two nouns', () => {
    const analyzer = new EngineTextAnalyzer('swh', morphology);
    const classOf = (tokens: string[], i: number) => analyzer.analyzeTokens(tokens)[i]?.[0]?.word_class;
    assert.equal(classOf(['walikuwa', 'na', 'hofu'], 1), 'preposition');
    assert.equal(classOf(['kulikuwa', 'na', 'kijiji'], 1), 'preposition');
    assert.equal(classOf(['wamezaliwa', 'na', 'mama'], 1), 'preposition');
    assert.equal(classOf(['karibu', 'na', 'mto'], 1), 'preposition');
    // the relative copula: walio na 'who have', lisilo na 'which has no'
    assert.equal(classOf(['watu', 'walio', 'na', 'mali'], 2), 'preposition');
    assert.equal(classOf(['jambo', 'lisilo', 'na', 'maana'], 2), 'preposition');
    assert.equal(classOf(['mbuzi', 'na', 'kuku'], 1), 'conjunction');
    assert.equal(classOf(['na'], 0), 'conjunction');
  });

  it('reads the negative of -na "have" with any class concord as "have" (Makalima ch. 18: hakina, havina, hazina)', () => {
    const analyzer = new EngineTextAnalyzer('swh', morphology);
    const readings = analyzer.analyzeTokens(['Kitabu', 'hiki', 'hakina', 'picha', ';', 'viti', 'havina', 'miguu']);
    for (const i of [2, 6]) assert.deepEqual([readings[i]?.[0]?.lemma, readings[i]?.[0]?.word_class], ['na', 'have'], String(i));
  });

  it('reads a verb that agrees with the noun before it as that verb, not as the conjunction of its form (nyumba ikiwa na watu)', () => {
    const analyzer = new EngineTextAnalyzer('swh', morphology);
    const [, ikiwa, na] = analyzer.analyzeTokens(['nyumba', 'ikiwa', 'na', 'watu']);
    assert.deepEqual([ikiwa?.[0]?.lemma, ikiwa?.[0]?.word_class, na?.[0]?.word_class], ['wa', 'verb', 'preposition']);
    // opening a clause, ikiwa is 'if'
    assert.equal(analyzer.analyzeTokens(['Ikiwa', 'mvua', 'itanyesha'])[0]?.[0]?.word_class, 'conjunction');
  });

  it('reads a guessed verb after the reflexive ji- as the root without it (wamejitetea: tetea)', () => {
    for (const [form, root] of [
      ['wamejitetea', 'tetea'],
      ['alijipodoa', 'podoa'],
    ] as const) {
      const [reading] = first(form);
      assert.deepEqual([reading?.lemma, reading?.in_lexicon, reading?.words[0]?.slots.object?.id], [root, false, 'refl'], form);
    }
  });

  it("chooses between a noun and another word, and between a noun's classes, by the word that agrees with it", () => {
    const analyzer = new EngineTextAnalyzer('swh', morphology);
    const [zamani] = analyzer.analyzeTokens(['zamani', 'za', 'kale']);
    assert.deepEqual([zamani?.[0]?.lemma, zamani?.[0]?.pos], ['zamani', 'N10']);
    assert.equal(analyzer.analyzeTokens(['zamani'])[0]?.[0]?.word_class, 'adverb');
    const [nguo] = analyzer.analyzeTokens(['nguo', 'zao']);
    assert.equal(nguo?.[0]?.pos, 'N10');
    assert.equal(analyzer.analyzeTokens(['nguo', 'yake'])[0]?.[0]?.pos, 'N09');
  });

  it('reads a character called by its kind and a capitalised known verb inside a sentence as names, the same form as a name everywhere, but not a title of common words', () => {
    const analyzer = new EngineTextAnalyzer('swh', morphology);
    // Fisi Mkubwa: hyena (class 9) + big (class 1, not agreeing) is a name, at a sentence's start too;
    // Andika inside a sentence is no verb; Fisi then is a name wherever it is capitalised.
    const tokens = ['Fisi', 'Mkubwa', 'alimwona', 'Andika', '.', 'Andika', 'alikimbia', 'na', 'Fisi', '.', 'Baraza', 'Kuu', 'lilikutana', '.'];
    const first = analyzer.analyzeTokens(tokens).map((r) => r[0]);
    for (const i of [0, 1, 3, 5, 8]) assert.deepEqual([first[i]?.lemma, first[i]?.pos], [tokens[i], 'NPP'], tokens[i]);
    assert.deepEqual([first[10]?.lemma, first[10]?.word_class], ['baraza', 'noun']);
    assert.deepEqual([first[11]?.lemma, first[11]?.word_class], ['kuu', 'adjective']);
    // small, the same words are common words; quoted speech starts a sentence
    const small = analyzer.analyzeTokens(['fisi', 'mkubwa', 'alikimbia', ',', '"', 'Andika', '!', '"']).map((r) => r[0]);
    assert.deepEqual([small[0]?.word_class, small[1]?.word_class, small[5]?.word_class], ['noun', 'adjective', 'verb']);
  });

  it('reads the capitalised words of a title-case headline as the words they are, the unknown ones as names', () => {
    const analyzer = new EngineTextAnalyzer('swh', morphology);
    // every long word capitalised: a headline; Kuandika and Shuleni follow a name but are a verb and a locative
    const headline = ['Watoto', 'wa', 'Kenya', 'Kuandika', 'Vitabu', 'Shuleni'];
    const first = analyzer.analyzeTokens(headline).map((r) => r[0]);
    assert.deepEqual(
      first.map((r) => [r?.lemma, r?.word_class]),
      [
        ['mtoto', 'noun'],
        ['a', 'possessive'],
        ['Kenya', 'proper_noun'],
        ['andika', 'verb'],
        ['kitabu', 'noun'],
        ['shule', 'locative'],
      ],
    );
    // a sentence with a small long word is running text: a capitalised known verb inside it is a name
    const running = analyzer.analyzeTokens(['Watoto', 'wa', 'Kenya', 'walimwona', 'Andika', '.']).map((r) => r[0]);
    assert.equal(running[4]?.word_class, 'proper_noun');
    // a known noun after a name stays the noun (kaskazini 'north' in a place name); an unknown word after it is a name
    const place = analyzer.analyzeTokens(['Watu', 'wa', 'Korea', 'Kaskazini', 'na', 'Kim', 'Jong', 'walifika']).map((r) => r[0]);
    assert.deepEqual(
      [place[2], place[3], place[5], place[6]].map((r) => r?.word_class),
      ['proper_noun', 'noun', 'proper_noun', 'proper_noun'],
    );
  });

  it('reads a headline on a line of its own, ended by a single line break, as a headline (POST analyze-text)', async () => {
    const service = new TextService({ morphology: () => morphology });
    // Kuandika after a name would be a name inside running text; the line break ends the headline
    const result = await service.analyzeText('swh', 'Watoto wa Kenya Kuandika Vitabu Shuleni\nWatoto wa Kenya wanaandika vitabu.\nIbara ya 1\nKila mtu ana haki ya kuishi.');
    assert.ok(result.ok);
    assert.equal(result.value.sentences.length, 4);
    const read = (form: string) => result.value.tokens.find((t) => t.text === form)?.analyses[0];
    assert.deepEqual([read('Kuandika')?.lemma, read('Kuandika')?.word_class], ['andika', 'verb']);
    // a heading's next line starts a sentence: its first word is the quantifier, not a name
    assert.deepEqual([read('Kila')?.lemma, read('Kila')?.word_class], ['kila', 'quantifier']);
  });

  it("reads an unknown capitalised word inside a sentence as a proper name, but not a sentence's first word that the grammar reads", () => {
    const analyzer = new EngineTextAnalyzer('swh', morphology);
    const readings = analyzer.analyzeTokens(['Mama', 'na', 'Larry', 'walisema', '.', 'Betty', 'alijibu', '.', 'Wanakijiji', 'walifika']);
    assert.deepEqual([readings[2]?.[0]?.lemma, readings[2]?.[0]?.pos], ['Larry', 'NPP']);
    assert.deepEqual([readings[5]?.[0]?.lemma, readings[5]?.[0]?.pos], ['Betty', 'NPP']);
    assert.equal(readings[0]?.[0]?.lemma, 'mama');
    assert.notEqual(readings[8]?.[0]?.pos, 'NPP');
  });

  it('reads a ki- manner adverb made from the stem of a known noun (kienyeji from mwenyeji)', () => {
    const [reading] = first('kienyeji');
    assert.deepEqual([reading?.lemma, reading?.features.word_class, reading?.in_lexicon], ['enyeji', 'manner_adverb', true]);
  });

  it("tags readings in the annotated text's tag set, so eval text gives a POS figure", () => {
    const analyzer = new EngineTextAnalyzer('swh', morphology);
    const tags = analyzer.analyzeTokens(['Watoto', 'na', 'mama', 'wao', 'walikuwa', 'na', 'nguo', 'zote', 'hizi']).map((r) => r[0]?.pos);
    assert.deepEqual(tags, ['N02', 'CONJ', 'N01', 'POSS', 'V', 'PREP', 'N10', 'QUANT', 'DEM']);
    const report = evaluateText(analyzer, parseSadii(readFileSync(STORIES_TEXT, 'utf8')), () => false);
    // Measured 96.00% (384/400) when this floor was set; 45.75% with the engine's own word-class names.
    assert.ok(report.all.pos >= 90, `POS ${report.all.pos}%`);
  });

  it('reads an unknown first word as a name when the verb after it cannot have it as subject, and an adjective by the noun before it', () => {
    const analyzer = new EngineTextAnalyzer('swh', morphology);
    const first = (tokens: string[], i = 0) => analyzer.analyzeTokens(tokens)[i]?.[0];
    // a guessed verb before a copula; a guessed class 3 noun before a class 9 concord
    assert.deepEqual([first(['Amina', 'ni', 'mwalimu'])?.pos, first(['Mombasa', 'iko', 'pwani'])?.pos], ['NPP', 'NPP']);
    // a guessed class 2 noun before a class 2 concord stays the noun
    assert.equal(first(['Wanakijiji', 'walifika'])?.word_class, 'noun');
    // mkuu is the adjective of class 3 after mji (not the noun 'chief'), also before a word that agrees with the noun
    const mkuu = first(['Nairobi', 'ni', 'mji', 'mkuu', 'wa', 'Kenya'], 3);
    assert.deepEqual([mkuu?.lemma, mkuu?.word_class, mkuu?.morphemes[0]?.tag], ['kuu', 'adjective', 'AdjPre3']);
    assert.equal(first(['mkuu', 'wa', 'kijiji'])?.word_class, 'noun');
  });

  it('reads a noun in -aji made from a known verb as the agent (classes 1/2) or the act (class 14), and mwana- + a known noun, its citation the singular', () => {
    const analyzer = new EngineTextAnalyzer('swh', morphology);
    const readings = analyzer.analyzeTokens(['wasomaji', 'mwimbaji', 'waandikaji', 'upikaji']).map((r) => r[0]);
    assert.deepEqual(
      readings.map((r) => [r?.lemma, r?.pos, r?.guess]),
      [
        ['msomaji', 'N02', false],
        ['mwimbaji', 'N01', false],
        ['mwandikaji', 'N02', false],
        ['upikaji', 'N14', false],
      ],
    );
    assert.deepEqual(
      readings[0]?.morphemes.map((m) => `${m.canonical}[${m.tag}]`),
      ['wa[BPre2]', 'somaji[NStem]'],
    );
    // no known verb *ta behind mtaji: it stays a guess
    assert.equal(analyzer.analyzeTokens(['mtaji'])[0]?.[0]?.guess, true);
    // mwana- + a known noun: wanachama 'members' (chama 'party, society')
    const [member] = analyzer.analyzeTokens(['wanachama']).map((r) => r[0]);
    assert.deepEqual([member?.lemma, member?.pos, member?.guess], ['mwanachama', 'N02', false]);
  });

  it('reads a kinship noun with a contracted possessive as the noun, the possessive its last morpheme', () => {
    const analyzer = new EngineTextAnalyzer('swh', morphology);
    const readings = analyzer.analyzeTokens(['babake', 'mwanangu', 'wenzao', 'nduguye']).map((r) => r[0]);
    assert.deepEqual(
      readings.map((r) => [r?.lemma, r?.pos]),
      [
        ['baba', 'N01'],
        ['mwana', 'N01'],
        ['mwenzi', 'N02'],
        ['ndugu', 'N01'],
      ],
    );
    assert.deepEqual(
      readings.map((r) => r?.morphemes.at(-1)?.canonical),
      ['ake', 'angu', 'ao', 'ake'],
    );
    // not after a noun of another class: kitabu + ke is no word, and stays a guess
    assert.notEqual(analyzer.analyzeTokens(['kitabuke'])[0]?.[0]?.lemma, 'kitabu');
  });

  it("gives each morpheme of a reading the annotation's tag, so eval text scores segmentation tags", () => {
    const analyzer = new EngineTextAnalyzer('swh', morphology);
    const [verb, noun, poss] = analyzer.analyzeTokens(['wamezaliwa', 'watoto', 'wake']).map((r) => r[0]);
    assert.deepEqual(
      verb?.morphemes.map((m) => `${m.canonical}[${m.tag}]`),
      ['wa[SC2]', 'me[Perf]', 'za[VRoot]', 'liw[PassExt]', 'a[VerbTerm]'],
    );
    assert.deepEqual(
      noun?.morphemes.map((m) => `${m.canonical}[${m.tag}]`),
      ['wa[BPre2]', 'toto[NStem]'],
    );
    assert.equal(poss?.morphemes.at(-1)?.tag, 'PossStem');
    const report = evaluateText(analyzer, parseSadii(readFileSync(DEV_TEXT, 'utf8')), () => false);
    // Measured 72.92% when the tags were mapped (0% with the engine's slot names, subject:c2, tam:perfect).
    assert.ok(report.all.tag_f1 >= 65, `tag F1 ${report.all.tag_f1}%`);
  });

  it('ranks the readings of POST analyze-text with the sentence as context, as the word-by-word slices cannot', async () => {
    const service = new TextService({ morphology: () => morphology });
    const result = await service.analyzeText('swh', 'Walikuwa na hofu. Mbuzi na kuku.');
    assert.ok(result.ok);
    const na = result.value.tokens.filter((t) => t.text === 'na').map((t) => t.analyses[0]?.word_class);
    assert.deepEqual(na, ['preposition', 'conjunction']);
  });

  it('ranks POST analyze-text with the punctuation the measure sees: a comma starts a clause (..., acha maji)', async () => {
    const service = new TextService({ morphology: () => morphology });
    const result = await service.analyzeText('swh', 'Weka sufuria jikoni, acha maji yachemke.');
    assert.ok(result.ok);
    const acha = result.value.tokens.find((t) => t.text === 'acha')!.analyses[0];
    assert.deepEqual([acha?.lemma, acha?.word_class], ['acha', 'verb']);
    const comma = result.value.tokens.find((t) => t.text === ',')!.analyses;
    assert.deepEqual(
      comma.map((r) => r.pos),
      ['PUNC'],
    );
  });

  it('reads the negative subjunctive of a verb no lexicon knows with its negative marker, not as a longer root', () => {
    // UDHR art. 5 asiteswe 'that he not be tortured': a- subject, -si- negative, tes-w-e passive subjunctive
    for (const [word, lemma] of [
      ['asiteswe', 'tesa'],
      ['asinyanyaswe', 'nyanyasa'],
    ]) {
      const [reading] = first(word!);
      assert.deepEqual([reading?.lemma, reading?.features.mood, reading?.features.polarity, reading?.in_lexicon], [lemma, 'subjunctive', 'negative', false], word);
    }
  });

  it('reads a capitalised plural noun as the noun the lexicon knows, not as a guessed verb', () => {
    const [reading] = first('Watu');
    assert.equal(reading?.lemma, 'mtu');
    assert.equal(reading?.features.word_class, 'noun');
    assert.equal(reading?.features.number, 'pl');
    assert.equal(reading?.in_lexicon, true);
  });

  it('puts the closed-class reading of na, ni, kwa and ya first', () => {
    const expected: Record<string, [string, string]> = {
      na: ['na', 'conjunction'],
      ni: ['ni', 'copula'],
      kwa: ['kwa', 'preposition'],
      ya: ['a', 'possessive'],
      hii: ['hii', 'demonstrative'],
      ambao: ['amba', 'relative'],
    };
    for (const [word, [lemma, wordClass]] of Object.entries(expected)) {
      const [reading] = first(word);
      assert.deepEqual([reading?.lemma, reading?.features.word_class], [lemma, wordClass], word);
    }
  });

  it('prefers a known noun that spells the whole word to a known verb of one letter (hali: condition, not ha-l-i)', () => {
    const readings = first('hali');
    assert.equal(readings[0]?.lemma, 'hali');
    assert.equal(readings[0]?.features.word_class, 'noun');
    const verb = readings.find((r) => r.features.word_class === 'verb' && r.lemma === 'la');
    assert.ok(verb, 'the reading "does not eat" is still offered');
    assert.ok(verb.score < readings[0]!.score);
  });

  it('reads a passive verb as its known root with the passive extension, before a guessed root', () => {
    const [reading] = first('wamezaliwa');
    assert.equal(reading?.lemma, 'zaa');
    assert.equal(reading?.in_lexicon, true);
    assert.equal(reading?.words[0]?.slots.extensions?.id, 'passive');
  });

  it('reads an intensive verb in -ili-/-ele- as its known root with the intensive extension (verbs.yaml)', () => {
    // words outside the development texts: fuatilia 'pursue carefully' (fuata), shindilia 'ram down' (shinda)
    for (const [form, root] of [
      ['wanafuatilia', 'fuata'],
      ['hushindilia', 'shinda'],
    ] as const) {
      const [reading] = first(form);
      assert.equal(reading?.lemma, root, form);
      assert.equal(reading?.in_lexicon, true, form);
      assert.equal(reading?.words[0]?.slots.extensions?.id, 'intensive', form);
    }
  });

  it('translates an intensive verb as its root done firmly, not as the bare root (shikilia: hold firmly)', () => {
    const [reading] = first('anashikilia');
    assert.deepEqual([reading?.lemma, reading?.gloss], ['shika', 'hold']);
    assert.equal(reading?.english, 'she/he is holding someone firmly');
  });

  it('reads a locative in -ni as its noun', () => {
    const [reading] = first('duniani');
    assert.deepEqual([reading?.lemma, reading?.features.word_class, reading?.features.form], ['dunia', 'noun', 'locative']);
  });

  it('reads an inflected verb whose root is outside the lexicon as a guessed verb, marked as a guess', () => {
    const [reading] = first('wanagonga');
    assert.deepEqual([reading?.lemma, reading?.features.word_class, reading?.features.tense, reading?.in_lexicon], ['gonga', 'verb', 'present', false]);
  });

  it('reads a relative whose head is not its subject: the object (-cho-), a time or place (-po-, -ko-, -mo-), with the head in its features', () => {
    // Ashton 1944, ch. 28-30: kitabu nilichokisoma 'the book which I read'; walipofika 'when they arrived';
    // tunakokwenda 'where we are going'; anachokula 'what she/he eats' (ku- of a monosyllable kept).
    const expected: Record<string, [string, string, string | undefined, string]> = {
      nilichokisoma: ['soma', '1sg', 'c7', 'c7'],
      nilichokinunua: ['nunua', '1sg', 'c7', 'c7'],
      walipofika: ['fika', 'c2', undefined, 'c16'],
      anachokula: ['la', 'c1', undefined, 'c7'],
      wanamokaa: ['kaa', 'c2', undefined, 'c18'],
    };
    for (const [word, [lemma, subject, object, head]] of Object.entries(expected)) {
      const readings = first(word);
      assert.equal(readings[0]?.lemma, lemma, word);
      assert.equal(readings[0]?.features.word_class, 'verb', word);
      const reading = readings.find((r) => r.lemma === lemma && r.features.head === head);
      assert.ok(reading, `${word}: a reading with head ${head}`);
      assert.equal(reading.features.subject, subject, word);
      assert.equal(reading.features.object, object, word);
    }
    const [object] = first('nilichokisoma');
    assert.equal(object?.english, 'which I read');
    // amba- + the relative concord: a word of its own with its class (Ashton 1944, ch. 29).
    for (const [word, cls, english] of [
      ['ambaye', 'c1', 'who'],
      ['ambacho', 'c7', 'which'],
      ['ambapo', 'c16', 'where'],
    ] as const) {
      const [reading] = first(word);
      assert.deepEqual([reading?.lemma, reading?.features.word_class, reading?.features.subject], ['amba', 'relative', cls], word);
      assert.equal(reading?.english, english, word);
    }
  });

  it('reads the copula of place, positive and negative, and the prepositions mpaka and tangu', () => {
    // Ashton 1944 (-ko, -po, -mo; negative ha- + subject prefix); Johnson 1939, s.v. mpaka, tangu.
    const expected: Record<string, [string, string]> = {
      yuko: ['ko', 'copula'],
      hayuko: ['ko', 'copula'],
      hawapo: ['po', 'copula'],
      hakimo: ['mo', 'copula'],
      siko: ['ko', 'copula'],
      mpaka: ['mpaka', 'preposition'],
      tangu: ['tangu', 'preposition'],
      hadi: ['hadi', 'preposition'],
      kuhusu: ['husu', 'verb'],
    };
    for (const [word, [lemma, wordClass]] of Object.entries(expected)) {
      const [reading] = first(word);
      assert.deepEqual([reading?.lemma, reading?.features.word_class], [lemma, wordClass], word);
    }
    assert.match(first('hayuko')[0]?.english ?? '', /is not/);
    assert.equal(first('kuna')[0]?.english, 'there is');
    assert.match(first('kuhusu')[0]?.english ?? '', /about/);
  });

  it("reads a ki- adverb built on a noun's plural as that plural, nouns of peoples with their capital, mnamo as a preposition and invariable adjectives", () => {
    const analyzer = new EngineTextAnalyzer('swh', morphology);
    const first = analyzer.analyzeTokens(['walifanya', 'kazi', 'kimakundi', '.', 'Wafaransa', 'wawili', 'walifika', 'mnamo', 'mwaka', 'huo', '.', 'Samaki', 'ni', 'hai', '.']).map((r) => r[0]);
    // kimakundi 'in groups': ki- + makundi, the plural of kundi (class 5/6)
    assert.deepEqual([first[2]?.lemma, first[2]?.word_class], ['makundi', 'manner_adverb']);
    // the plural of a class 1 noun of a people, read as its singular with the capital it is written with
    assert.deepEqual([first[4]?.lemma, first[4]?.pos], ['Mfaransa', 'N02']);
    assert.equal(first[7]?.word_class, 'preposition');
    assert.deepEqual([first[13]?.lemma, first[13]?.word_class], ['hai', 'adjective']);
    // the wa- + a of an ethnonym keeps both vowels (Waafrika), unlike walimu (wa- + alimu)
    assert.deepEqual([first.length, analyzer.analyzeTokens(['Waafrika'])[0]?.[0]?.lemma], [15, 'Mwafrika']);
    // a word of the lexicon without the capital flag keeps its small letters at a sentence's start
    assert.equal(analyzer.analyzeTokens(['Watoto', 'walicheza', '.'])[0]?.[0]?.lemma, 'mtoto');
  });

  it('reads the plural of a noun that keeps ki- before a vowel with vi- (vioo, viumbe), and ch-/vy- nouns as before', () => {
    const lemmaOf = (word: string) => first(word).find((a) => a.in_lexicon && a.features.word_class === 'noun')?.lemma;
    assert.equal(lemmaOf('vioo'), 'kioo');
    assert.equal(lemmaOf('viumbe'), 'kiumbe');
    assert.equal(lemmaOf('vyakula'), 'chakula');
    assert.equal(lemmaOf('vyombo'), 'chombo');
    // class 3: mw- before o keeps its mi- plural (mwongozo, miongozo); m- before o as before (moyo, mioyo)
    assert.equal(lemmaOf('miongozo'), 'mwongozo');
    assert.equal(lemmaOf('mioyo'), 'moyo');
  });

  it('reads a ki- word no lexicon knows after the -a of association as a manner adverb, a known noun there as the noun', () => {
    const analyzer = new EngineTextAnalyzer('swh', morphology);
    const read = (tokens: string[], i: number) => {
      const r = analyzer.analyzeTokens(tokens)[i]?.[0];
      return [r?.lemma, r?.word_class];
    };
    // 'psychological treatment': saikolojia is in no lexicon here
    assert.deepEqual(read(['matibabu', 'ya', 'kisaikolojia'], 2), ['saikolojia', 'manner_adverb']);
    assert.deepEqual(read(['jalada', 'la', 'kitabu'], 2), ['kitabu', 'noun']);
    // not after another word
    assert.notEqual(read(['tuliona', 'kisaikolojia'], 1)[1], 'manner_adverb');
    // written with a capital, it is made on a name (Kisovieti on Sovieti): the stem keeps the capital
    assert.deepEqual(read(['serikali', 'ya', 'Kisovieti'], 2), ['Sovieti', 'manner_adverb']);
  });

  it('reads the negative present of -na "have" in every person as -na (sina, huna, hatuna, hamna; Makalima ch. 18)', () => {
    const analyzer = new EngineTextAnalyzer('swh', morphology);
    const tokens = ['Mimi', 'sina', 'pesa', ',', 'wewe', 'huna', 'kazi', ',', 'sisi', 'hatuna', 'shamba', 'na', 'ninyi', 'hamna', 'nyumba', '.'];
    const readings = analyzer.analyzeTokens(tokens);
    for (const i of [1, 5, 9, 13]) assert.deepEqual([readings[i]?.[0]?.lemma, readings[i]?.[0]?.word_class, readings[i]?.[0]?.pos], ['na', 'have', 'V'], tokens[i]);
    // each with its person, as the positive nina, una, tuna, mna
    assert.deepEqual(
      ['sina', 'huna', 'hatuna', 'hamna'].map((w) => first(w).find((a) => a.features.word_class === 'have')?.features.subject),
      ['1sg', '2sg', '1pl', '2pl'],
    );
  });

  it("reads ki- + the stem of a people's noun as the language, a class 7 noun with its capital (Kiingereza of Mwingereza)", () => {
    const analyzer = new EngineTextAnalyzer('swh', morphology);
    const tokens = ['Kiingereza', 'ni', 'lugha', 'ngumu', ',', 'lakini', 'wanasema', 'Kichina', 'na', 'kireno', 'vizuri', '.'];
    const first = analyzer.analyzeTokens(tokens).map((r) => r[0]);
    assert.deepEqual([first[0]?.lemma, first[0]?.pos], ['Kiingereza', 'N07']);
    assert.deepEqual([first[7]?.lemma, first[7]?.pos], ['Kichina', 'N07']);
    assert.deepEqual([first[9]?.lemma, first[9]?.pos], ['Kireno', 'N07']);
    // a ki- word on the stem of a noun that names no people stays the manner adverb (kindugu 'brotherly')
    assert.equal(analyzer.analyzeTokens(['waliishi', 'kindugu'])[1]?.[0]?.word_class, 'manner_adverb');
  });

  it("reads a headline's unknown verbs as verbs and a sentence-opening infinitive as the subject it is, not as names", () => {
    const analyzer = new EngineTextAnalyzer('swh', morphology);
    // a title-case headline: every long word capitalised; the verbs' roots are in no lexicon here
    const headline = analyzer.analyzeTokens(['Wakulima', 'wa', 'Kenya', 'Wamegoma', 'Kudai', 'Bei', 'Nzuri']).map((r) => r[0]);
    assert.deepEqual([headline[3]?.lemma, headline[3]?.word_class], ['goma', 'verb']);
    assert.deepEqual([headline[4]?.lemma, headline[4]?.word_class], ['dai', 'verb']);
    assert.equal(headline[2]?.word_class, 'proper_noun');
    // an infinitive opening a sentence before a verb without a subject concord (hu-) or of class 15
    for (const verb of ['husaidia', 'kunasaidia']) {
      const opening = analyzer.analyzeTokens(['Kuchanjwa', verb, 'watoto', '.'])[0]?.[0];
      assert.deepEqual([opening?.lemma, opening?.word_class], ['chanja', 'verb'], verb);
    }
    // a name before a verb that cannot take it as subject stays a name (Amina ni ...)
    assert.equal(analyzer.analyzeTokens(['Amina', 'ni', 'mwalimu', '.'])[0]?.[0]?.word_class, 'proper_noun');
  });

  it('guesses the passive of a loan verb in -i that no lexicon knows as that verb (lilitafitiwa: tafiti), and -ewa as a native -ea verb', () => {
    const analyzer = new EngineTextAnalyzer('swh', morphology);
    const read = (tokens: string[]) => analyzer.analyzeTokens(tokens).at(-1)?.[0];
    // tafiti 'research' and tathmini 'evaluate' are in no lexicon here: the passive's -iw- follows the loan's own -i
    assert.deepEqual([read(['jambo', 'hilo', 'lilitafitiwa'])?.lemma, read(['jambo', 'hilo', 'lilitafitiwa'])?.word_class], ['tafiti', 'verb']);
    assert.equal(read(['mradi', 'huo', 'ulitathminiwa'])?.lemma, 'tathmini');
    // -ew- after a consonant stays the passive of an -ea verb (tetea 'defend': kutetewa), not a loan in -e
    assert.equal(read(['haki', 'ilitetewa'])?.lemma, 'tetea');
  });

  it('the first reading has the gold lemma and word class for at least 87% of the recipe text (cooking instructions, annotated before the engine read it)', () => {
    const m = measure(morphology, RECIPE_TEXT);
    // Measured 83.3% (249/299) before any change for this text, 91.0% (272/299) when this floor was set.
    assert.ok(m.words > 290, `the recipe text has ${m.words} words`);
    assert.ok(m.right / m.words >= 0.87, `${m.right}/${m.words}`);
  });

  it('reads a possessive right after a noun it agrees with as the possessive, not the copula of place of its form (mti wako, miti yako)', () => {
    const analyzer = new EngineTextAnalyzer('swh', morphology);
    const second = (tokens: string[]) => analyzer.analyzeTokens(tokens)[1]?.[0];
    // wako, yako: possessives of class 3 and 4 after their nouns; the copula wako 'they are there' spells the first
    for (const [noun, poss] of [
      ['mti', 'wako'],
      ['miti', 'yako'],
      ['mguu', 'wako'],
    ] as const) {
      const reading = second([noun, poss, 'ni', 'mrefu']);
      assert.deepEqual([reading?.lemma, reading?.word_class], ['ako', 'possessive'], `${noun} ${poss}`);
    }
    // with no noun before it the copula of place stays a reading of its own
    assert.ok(analyzer.analyzeTokens(['wako', 'nyumbani'])[0]?.some((r) => r.word_class === 'copula'));
  });

  it('reads a known verb as its imperative at the head of a clause and after kisha / halafu, not as another verb with affixes (acha: a-cha)', () => {
    const analyzer = new EngineTextAnalyzer('swh', morphology);
    const at = (tokens: string[], i: number) => analyzer.analyzeTokens(tokens)[i]?.[0];
    assert.deepEqual([at(['acha', 'kelele', '.'], 0)?.lemma, at(['acha', 'kelele', '.'], 0)?.word_class], ['acha', 'verb']);
    assert.equal(at(['Soma', 'kitabu', ',', 'halafu', 'acha', 'hapo', '.'], 4)?.lemma, 'acha');
    // inside a clause the other reading keeps its place, and an infinitive read first stays first
    assert.equal(at(['Kuwa', 'mwaminifu', '.'], 0)?.lemma, 'wa');
  });

  it('reads class 14 nouns written with w- before a vowel stem (woga, wali) as the nouns', () => {
    for (const word of ['woga', 'wali']) {
      const reading = first(word)[0];
      assert.deepEqual([reading?.lemma, reading?.features.word_class, reading?.in_lexicon], [word, 'noun', true], word);
    }
  });

  it("reads na after a passive as the agent's 'by' also with an adverb between (alipigwa vibaya na polisi), and as 'and' after other verbs", () => {
    const analyzer = new EngineTextAnalyzer('swh', morphology);
    const na = (tokens: string[]) => analyzer.analyzeTokens(tokens)[tokens.indexOf('na')]?.[0]?.word_class;
    assert.equal(na(['alipigwa', 'vibaya', 'na', 'polisi']), 'preposition');
    assert.equal(na(['kitabu', 'kiliandikwa', 'zamani', 'na', 'mwandishi']), 'preposition');
    assert.equal(na(['walikwenda', 'sokoni', 'na', 'watoto', 'wao']), 'conjunction');
  });
  it("reads na with a referential pronoun as 'with' after kuwa, a passive or a verb it closes the clause of, and as 'and' opening a clause", () => {
    const analyzer = new EngineTextAnalyzer('swh', morphology);
    const at = (tokens: string[], word: string) => analyzer.analyzeTokens(tokens)[tokens.indexOf(word)]?.[0]?.word_class;
    assert.equal(at(['Sikuwa', 'nazo', 'pesa', '.'], 'nazo'), 'preposition');
    assert.equal(at(['Walitokana', 'nalo', '.'], 'nalo'), 'preposition');
    assert.equal(at(['Mtoto', 'alikaa', 'naye', '.'], 'naye'), 'preposition');
    assert.equal(at(['Wageni', 'walifika', ',', 'naye', 'akaondoka', '.'], 'naye'), 'conjunction');
  });

  it('reads a class 9 possessive after a noun of kinship of class 1a as the possessive (baba yako, dada yako), not the copula of place', () => {
    const analyzer = new EngineTextAnalyzer('swh', morphology);
    for (const [noun, poss] of [
      ['baba', 'yako'],
      ['dada', 'yako'],
      ['shangazi', 'yako'],
    ]) {
      const reading = analyzer.analyzeTokens(['Nilimwona', noun!, poss!, 'jana', '.'])[2]?.[0];
      assert.deepEqual([reading?.lemma, reading?.word_class], ['ako', 'possessive'], `${noun} ${poss}`);
    }
  });

  it('reads nouns of the kitchen and of kin and place the lexicon has from cited dictionaries (nazi, iliki, ladha, ukoo, ufukwe)', () => {
    for (const [word, lemma] of [
      ['nazi', 'nazi'],
      ['iliki', 'iliki'],
      ['ladha', 'ladha'],
      ['koo', 'ukoo'],
      ['fukwe', 'ufukwe'],
    ]) {
      const reading = first(word!)[0];
      assert.deepEqual([reading?.lemma, reading?.features.word_class], [lemma, 'noun'], word);
    }
  });

  it("reads pamoja na before an infinitive as 'with', hivi after a quantity as the adverb, a small foreign word as foreign and a people's noun of religion with its capital (words outside the texts)", () => {
    const analyzer = new EngineTextAnalyzer('swh', morphology);
    const at = (tokens: string[], i: number) => analyzer.analyzeTokens(tokens)[i]?.[0];
    const with_ = at(['Alilima', 'pamoja', 'na', 'kupanda', 'miti', '.'], 2);
    assert.equal(with_?.word_class, 'preposition');
    // (na between two infinitives stays 'and')
    assert.equal(at(['Alipenda', 'kusoma', 'na', 'kuandika', '.'], 2)?.word_class, 'conjunction');
    const about = at(['Walikaa', 'siku', 'chache', 'hivi', '.'], 3);
    assert.deepEqual([about?.lemma, about?.word_class], ['hivi', 'adverb']);
    // (hivi after its noun stays the demonstrative)
    assert.equal(at(['Vitabu', 'hivi', 'ni', 'vyangu', '.'], 1)?.word_class, 'demonstrative');
    const foreign = at(['Alipata', 'diploma', 'ya', 'engineering', 'mwaka', 'jana', '.'], 3);
    assert.deepEqual([foreign?.lemma, foreign?.word_class, foreign?.pos], ['engineering', 'foreign', 'FOR']);
    const christians = at(['Wakristo', 'wengi', 'walikuja', '.'], 0);
    assert.deepEqual([christians?.lemma, christians?.word_class], ['Mkristo', 'noun']);
  });
  it('the first reading has the gold lemma and word class for at least 96% of the technology text and 97% of the law text (annotated before the engine read them)', () => {
    // Measured 90.0% (278/309) and 96.4% (294/305) before any change for them (the seventeenth session).
    for (const [file, floor] of [
      [TECHNOLOGY_TEXT, 0.96],
      [LAW_TEXT, 0.97],
    ] as const) {
      const m = measure(morphology, file);
      assert.ok(m.words > 300, `${file} has ${m.words} words`);
      assert.ok(m.right / m.words >= floor, `${path.basename(file)}: ${m.right}/${m.words}`);
    }
  });

  it("reads na after a verb with a tense before a noun as 'with', kina before its own concord as the noun, huenda after its subject as the verb, a relative copula with -po, reduplicated words, -sha- 'already' and the auxiliary wakiwa (words outside the texts)", () => {
    const analyzer = new EngineTextAnalyzer('swh', morphology);
    const at = (tokens: string[], i: number) => analyzer.analyzeTokens(tokens)[i]?.[0];
    assert.equal(at(['Alikaa', 'na', 'rafiki', 'zake', '.'], 1)?.word_class, 'preposition');
    // (between two infinitives na stays 'and')
    assert.equal(at(['Alipenda', 'kula', 'na', 'kunywa', '.'], 2)?.word_class, 'conjunction');
    const depth = at(['Mto', 'huu', 'una', 'kina', 'kirefu', '.'], 3);
    assert.deepEqual([depth?.lemma, depth?.word_class], ['kina', 'noun']);
    // (kina before a noun it does not agree with stays -na 'have': Kitabu kina picha)
    assert.equal(at(['Kitabu', 'kina', 'picha', '.'], 1)?.word_class, 'have');
    const goes = at(['Yeye', 'huenda', 'sokoni', 'kila', 'siku', '.'], 1);
    assert.deepEqual([goes?.lemma, goes?.word_class], ['enda', 'verb']);
    assert.equal(at(['Huenda', 'akaja', 'kesho', '.'], 0)?.word_class, 'adverb');
    const there = at(['Kitabu', 'kilichopo', 'mezani', 'ni', 'changu', '.'], 1);
    assert.deepEqual([there?.lemma, there?.word_class], ['li', 'copula']);
    const jumping = at(['Watoto', 'wanarukaruka', 'uwanjani', '.'], 1);
    assert.deepEqual([jumping?.lemma, jumping?.word_class], ['ruka', 'verb']);
    const already = at(['Mgeni', 'ameshafika', 'nyumbani', '.'], 1);
    // (-mesha- is the cartridge's tense perfect_already, one tense marker; -ki-sha- stays the infix reading of context.yaml)
    assert.deepEqual([already?.lemma, already?.morphemes.map((m) => m.surface)], ['fika', ['a', 'mesha', 'fik', 'a']]);
    assert.equal(at(['Nimeshapata', 'chumba', '.'], 0)?.lemma, 'pata');
    const being = at(['Walifika', 'wakiwa', 'wamechoka', '.'], 1);
    assert.deepEqual([being?.lemma, being?.word_class], ['wa', 'verb']);
    // A language name is the class 7 noun, written with a capital, not a guessed ki- adverb of manner.
    const arabic = at(['Neno', 'hili', 'lina', 'asili', 'ya', 'Kiarabu', '.'], 5);
    assert.deepEqual([arabic?.lemma, arabic?.word_class, arabic?.pos], ['Kiarabu', 'noun', 'N07']);
    const software = at(['Alitumia', 'programu', 'huria', '.'], 2);
    assert.deepEqual([software?.lemma, software?.word_class], ['huria', 'adjective']);
  });

  it('the first reading has the gold lemma and word class for at least 97% of the transport text and 96% of the mathematics text (annotated before the engine read them)', () => {
    // Measured 96.2% (279/290) and 88.9% (272/306) before any change for them (the twentieth session).
    for (const [file, floor, words] of [
      [TRANSPORT_TEXT, 0.97, 285],
      [MATHEMATICS_TEXT, 0.96, 300],
    ] as const) {
      const m = measure(morphology, file);
      assert.ok(m.words >= words, `${file} has ${m.words} words`);
      assert.ok(m.right / m.words >= floor, `${path.basename(file)}: ${m.right}/${m.words}; misses:\n${m.misses.join('\n')}`);
    }
  });

  it("reads maziwa beside other waters as 'lakes', kisha after a comma as the adverb, tofauti after -na 'have' as the noun, and causatives the dictionaries give as verbs (words outside the texts)", () => {
    const analyzer = new EngineTextAnalyzer('swh', morphology);
    const at = (tokens: string[], i: number) => analyzer.analyzeTokens(tokens)[i]?.[0];
    assert.equal(at(['Nchi', 'hii', 'ina', 'maziwa', 'na', 'mito', 'mingi', '.'], 3)?.lemma, 'ziwa');
    // (with no water close by, maziwa stays 'milk')
    assert.equal(at(['Alikunywa', 'maziwa', 'na', 'chai', '.'], 1)?.lemma, 'maziwa');
    assert.equal(at(['Alikula', 'chakula', ',', 'kisha', 'akalala', '.'], 3)?.word_class, 'adverb');
    assert.equal(at(['Kisha', 'mgeni', 'akaondoka', '.'], 0)?.word_class, 'conjunction');
    const difference = at(['Hakuna', 'tofauti', 'kati', 'ya', 'vitu', 'hivi', '.'], 1);
    assert.deepEqual([difference?.lemma, difference?.word_class], ['tofauti', 'noun']);
    // (tofauti na 'different from' stays the adjective, at a clause's head too)
    assert.equal(at(['Jua', 'ni', 'nyota', ',', 'tofauti', 'na', 'sayari', '.'], 4)?.word_class, 'adjective');
    assert.equal(at(['Wanataka', 'kuhamisha', 'ofisi', 'yao', '.'], 1)?.lemma, 'hamisha');
    assert.equal(at(['Hoteli', 'hii', 'inahudumia', 'wageni', 'wengi', '.'], 2)?.lemma, 'hudumu');
  });

  it('reads a small unknown word between two names as part of the name and a capitalised ki- word after Mkoa wa as a name (words outside the texts)', () => {
    const analyzer = new EngineTextAnalyzer('swh', morphology);
    const at = (tokens: string[], i: number) => analyzer.analyzeTokens(tokens)[i]?.[0];
    const es = at(['Alisafiri', 'kwenda', 'Dar', 'es', 'Salaam', 'jana', '.'], 3);
    assert.deepEqual([es?.lemma, es?.word_class], ['es', 'proper_noun']);
    const region = at(['Shule', 'iko', 'katika', 'Wilaya', 'ya', 'Kilosa', '.'], 5);
    assert.deepEqual([region?.lemma, region?.word_class], ['Kilosa', 'proper_noun']);
    // (after another noun the ki- word stays the manner adverb: desturi za Kibelgiji)
    assert.equal(at(['Walifuata', 'desturi', 'za', 'Kibelgiji', '.'], 3)?.word_class, 'manner_adverb');
  });

  it('the first reading has the gold lemma and word class for at least 97% of the fishing text and 96% of the kingdom text (annotated before the engine read them)', () => {
    // Measured 97.2% (273/281) and 94.3% (267/283) before any change for them (the twenty-first session).
    for (const [file, floor, words] of [
      [FISHING_TEXT, 0.97, 275],
      [KINGDOM_TEXT, 0.96, 280],
    ] as const) {
      const m = measure(morphology, file);
      assert.ok(m.words >= words, `${file} has ${m.words} words`);
      assert.ok(m.right / m.words >= floor, `${path.basename(file)}: ${m.right}/${m.words}; misses:\n${m.misses.join('\n')}`);
    }
  });

  it("reads a people's noun no lexicon knows as the people's noun, not a name (Wahehe: Mhehe), unless a name or a class 1 verb stands beside it (words outside the texts)", () => {
    const analyzer = new EngineTextAnalyzer('swh', morphology);
    const at = (tokens: string[], i: number) => analyzer.analyzeTokens(tokens)[i]?.[0];
    const people = at(['Walipigana', 'na', 'Wahehe', 'kwa', 'miaka', 'mingi', '.'], 2);
    assert.deepEqual([people?.lemma, people?.word_class], ['Mhehe', 'noun']);
    // (a person's name: before a class 1 verb, or beside another name)
    assert.equal(at(['Mwanasayansi', 'huyo', 'Wangari', 'alizaliwa', 'Kenya', '.'], 2)?.word_class, 'proper_noun');
    assert.equal(at(['Alikutana', 'na', 'Wanjiru', 'Kamau', 'jana', '.'], 2)?.word_class, 'proper_noun');
  });

  it("reads mara after a noun or kwa as the noun 'times', kimo as the noun 'height' unless a place follows, kifupi after kwa as the adverb, a unit with a superscript as foreign, a class 11 noun's plural in class 10 and Kati in Afrika ya Kati as the adverb (words outside the texts)", () => {
    const analyzer = new EngineTextAnalyzer('swh', morphology);
    const at = (tokens: string[], i: number) => analyzer.analyzeTokens(tokens)[i]?.[0];
    assert.equal(at(['Eneo', 'ni', 'urefu', 'mara', 'upana', '.'], 3)?.word_class, 'noun');
    assert.equal(at(['Alifika', 'kwa', 'mara', 'ya', 'pili', '.'], 2)?.word_class, 'noun');
    const height = at(['Kimo', 'chake', 'ni', 'mita', 'tatu', '.'], 0);
    assert.deepEqual([height?.lemma, height?.word_class], ['kimo', 'noun']);
    assert.equal(at(['Kitabu', 'kimo', 'mfukoni', '.'], 1)?.word_class, 'copula');
    const briefly = at(['Alisema', 'kwa', 'kifupi', 'kwamba', 'atarudi', '.'], 2);
    assert.deepEqual([briefly?.lemma, briefly?.word_class], ['fupi', 'adverb']);
    // (after a noun it agrees with, the adjective)
    assert.equal(at(['Ni', 'kisu', 'kifupi', '.'], 2)?.word_class, 'adjective');
    assert.equal(at(['Ziwa', 'lina', 'eneo', 'la', 'm²', '500', '.'], 4)?.word_class, 'foreign');
    const kingdoms = at(['Zilikuwepo', 'falme', 'nyingi', '.'], 1);
    assert.deepEqual([kingdoms?.lemma, kingdoms?.word_class], ['ufalme', 'noun']);
    // (a known word after a name and the -a of association keeps its reading: Afrika ya Kati 'Central Africa')
    const middle = at(['Ni', 'nchi', 'ya', 'Afrika', 'ya', 'Kati', '.'], 5);
    assert.deepEqual([middle?.lemma, middle?.word_class], ['kati', 'adverb']);
  });

  it('the first reading has the gold lemma and word class for at least 97% of the languages text and 97% of the plants text (annotated before the engine read them)', () => {
    for (const [file, floor, words] of [
      [LANGUAGES_TEXT, 0.97, 290],
      [PLANTS_TEXT, 0.97, 270],
    ] as const) {
      const m = measure(morphology, file);
      assert.ok(m.words >= words, `${file} has ${m.words} words`);
      assert.ok(m.right / m.words >= floor, `${path.basename(file)}: ${m.right}/${m.words}; misses:\n${m.misses.join('\n')}`);
    }
  });

  it('reads a capitalised ki- word no lexicon knows as the name of a language after lugha ya, before a class 7 concord or joined to a language, and keeps Ki- place names as names (words outside the texts)', () => {
    const analyzer = new EngineTextAnalyzer('swh', morphology);
    const at = (tokens: string[], i: number) => analyzer.analyzeTokens(tokens)[i]?.[0];
    const lemmaClass = (r: ReturnType<typeof at>) => [r?.lemma, r?.word_class];
    assert.deepEqual(lemmaClass(at(['Wanajifunza', 'lugha', 'ya', 'Kiholanzi', 'shuleni', '.'], 3)), ['Kiholanzi', 'noun']);
    assert.deepEqual(lemmaClass(at(['Alisoma', 'Kisomali', 'cha', 'zamani', '.'], 1)), ['Kisomali', 'noun']);
    // (joined by na to a language the lexicon knows, or to one found so; a stem opening with a vowel too)
    assert.deepEqual(lemmaClass(at(['Mama', 'yake', 'anazungumza', 'Kiingereza', 'na', 'Kiitaliano', 'vizuri', '.'], 5)), ['Kiitaliano', 'noun']);
    // (a place in Ki- stays a name: Mkoa wa Kigoma, Kongo (Kinshasa))
    assert.equal(at(['Alihamia', 'Mkoa', 'wa', 'Kigoma', 'mwaka', 'jana', '.'], 3)?.word_class, 'proper_noun');
    assert.equal(at(['Mji', 'wa', 'Kongo', '(', 'Kinshasa', ')', 'ni', 'mkubwa', '.'], 4)?.word_class, 'proper_noun');
  });

  it("reads ikiwa before na as the verb 'it having', vile vile as the adverb, zamani after the -a as the noun, the relative of manner ilivyo, Kisasa after cha with its stem small, a Latin epithet after a genus and taratibu closing a clause as the adverb (words outside the texts)", () => {
    const analyzer = new EngineTextAnalyzer('swh', morphology);
    const at = (tokens: string[], i: number) => analyzer.analyzeTokens(tokens)[i]?.[0];
    const lemmaClass = (r: ReturnType<typeof at>) => [r?.lemma, r?.word_class];
    assert.deepEqual(lemmaClass(at(['Mji', 'huo', 'ni', 'mkubwa', ',', 'ikiwa', 'na', 'wakazi', 'wengi', '.'], 5)), ['wa', 'verb']);
    // (ikiwa opening a clause with its own verb stays 'if')
    assert.equal(at(['Ikiwa', 'mvua', 'itanyesha', ',', 'tutakaa', 'nyumbani', '.'], 0)?.word_class, 'conjunction');
    assert.deepEqual(lemmaClass(at(['Walifika', 'vile', 'vile', 'jana', '.'], 1)), ['vile', 'adverb']);
    assert.deepEqual(lemmaClass(at(['Ni', 'desturi', 'za', 'zamani', '.'], 3)), ['zamani', 'noun']);
    assert.deepEqual(lemmaClass(at(['Hali', 'ni', 'kama', 'ilivyo', 'leo', '.'], 3)), ['li', 'copula']);
    assert.deepEqual(lemmaClass(at(['Ni', 'muziki', 'wa', 'Kisasa', '.'], 3)), ['sasa', 'manner_adverb']);
    assert.equal(at(['Mmea', 'huu', '(', 'Carica', 'papaya', ')', 'ni', 'mti', '.'], 4)?.word_class, 'foreign');
    assert.deepEqual(lemmaClass(at(['Gari', 'lilienda', 'taratibu', '.'], 2)), ['taratibu', 'adverb']);
    assert.deepEqual(lemmaClass(at(['Walifuata', 'taratibu', 'zote', '.'], 1)), ['utaratibu', 'noun']);
  });

  it('the first reading has the gold lemma and word class for at least 98% of the body text and 97% of the parks text (annotated before the engine read them)', () => {
    // Measured 90.7% (273/301) and 96.2% (282/293) before any change for them (the twenty-third session).
    for (const [file, floor, words] of [
      [BODY_TEXT, 0.98, 295],
      [PARKS_TEXT, 0.97, 290],
    ] as const) {
      const m = measure(morphology, file);
      assert.ok(m.words >= words, `${file} has ${m.words} words`);
      assert.ok(m.right / m.words >= floor, `${path.basename(file)}: ${m.right}/${m.words}; misses:\n${m.misses.join('\n')}`);
    }
  });

  it("reads kulia and kushoto after the -a of association as the adverbs of side and kulia after a verb as 'cry', na after pambana as 'with', and lingine as the class 5 form of -ingine (words outside the texts)", () => {
    const analyzer = new EngineTextAnalyzer('swh', morphology);
    const at = (tokens: string[], i: number) => analyzer.analyzeTokens(tokens)[i]?.[0];
    const lemmaClass = (r: ReturnType<typeof at>) => [r?.lemma, r?.word_class];
    assert.deepEqual(lemmaClass(at(['Aliandika', 'kwa', 'mkono', 'wa', 'kushoto', '.'], 4)), ['kushoto', 'adverb']);
    assert.deepEqual(lemmaClass(at(['Gari', 'lilipita', 'upande', 'wa', 'kulia', 'wa', 'barabara', '.'], 4)), ['kulia', 'adverb']);
    // (after a verb kulia is the infinitive of lia 'cry')
    assert.deepEqual(lemmaClass(at(['Mtoto', 'alianza', 'kulia', 'sana', '.'], 2)), ['lia', 'verb']);
    assert.equal(at(['Wananchi', 'wanapambana', 'na', 'umaskini', '.'], 2)?.word_class, 'preposition');
    assert.deepEqual(lemmaClass(at(['Alinunua', 'gari', 'lingine', 'jana', '.'], 2)), ['ingine', 'adjective']);
  });

  it('the first reading has the gold lemma and word class for at least 96% of the war text and 98% of the customs text (annotated before the engine read them)', () => {
    // Measured 94.7% (286/302) and 92.1% (292/317) before any change for them (the twenty-fourth session).
    for (const [file, floor, words] of [
      [WAR_TEXT, 0.96, 300],
      [CUSTOMS_TEXT, 0.98, 315],
    ] as const) {
      const m = measure(morphology, file);
      assert.ok(m.words >= words, `${file} has ${m.words} words`);
      assert.ok(m.right / m.words >= floor, `${path.basename(file)}: ${m.right}/${m.words}; misses:\n${m.misses.join('\n')}`);
    }
  });

  it('reads na after kabiliana as the preposition, a noun-or-adjective after a preposition as the noun, ki- adverbs of capitalised nouns with their capital after the -a, and the -uka statives of panua and pungua (words outside the texts)', () => {
    const analyzer = new EngineTextAnalyzer('swh', morphology);
    const at = (tokens: string[], i: number) => analyzer.analyzeTokens(tokens)[i]?.[0];
    const lemmaClass = (r: ReturnType<typeof at>) => [r?.lemma, r?.word_class];
    assert.equal(at(['Jeshi', 'lilikabiliana', 'na', 'adui', '.'], 2)?.word_class, 'preposition');
    assert.deepEqual(lemmaClass(at(['Alitoa', 'msaada', 'kwa', 'maskini', '.'], 3)), ['maskini', 'noun']);
    assert.deepEqual(lemmaClass(at(['Walisherehekea', 'sikukuu', 'za', 'Kikristo', '.'], 3)), ['Kristo', 'manner_adverb']);
    assert.deepEqual(lemmaClass(at(['Alifuata', 'mila', 'za', 'Kiislamu', '.'], 3)), ['Islamu', 'manner_adverb']);
    assert.deepEqual(lemmaClass(at(['Mji', 'ulipanuka', 'haraka', '.'], 1)), ['panua', 'verb']);
    assert.deepEqual(lemmaClass(at(['Mvua', 'ilipunguka', 'sana', '.'], 1)), ['pungua', 'verb']);
    assert.deepEqual(lemmaClass(at(['Tulihudhuria', 'harusi', 'ya', 'dada', 'yangu', '.'], 1)), ['harusi', 'noun']);
  });

  it('the first reading has the gold lemma and word class for at least 99% of the volcanoes text and 98% of the chemistry text (annotated before the engine read them)', () => {
    // Measured 95.9% (258/269) and 89.4% (305/341) before any change for them (the twenty-fifth session).
    for (const [file, floor, words] of [
      [VOLCANOES_TEXT, 0.99, 265],
      [CHEMISTRY_TEXT, 0.98, 335],
    ] as const) {
      const m = measure(morphology, file);
      assert.ok(m.words >= words, `${file} has ${m.words} words`);
      assert.ok(m.right / m.words >= floor, `${path.basename(file)}: ${m.right}/${m.words}; misses:\n${m.misses.join('\n')}`);
    }
  });

  it('reads an unknown loan noun in a vowel that a subject prefix could begin as the noun, and the concordant adjectives -nene, -bichi, -bovu (words outside the texts)', () => {
    const analyzer = new EngineTextAnalyzer('swh', morphology);
    const at = (tokens: string[], i: number) => analyzer.analyzeTokens(tokens)[i]?.[0];
    const lemmaClass = (r: ReturnType<typeof at>) => [r?.lemma, r?.word_class];
    assert.deepEqual(lemmaClass(at(['Kuna', 'isotopi', 'nyingi', '.'], 1)), ['isotopi', 'noun']);
    // (a guessed loan verb with a tense marker or as an infinitive stays the verb)
    assert.deepEqual(lemmaClass(at(['Serikali', 'inadhibiti', 'bei', '.'], 1)), ['dhibiti', 'verb']);
    assert.equal(at(['Mtu', 'huyu', 'ni', 'mnene', '.'], 3)?.lemma, 'nene');
    assert.deepEqual(lemmaClass(at(['Walikula', 'nyama', 'mbichi', '.'], 2)), ['bichi', 'adjective']);
    assert.deepEqual(lemmaClass(at(['Matunda', 'mabovu', 'yalitupwa', '.'], 1)), ['bovu', 'adjective']);
    assert.deepEqual(lemmaClass(at(['Volkeno', 'hii', 'bado', 'ni', 'hai', '.'], 0)), ['volkeno', 'noun']);
  });
});
