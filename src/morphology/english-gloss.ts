/**
 * Generic English glosses for conjugated Bantu verb forms: 'she/he will not love it (class 7)'.
 * Each tense is a pair of word templates (positive, negative) whose upper-case slots are filled
 * from the subject, the object and the inflected English verb (see `english-verbs.ts`).
 */
import { ableForm, finiteForm, inflect, isIntransitive, isStative } from './english-verbs.js';

/** A grammatical person; a third person may carry its Bantu noun class (1 and 2 are human). */
export type GlossPerson = {
  person: 1 | 2 | 3;
  number: 'sg' | 'pl';
  nounClass?: number;
  /** Overrides the class: true reads any class as 'she/he' / 'they', false reads class 1/2 as 'it' / 'they'. */
  human?: boolean;
  /** An unnamed subject, read 'one' with a third singular verb: a form with no subject marker ('one usually reads'). */
  generic?: boolean;
};

/** An object: a person, or a reflexive that agrees with the subject. */
export type GlossObject = GlossPerson | { reflexive: true };

/*
 * Slots: S subject, WHO relative pronoun (after the pronoun of a 1st or 2nd person subject: 'we who'), O object (after the rest of a multi-word verb),
 * BASE / PP / ING the verb's base, past participle and -ing forms, PRES / PAST the verb's
 * finite forms agreeing with the subject, DO / DID / BE / WAS / HAVE the agreeing auxiliaries.
 * Any other word is written as it is.
 */
const TEMPLATES = {
  infinitive: ['to BASE O', 'not to BASE O'],
  locative_infinitive: ['in ING O', 'in not ING O'],
  imperative: ['BASE O !', 'do not BASE O !'],
  present: ['S PRES O', 'S DO not BASE O'],
  present_progressive: ['S BE ING O', 'S BE not ING O'],
  persistive: ['S BE still ING O', 'S BE no longer ING O'],
  exclusive: ['S BE now ING O', 'S BE not now ING O'],
  general_present: ['S PRES O', 'S DO not BASE O'],
  habitual: ['S usually PRES O', 'S DO not usually BASE O'],
  past: ['S PAST O', 'S DID not BASE O'],
  recent_past: ['S PAST O (today)', 'S DID not BASE O (today)'],
  remote_past: ['S PAST O (long ago)', 'S DID not BASE O (long ago)'],
  past_progressive: ['S WAS ING O', 'S WAS not ING O'],
  past_habitual: ['S used to BASE O', 'S DID not use to BASE O'],
  immediate_past: ['S HAVE just PP O', 'S HAVE not just PP O'],
  perfect: ['S HAVE PP O', 'S HAVE not PP O'],
  not_yet: ['S HAVE not yet PP O', 'S HAVE not yet PP O'],
  state_not_yet: ['S DO not yet BASE O', 'S DO not yet BASE O'],
  exclusive_perfect: ['S HAVE already PP O', 'S HAVE not already PP O'],
  present_perfect_progressive: ['S HAVE been ING O', 'S HAVE not been ING O'],
  past_perfect: ['S had PP O', 'S had not PP O'],
  future: ['S will BASE O', 'S will not BASE O'],
  remote_future: ['S will BASE O (later)', 'S will not BASE O (later)'],
  future_progressive: ['S will be ING O', 'S will not be ING O'],
  future_perfect: ['S will have PP O', 'S will not have PP O'],
  conditional: ['S would BASE O', 'S would not BASE O'],
  past_conditional: ['S would have PP O', 'S would not have PP O'],
  conditional_progressive: ['S would be ING O', 'S would not be ING O'],
  past_conditional_progressive: ['S would have been ING O', 'S would not have been ING O'],
  conditional_perfect: ['S would have PP O', 'S would not have PP O'],
  subjunctive: ['that S BASE O', 'that S not BASE O'],
  consecutive: ['and then S PAST O', 'and then S DID not BASE O'],
  situative: ['while S BE ING O', 'if S DO not BASE O'],
  participial: ['as S PRES O', 'as S DO not BASE O'],
  potential: ['S can BASE O', 'S cannot BASE O'],
  conditional_clause: ['if S PRES O', 'if S DO not BASE O'],
  relative: ['WHO PRES O', 'WHO DO not BASE O'],
  relative_past: ['WHO PAST O', 'WHO DID not BASE O'],
  relative_perfect: ['WHO HAVE PP O', 'WHO HAVE not PP O'],
  relative_not_yet: ['WHO HAVE not yet PP O', 'WHO HAVE not yet PP O'],
  relative_future: ['WHO will BASE O', 'WHO will not BASE O'],
  relative_progressive: ['WHO BE ING O', 'WHO BE not ING O'],
  relative_persistive: ['WHO BE still ING O', 'WHO BE no longer ING O'],
  relative_potential: ['WHO can BASE O', 'WHO cannot BASE O'],
} as const satisfies Record<string, readonly [positive: string, negative: string]>;

/** Every tense template name, in the order of the table. */
export const glossTenses = Object.freeze(Object.keys(TEMPLATES)) as readonly (keyof typeof TEMPLATES)[];

/** A tense template name. */
export type GlossTense = (typeof glossTenses)[number];

/** What to gloss: an English verb in base form ('love', 'look at', 'be able'), its arguments, tense and polarity. */
export interface GlossRequest {
  verb: string;
  subject: GlossPerson;
  object?: GlossObject;
  tense: GlossTense;
  polarity: 'positive' | 'negative';
  /**
   * A relative's head when it is not the subject: the relative clause then reads 'which I read',
   * 'whom we saw', or, for the locative classes 16-18, 'where/when they arrived'; an object that is
   * the head itself is not said again.
   */
  head?: GlossPerson;
  /**
   * The verb is a reciprocal ('see each other', 'work together'): a singular subject is one of the
   * parties, the other named with 'and/with' after the verb (na-: alionana na-), so
   * it reads 'she/he and someone saw each other' ('it (class 7) and another'), the verb agreeing with both.
   */
  mutual?: boolean;
  /**
   * The verb is the passive of an event ('be eaten', 'be made to read'): a progressive tense keeps its
   * 'being' ('kinaliwa' 'it is being eaten', 'it was being read'), where 'be' as a state reads simple
   * ('she/he is loved', 'it is readable').
   */
  eventPassive?: boolean;
}

/** The clause of a relative whose head is not its subject: the tense's plain template after a relative word. */
const RELATIVE_CLAUSE: Partial<Record<GlossTense, GlossTense>> = {
  relative: 'present',
  relative_past: 'past',
  relative_perfect: 'perfect',
  relative_not_yet: 'not_yet',
  relative_future: 'future',
  relative_progressive: 'present_progressive',
  relative_persistive: 'persistive',
  relative_potential: 'potential',
};

/** 'be' as main verb takes no do-support: 'is not', 'was not', 'is usually'. */
const WITHOUT_DO_SUPPORT: readonly [RegExp, string][] = [
  [/\bDO not (usually |yet )?BASE\b/, 'PRES not $1'],
  [/\bDID not BASE\b/, 'PAST not'],
  [/\busually PRES\b/, 'PRES usually'],
];

/** Adverb particles of phrasal verbs: a pronoun object goes before them ('give it up'). */
const PARTICLES = new Set(['up', 'down', 'out', 'off', 'away', 'back']);

const SUBJECT = { '1sg': 'I', '2sg': 'you', '3sg': 'she/he', '1pl': 'we', '2pl': 'you (pl.)', '3pl': 'they' };
const OBJECT = { '1sg': 'me', '2sg': 'you', '3sg': 'her/him', '1pl': 'us', '2pl': 'you (pl.)', '3pl': 'them' };
const REFLEXIVE = {
  '1sg': 'myself',
  '2sg': 'yourself',
  '3sg': 'herself/himself',
  '1pl': 'ourselves',
  '2pl': 'yourselves',
  '3pl': 'themselves',
};

function personKey(p: GlossPerson): keyof typeof SUBJECT {
  if (![1, 2, 3].includes(p.person) || (p.number !== 'sg' && p.number !== 'pl')) {
    throw new Error(`english-gloss: bad person ${JSON.stringify(p)}`);
  }
  if (p.nounClass !== undefined && !(Number.isInteger(p.nounClass) && p.nounClass > 0)) {
    throw new Error(`english-gloss: bad noun class ${JSON.stringify(p.nounClass)}`);
  }
  return `${p.person}${p.number}`;
}

/** Whether a person is human: a 1st or 2nd person, or a 3rd of a human class ('she/he', not 'it'). */
export function isHuman(p: GlossPerson): boolean {
  return p.person !== 3 || (p.human ?? (p.nounClass === undefined || p.nounClass === 1 || p.nounClass === 2));
}

/** A non-human third person: 'it (class 7)' / 'them (class 8)', or bare 'it' / 'them' without a class. */
function nonHuman(p: GlossPerson, singular: string, plural: string): string {
  return (p.number === 'sg' ? singular : plural) + (p.nounClass === undefined ? '' : ` (class ${p.nounClass})`);
}

/** The English subject pronoun: 'I', 'you', 'she/he', 'it (class 7)', 'we', 'you (pl.)', 'they', 'they (class 8)'. */
export function subjectPronoun(p: GlossPerson): string {
  const key = personKey(p);
  if (p.generic === true) return 'one';
  return isHuman(p) ? SUBJECT[key] : nonHuman(p, 'it', 'they');
}

/** The English object pronoun: 'me', 'her/him', 'it (class 7)', 'them (class 8)'...; a reflexive agrees with the subject. */
export function objectPronoun(o: GlossObject, subject: GlossPerson): string {
  if ('reflexive' in o) {
    const key = personKey(subject);
    if (subject.generic === true) return 'oneself';
    return isHuman(subject) ? REFLEXIVE[key] : subject.number === 'sg' ? 'itself' : 'themselves';
  }
  const key = personKey(o);
  return isHuman(o) ? OBJECT[key] : nonHuman(o, 'it', 'them');
}

/** What a verb extension does to the English verb (the ids of `derivationMeanings` in cartridge.ts). */
export type Derivation = 'applicative' | 'causative' | 'passive' | 'stative' | 'reciprocal' | 'intensive' | 'thorough';

/** Tenses that report a completed event: there a stative reads as a change of state ('it got broken'). */
const PERFECTIVE: ReadonlySet<GlossTense> = new Set<GlossTense>([
  'past',
  'recent_past',
  'remote_past',
  'perfect',
  'not_yet',
  'past_perfect',
  'future_perfect',
  'past_conditional',
  'conditional_perfect',
  'consecutive',
  'relative_past',
  'relative_perfect',
  'relative_not_yet',
]);

/** Whether a tense template reports a completed event (past, perfect, ...). */
export function isPerfective(tense: GlossTense): boolean {
  return PERFECTIVE.has(tense);
}

/**
 * The English verb of a derived verb, the derivations applied in order: applicative 'read for/to _',
 * causative 'make _ read', passive 'be read' ('be made to read'), stative 'be readable' (or, in a
 * perfective tense, 'get broken'; followed by the reciprocal, 'be said'), reciprocal 'love each other', intensive (the persistive, a doubled
 * applicative) 'hold _ firmly', thorough (an intensive of care) 'examine _? carefully'. `_` marks where the object goes
 * (englishGloss puts 'someone' there without one); `_?` a place that an object takes and that is left out without one.
 */
export function derivedVerb(verb: string, derivations: readonly Derivation[], perfective = false): string {
  let english = verb.trim().toLowerCase();
  let previous: Derivation | undefined;
  // the verb a stative was made from, for a reciprocal after it (-ikana, -ekana)
  let stativeBase = english;
  // The passive of an English verb: 'make _ read' -> 'be made to read'; 'read for/to _' -> 'be read for/to';
  // 'see each other' -> 'be seen by each other'; 'love' -> 'be loved'; a state ('be seeable') stays as it is.
  // A note in brackets after a verb names its object ('wash (clothes)'), which the passive makes its subject: it is dropped.
  const passiveOf = (text: string): string => {
    const [head = '', ...rest] = text.replace(/\s*\([^)]*\)$/, '').split(/\s+/);
    if (head === 'be') return [head, ...rest.filter((w) => !w.startsWith('_'))].join(' ');
    const participle = inflect(head).pastParticiple;
    if (rest[0] === '_' && head === 'make') return `be ${participle} to ${rest.slice(1).join(' ')}`;
    return ['be', participle, ...rest.filter((w) => !w.startsWith('_'))].join(' ').replace(/ each other$/, ' by each other');
  };
  for (const d of derivations) {
    const [head = '', ...rest] = english.split(/\s+/);
    const gap = rest.indexOf('_');
    // After a causative the applied object is another than the causee: 'make _ see for/to someone'.
    if (d === 'applicative') english = english.includes('for/to') ? english : gap >= 0 ? `${english} for/to someone` : `${english} for/to _`;
    else if (d === 'causative') english = `make _ ${english.replace(/ _$/, ' someone')}`;
    else if (d === 'passive') english = passiveOf(english);
    else if (d === 'stative') {
      // 'get' is said 'obtain' here, so that the stative is not 'get got' or 'be gettable'; a verb that
      // is already a state ('be able') keeps its English: 'be' has no -able form and no 'get' change.
      const plain = [head === 'get' ? 'obtain' : head, ...rest.filter((w) => !w.startsWith('_'))].join(' ');
      stativeBase = plain;
      // A derived verb of more than one word has no -able adjective: 'be able to be made to see', 'be able to
      // see each other' ('get made to see' in a perfective tense).
      const phrase = gap >= 0 || english.includes('for/to') || english.endsWith('each other');
      if (head === 'be') {
        previous = d;
        continue;
      }
      if (phrase && english.endsWith('each other')) english = perfective ? `get to ${english}` : `be able to ${english}`;
      else if (phrase) english = perfective ? `get ${passiveOf(english).replace(/^be /, '')}` : `be able to ${passiveOf(english)}`;
      else english = perfective ? `get ${inflect(plain).pastParticiple}` : `be ${ableForm(plain)}`;
    }
    // -ikana, -ekana (stative + reciprocal) is not a reciprocal: the -na 'does not change the meaning of that
    // verb form, but forms a stative verb', a state: kuonekana 'to be seen, visible', kujulikana 'to be known',
    // kupatikana 'to be available' (Daily News, Dar es Salaam, beginners' column 'The impersonal and the
    // reciprocal forms of verbs' part 2, read 2026-11-29): 'be ...-ed' (semekana 'be said'). On a verb
    // that takes no object, -an- reads as the associative, a collective action: 'work together' (the
    // reciprocal/associative -an-: Bostoen, Dom & Segerer 2015, Linguistics 53(4), abstract p. 731; 'sometimes
    // a collective action': makalima.online.fr, E_Chap40, 'The Reciprocal Form').
    else if (d === 'reciprocal' && previous === 'stative') english = `be ${inflect(stativeBase).pastParticiple}`;
    // the object's place is the other party: 'make each other see', 'love each other firmly'; a passive: 'be seen by each other'
    else if (d === 'reciprocal' && gap >= 0) english = [head, ...rest.map((w) => (w === '_' ? 'each other' : w))].join(' ');
    else if (d === 'reciprocal' && head === 'be') english = `${english} by each other`;
    else if (d === 'reciprocal') english = isIntransitive(english) ? `${english} together` : `${english.replace(/ _$/, '')} each other`;
    // the intensive says the action is done firmly or persistently: shikilia 'hold _ firmly' (shika 'hold')
    else if (d === 'intensive') english = gap >= 0 ? `${english} firmly` : `${english} _ firmly`;
    // the thorough intensive says the action is done carefully or thoroughly: 'listen carefully', 'examine it carefully'
    else if (d === 'thorough') english = gap >= 0 || english.includes('_?') ? `${english} carefully` : `${english} _? carefully`;
    previous = d;
  }
  return english;
}

/**
 * The sense of a lexicon gloss ('work, do') that a derived verb is glossed from: the first, except that
 * a passive of the bare verb takes the first sense that has an object ('work, do' + passive: 'be done',
 * not 'be worked'). With no such sense, the first.
 */
export function derivationSense(senses: readonly string[], derivations: readonly Derivation[], withObject = false): string | undefined {
  const first = senses[0];
  // An object marker on the bare verb asks for a sense that takes an object too (cheka 'laugh, laugh at' + 1sg: 'laugh at me').
  if ((derivations[0] !== 'passive' && !(withObject && derivations.length === 0)) || first === undefined) return first;
  return senses.find((s) => s !== '' && !isIntransitive(s)) ?? first;
}

/**
 * Senses English gives a verb whose object is a person: a verb glossed 'want, love' with a person as object,
 * or as a reflexive's or a reciprocal's other party, is said 'love' ('I love you', 'they love themselves', 'they
 * love each other'), where 'want' would
 * read as desire; other objects keep the first sense ('I want vegetables'). A person is asked, not asked for
 * ('ask for, ask': 'you have not yet asked her/him'), and known rather than understood ('understand, know':
 * 'I who do not know them'); a person is told, not said ('say, tell': 'that you tell me', not 'that you say me').
 */
const OF_A_PERSON: Readonly<Record<string, string>> = { want: 'love', like: 'love', 'ask for': 'ask', understand: 'know', say: 'tell' };

/** The sense `chosen` of `senses` takes when its object is a person: 'want' -> 'love' when the gloss has 'love' too. */
export function personalSense(senses: readonly string[], chosen: string): string {
  const other = OF_A_PERSON[chosen.trim().toLowerCase()];
  return other !== undefined && senses.some((s) => s.trim().toLowerCase() === other) ? other : chosen;
}

/**
 * The tense a verb whose perfect reports the state its event results in is glossed with: the
 * perfect reads as the present ('I have known' -> 'I know', 'I have got tired' -> 'I am tired'), a
 * 'not yet' as the state not yet reached ('I am not yet tired', 'state_not_yet') and a perfect relative
 * as a present one; other tenses keep their own template.
 */
const RESULT_STATE: Partial<Record<GlossTense, GlossTense>> = { perfect: 'present', not_yet: 'state_not_yet', relative_past: 'relative', relative_perfect: 'relative' };

/**
 * English verbs of posture and sleep, intransitive verbs of breaking, 'die' and 'fear', whose result is said with be
 * + a participle or an adjective: the state a perfect of 'sleep', 'sit', 'fear' or (an inchoative) 'break'
 * reports is 'be asleep', 'be sitting', 'be afraid', 'be broken', 'be dead' ('she/he is asleep', not 'she/he sleeps';
 * 'I am afraid', not 'I fear'; 'it is broken', not 'it has broken').
 */
const RESULT_STATE_OF: Readonly<Record<string, string>> = {
  break: 'be broken',
  die: 'be dead',
  fear: 'be afraid',
  'break down': 'be broken down',
  // The state an opening results in is the adjective 'open' ('it is open', not 'it is opened'), as 'be broken'.
  'get opened': 'be open',
  sleep: 'be asleep',
  'go to sleep': 'be asleep',
  'fall asleep': 'be asleep',
  'lie down': 'be lying down',
  sit: 'be sitting',
  'sit down': 'be sitting',
  stand: 'be standing',
  'stand up': 'be standing',
};

/**
 * A verb's gloss and tense when its perfect is a present state (a lexicon flag): the state's tense
 * (`stateTense`, a cartridge tense's `state_gloss`, or else RESULT_STATE) and, for an inchoative 'get/become X', the state 'be X'. Other tenses and
 * verbs come back as they are.
 */
export function resultState(verb: string, tense: GlossTense, stateTense?: GlossTense): { verb: string; tense: GlossTense } {
  const state = stateTense ?? RESULT_STATE[tense];
  if (!state) return { verb, tense };
  const base = verb.trim();
  return { verb: RESULT_STATE_OF[base.toLowerCase()] ?? base.replace(/^(get|become)\s+/i, 'be '), tense: state };
}

/** A progressive template read as simple for a stative verb: 'S BE ING' -> 'S PRES' ('I know', 'while I know'). */
const STATIVE_SIMPLE: readonly [RegExp, string][] = [
  [/\bBE ING\b/, 'PRES'],
  [/\bBE still ING\b/, 'still PRES'],
  [/\bBE no longer ING\b/, 'no longer PRES'],
  [/\bBE now ING\b/, 'now PRES'],
  [/\bBE not ING\b/, 'DO not BASE'],
  [/\bWAS ING\b/, 'PAST'],
  [/\bWAS not ING\b/, 'DID not BASE'],
  [/\bbe ING\b/, 'BASE'],
  [/\bbeen ING\b/, 'PP'],
];

/** A progressive template of an event's passive: only 'will be being', 'have been being' read simple ('will be eaten'). */
const PASSIVE_PROGRESSIVE: readonly [RegExp, string][] = STATIVE_SIMPLE.slice(-2);

/**
 * A habitual template read as the simple tense for a stative verb other than 'be': a state holds
 * without 'usually' ('ndimakonda' 'I like', not 'I usually like'); 'be' keeps it ('she/he is usually'),
 * also 'be' at a place ('she/he is usually at'), but not 'be' + a state that no event's passive is ('she/he is known').
 */
const BE_PLACE = new Set(['at', 'in', 'on', 'there', 'here', 'with']);
const STATIVE_HABITUAL: readonly [RegExp, string][] = [
  [/\busually PRES\b/, 'PRES'],
  [/\bDO not usually BASE\b/, 'DO not BASE'],
];

/** The imperative of a person other than the addressee: 'let us read', 'let her/him not read'. */
const LET = ['let SUBJ BASE O', 'let SUBJ not BASE O'] as const;

/** Glosses one conjugated form; throws an Error naming the known tenses for an unknown one. */
export function englishGloss(request: GlossRequest): string {
  const { verb, subject, tense, polarity, head: relativeHead } = request;
  let object = request.object;
  if (!Object.hasOwn(TEMPLATES, tense)) {
    throw new Error(`english-gloss: unknown tense "${String(tense)}"; known tenses: ${glossTenses.join(', ')}`);
  }
  if (polarity !== 'positive' && polarity !== 'negative') {
    throw new Error(`english-gloss: polarity must be "positive" or "negative", not "${String(polarity)}"`);
  }
  const [head = '', ...rest] = verb.trim().toLowerCase().split(/\s+/);
  // 'have' said of a place (the locative classes 16-18) is existential: 'there is', 'there was', 'there will be'.
  const place = subject.nounClass !== undefined && subject.nounClass >= 16 && subject.nounClass <= 18;
  if (head === 'have' && rest.length === 0 && place && !relativeHead && !request.object && tense !== 'imperative') {
    const it = subjectPronoun(subject);
    const be = englishGloss({ ...request, verb: 'be' });
    if (be.startsWith(`${it} `)) return `there ${be.slice(it.length + 1)}`;
  }
  const which = polarity === 'positive' ? 0 : 1;
  // The imperative addresses the 2nd person; another person's imperative (a jussive) is 'let ...'.
  let template: string = tense === 'imperative' && subject.person !== 2 ? LET[which] : TEMPLATES[tense][which];
  const clause = relativeHead ? RELATIVE_CLAUSE[tense] : undefined;
  if (relativeHead && clause) {
    const place = relativeHead.nounClass !== undefined && relativeHead.nounClass >= 16 && relativeHead.nounClass <= 18;
    const word = place ? (relativeHead.nounClass === 16 ? 'when/where' : 'where') : isHuman(relativeHead) ? 'whom' : 'which';
    // A clause of time ('when/where', class 16) says a present in the simple tense ('when/where you pray', not 'are praying').
    const said = relativeHead.nounClass === 16 && clause === 'present_progressive' ? 'present' : clause;
    template = `${word} ${TEMPLATES[said][which]}`;
    if (object && !('reflexive' in object) && object.person === relativeHead.person && object.number === relativeHead.number && object.nounClass === relativeHead.nounClass) object = undefined;
  }
  if (isStative(head)) for (const [pattern, replacement] of request.eventPassive === true ? PASSIVE_PROGRESSIVE : STATIVE_SIMPLE) template = template.replace(pattern, replacement);
  // 'be' alone keeps 'usually' ('she/he is usually'); 'be' + a state that is no event's passive does not ('she/he is known').
  const lastingState = head !== 'be' || (rest.length > 0 && !BE_PLACE.has(rest[0] ?? '') && request.eventPassive !== true);
  if (isStative(head) && lastingState) for (const [pattern, replacement] of STATIVE_HABITUAL) template = template.replace(pattern, replacement);
  if (head === 'be') for (const [pattern, replacement] of WITHOUT_DO_SUPPORT) template = template.replace(pattern, replacement);

  const forms = inflect(head);
  const parties = request.mutual === true && subject.number === 'sg';
  const agree = (v: string, time: 'present' | 'past') => finiteForm(v, time, parties ? 3 : subject.person, parties ? 'pl' : subject.number);
  const pronoun = object ? objectPronoun(object, subject) : '';
  const particle = pronoun !== '' && PARTICLES.has(rest.at(-1) ?? '') ? rest.splice(-1) : [];
  // A derived verb marks its object's place with _ ('make _ read'): the object, or 'someone', goes there.
  const gap = rest.indexOf('_');
  // `_?` is an object's place that stays empty without one ('listen carefully', 'examine it carefully').
  const optional = rest.indexOf('_?');
  const words =
    gap >= 0
      ? [...rest.map((w) => (w === '_' ? pronoun || 'someone' : w)).filter((w) => w !== '_?'), ...particle]
      : optional >= 0
        ? [...rest.map((w) => (w === '_?' ? pronoun : w)).filter((w) => w !== ''), ...particle]
        : [...rest, pronoun, ...particle];
  const named = parties ? `${subjectPronoun(subject)} and ${isHuman(subject) ? 'someone' : 'another'}` : subjectPronoun(subject);
  const slots: Record<string, string> = {
    S: named,
    SUBJ: objectPronoun(subject, subject),
    // A relative of a 1st or 2nd person subject names the person it is said of ('I who read', 'you (pl.) who do not
    // work'); of a 3rd person, the head noun stands before it in the sentence ('who read', 'which fell').
    WHO: subject.person !== 3 ? `${named} who` : isHuman(subject) ? 'who' : 'which',
    O: words.filter((w) => w !== '').join(' '),
    BASE: forms.base,
    PP: forms.pastParticiple,
    ING: forms.presentParticiple,
    PRES: agree(head, 'present'),
    PAST: agree(head, 'past'),
    DO: agree('do', 'present'),
    DID: 'did',
    BE: agree('be', 'present'),
    WAS: agree('be', 'past'),
    HAVE: agree('have', 'present'),
  };
  return template
    .split(/\s+/)
    .map((token) => slots[token] ?? token)
    .filter((word) => word !== '')
    .join(' ')
    .replace(/ !$/, '!');
}
