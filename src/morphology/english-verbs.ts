/**
 * English verb inflection for glosses: regular spelling rules plus a table of irregular verbs.
 * A multi-word verb ('look at', 'give up', 'be able') is inflected on its first word only.
 */

/** The five forms of an English verb; `past` of 'be' is 'was' (use `finiteForm` for 'were'). */
export interface EnglishVerbForms {
  base: string;
  third: string;
  past: string;
  pastParticiple: string;
  presentParticiple: string;
}

/*
 * Irregular verbs: base, past, past participle, one verb a line.
 * Standard English irregular verbs after R. Quirk, S. Greenbaum, G. Leech & J. Svartvik,
 * A Comprehensive Grammar of the English Language (Longman, 1985), ch. 3, the classes of
 * irregular verbs (p. 104 ff.). The selection is ours; where a verb has variant forms
 * (got/gotten, burned/burnt) one form is given, and verbs whose -ed forms are usual
 * (burn, dream, learn, spell...) are left to the regular rules.
 */
const IRREGULAR_TABLE = `
abide abode abode
arise arose arisen
awake awoke awoken
be was been
bear bore borne
beat beat beaten
become became become
befall befell befallen
begin began begun
behold beheld beheld
bend bent bent
bet bet bet
bid bid bid
bind bound bound
bite bit bitten
bleed bled bled
blow blew blown
break broke broken
breed bred bred
bring brought brought
broadcast broadcast broadcast
build built built
burst burst burst
buy bought bought
cast cast cast
catch caught caught
choose chose chosen
cling clung clung
come came come
cost cost cost
creep crept crept
cut cut cut
deal dealt dealt
dig dug dug
do did done
draw drew drawn
drink drank drunk
drive drove driven
dwell dwelt dwelt
eat ate eaten
fall fell fallen
feed fed fed
feel felt felt
fight fought fought
find found found
flee fled fled
fling flung flung
fly flew flown
forbid forbade forbidden
forecast forecast forecast
foresee foresaw foreseen
foretell foretold foretold
forget forgot forgotten
forgive forgave forgiven
forgo forwent forgone
forsake forsook forsaken
freeze froze frozen
get got got
give gave given
go went gone
grind ground ground
grow grew grown
hang hung hung
have had had
hear heard heard
hew hewed hewn
hide hid hidden
hit hit hit
hold held held
hurt hurt hurt
keep kept kept
kneel knelt knelt
know knew known
lay laid laid
lead led led
leave left left
lend lent lent
let let let
lie lay lain
light lit lit
lose lost lost
make made made
mean meant meant
meet met met
mishear misheard misheard
mislay mislaid mislaid
mislead misled misled
misread misread misread
mistake mistook mistaken
misunderstand misunderstood misunderstood
mow mowed mown
offset offset offset
outdo outdid outdone
outgrow outgrew outgrown
outrun outran outrun
overcome overcame overcome
overdo overdid overdone
overhear overheard overheard
override overrode overridden
overrun overran overrun
oversee oversaw overseen
oversleep overslept overslept
overtake overtook overtaken
overthrow overthrew overthrown
partake partook partaken
pay paid paid
put put put
quit quit quit
read read read
rebuild rebuilt rebuilt
redo redid redone
rend rent rent
retell retold retold
rewrite rewrote rewritten
rid rid rid
ride rode ridden
ring rang rung
rise rose risen
run ran run
saw sawed sawn
say said said
see saw seen
seek sought sought
sell sold sold
send sent sent
set set set
sew sewed sewn
shake shook shaken
shear sheared shorn
shed shed shed
shine shone shone
shoe shod shod
shoot shot shot
show showed shown
shrink shrank shrunk
shut shut shut
sing sang sung
sink sank sunk
sit sat sat
slay slew slain
sleep slept slept
slide slid slid
sling slung slung
slink slunk slunk
slit slit slit
smite smote smitten
sow sowed sown
speak spoke spoken
speed sped sped
spend spent spent
spin spun spun
spit spat spat
split split split
spread spread spread
spring sprang sprung
stand stood stood
steal stole stolen
stick stuck stuck
sting stung stung
stink stank stunk
strew strewed strewn
stride strode stridden
strike struck struck
string strung strung
strive strove striven
swear swore sworn
sweep swept swept
swell swelled swollen
swim swam swum
swing swung swung
take took taken
teach taught taught
tear tore torn
tell told told
think thought thought
throw threw thrown
thrust thrust thrust
tread trod trodden
undercut undercut undercut
undergo underwent undergone
understand understood understood
undertake undertook undertaken
undo undid undone
unwind unwound unwound
uphold upheld upheld
upset upset upset
wake woke woken
wear wore worn
weave wove woven
wed wed wed
weep wept wept
wet wet wet
win won won
wind wound wound
withdraw withdrew withdrawn
withhold withheld withheld
withstand withstood withstood
wring wrung wrung
write wrote written
`;

/** The irregular verbs table, keyed by base form. */
export const irregularVerbs: ReadonlyMap<string, { readonly past: string; readonly pastParticiple: string }> = (() => {
  const table = new Map<string, { past: string; pastParticiple: string }>();
  for (const line of IRREGULAR_TABLE.trim().split('\n')) {
    const [base, past, pastParticiple, extra] = line.trim().split(/\s+/);
    if (!base || !past || !pastParticiple || extra !== undefined || table.has(base)) {
      throw new Error(`english-verbs: bad irregular verb line "${line}"`);
    }
    table.set(base, { past, pastParticiple });
  }
  return table;
})();

/** Third-person singular forms that no spelling rule gives. */
const IRREGULAR_THIRD: Readonly<Record<string, string>> = { be: 'is', have: 'has' };

/** Verbs of more than one syllable, stressed on the last, that double their final consonant. */
const FINAL_STRESS = new Set([
  'abet',
  'acquit',
  'admit',
  'allot',
  'begin',
  'commit',
  'compel',
  'confer',
  'control',
  'defer',
  'deter',
  'emit',
  'equip',
  'expel',
  'forbid',
  'forget',
  'incur',
  'infer',
  'omit',
  'occur',
  'outrun',
  'overrun',
  'patrol',
  'permit',
  'prefer',
  'propel',
  'rebel',
  'recur',
  'refer',
  'regret',
  'repel',
  'submit',
  'transmit',
  'upset',
]);

const VOWEL = /[aeiou]/;

/** True when a suffix starting with a vowel doubles the final consonant: 'stop' -> 'stopp-'. */
function doublesFinal(word: string): boolean {
  if (FINAL_STRESS.has(word)) return true;
  // A one-syllable word ending consonant-vowel-consonant ('qu' counts as a consonant: 'quiz').
  return /^[^aeiou]*[aeiou][^aeiouwxy]$/.test(word.replace(/^qu/, 'qw'));
}

/** The stem that takes -ed / -ing: 'stop' -> 'stopp', 'panic' -> 'panick'. */
function suffixStem(word: string): string {
  if (doublesFinal(word)) return word + word.at(-1);
  if (/[aeiou][^aeiou]*ic$/.test(word) && word.length > 3) return word + 'k';
  return word;
}

function regularThird(word: string): string {
  if (word.endsWith('z')) return suffixStem(word) + 'es'; // 'buzzes', 'quizzes'
  if (/(s|x|z|ch|sh|[^aeiou]o)$/.test(word)) return word + 'es';
  if (/[^aeiou]y$/.test(word)) return word.slice(0, -1) + 'ies';
  return word + 's';
}

function regularPast(word: string): string {
  if (word.endsWith('e')) return word + 'd';
  if (/[^aeiou]y$/.test(word)) return word.slice(0, -1) + 'ied';
  return suffixStem(word) + 'ed';
}

function presentParticiple(word: string): string {
  if (word.endsWith('ie')) return word.slice(0, -2) + 'ying';
  if (/(ee|oe|ye)$/.test(word)) return word + 'ing';
  // Drop a silent final e ('love' -> 'loving') but not the only vowel ('be' -> 'being').
  if (/[^aeiou]e$/.test(word) && VOWEL.test(word.slice(0, -2))) return word.slice(0, -1) + 'ing';
  return suffixStem(word) + 'ing';
}

function splitVerb(verb: string): { head: string; rest: string } {
  const words = verb.trim().split(/\s+/);
  const head = words[0] ?? '';
  if (head === '') throw new Error('english-verbs: the verb is empty');
  return {
    head,
    rest: words
      .slice(1)
      .map((w) => ' ' + w)
      .join(''),
  };
}

/** Inflects a verb given in base form; a multi-word verb is inflected on its first word ('look at' -> 'looked at'). */
export function inflect(verb: string): EnglishVerbForms {
  const { head, rest } = splitVerb(verb);
  const word = head.toLowerCase();
  const irregular = irregularVerbs.get(word);
  const forms: EnglishVerbForms = {
    base: word,
    third: IRREGULAR_THIRD[word] ?? regularThird(word),
    past: irregular?.past ?? regularPast(word),
    pastParticiple: irregular?.pastParticiple ?? regularPast(word),
    presentParticiple: presentParticiple(word),
  };
  return {
    base: forms.base + rest,
    third: forms.third + rest,
    past: forms.past + rest,
    pastParticiple: forms.pastParticiple + rest,
    presentParticiple: forms.presentParticiple + rest,
  };
}

/** The finite present or past form agreeing with a subject: 'be' gives am/is/are and was/were; others -s in the 3sg present. */
export function finiteForm(verb: string, time: 'present' | 'past', person: 1 | 2 | 3, number: 'sg' | 'pl'): string {
  const forms = inflect(verb);
  const { head, rest } = splitVerb(verb);
  const singular = number === 'sg';
  if (head.toLowerCase() === 'be') {
    if (time === 'past') return (singular && person !== 2 ? 'was' : 'were') + rest;
    return (singular && person === 1 ? 'am' : singular && person === 3 ? 'is' : 'are') + rest;
  }
  if (time === 'past') return forms.past;
  return singular && person === 3 ? forms.third : forms.base;
}

/*
 * Stative verbs: verbs of state, perception, cognition, emotion and relation that English does not
 * put in the progressive in their usual sense ('I know', not 'I am knowing'). After Quirk et al.
 * (1985), §4.28-4.29 (stative verbs: qualities, states of perception and cognition, relations);
 * the selection is ours.
 */
const STATIVE = new Set([
  'be',
  'have',
  'own',
  'possess',
  'belong',
  'contain',
  'consist',
  'cost',
  'owe',
  'deserve',
  'matter',
  'resemble',
  'know',
  'understand',
  'believe',
  'think',
  'suppose',
  'doubt',
  'remember',
  'recognise',
  'recognize',
  'realise',
  'realize',
  'mean',
  'seem',
  'appear',
  'want',
  'need',
  'wish',
  'prefer',
  'love',
  'like',
  'hate',
  'dislike',
  'fear',
  'envy',
  'see',
  'hear',
  'smell',
  'taste',
  'feel',
]);

/** True when the verb (its first word) is stative in English and so avoids the progressive ('I know'). */
export function isStative(verb: string): boolean {
  return STATIVE.has(splitVerb(verb).head.toLowerCase());
}

/*
 * Intransitive verbs: English verbs that take no direct object in their usual sense ('she works', never
 * 'she works him'), so neither 'work each other' nor 'be worked' is English. A short list of English
 * usage, ours (no grammar cited): a verb left out keeps the transitive glosses.
 */
const INTRANSITIVE = new Set(['work', 'go', 'come', 'arrive', 'walk', 'sleep', 'sit', 'stand', 'live', 'stay', 'die', 'laugh', 'cry', 'weep', 'play', 'dance', 'travel', 'swim', 'rest', 'fall']);

/** True when the verb is a single intransitive English verb ('work'; not 'work on', not 'make _ work'). */
export function isIntransitive(verb: string): boolean {
  const { head, rest } = splitVerb(verb);
  return rest === '' && INTRANSITIVE.has(head.toLowerCase());
}

/** -able adjectives English takes from Latin instead: 'eatable' is said 'edible'. */
const IRREGULAR_ABLE: Readonly<Record<string, string>> = { eat: 'edible' };

/** The -able adjective of a verb: 'read' -> 'readable', 'get' -> 'gettable', 'love' -> 'lovable', 'deny' -> 'deniable', 'see' -> 'seeable', 'eat' -> 'edible'. */
export function ableForm(verb: string): string {
  const { head, rest } = splitVerb(verb);
  const word = head.toLowerCase();
  const irregular = IRREGULAR_ABLE[word];
  if (irregular !== undefined) return `${irregular}${rest}`;
  const stem = /[^aeiou]y$/.test(word) ? word.slice(0, -1) + 'i' : /[^aeiou]e$/.test(word) && !/[cg]e$/.test(word) ? word.slice(0, -1) : /e$/.test(word) ? word : suffixStem(word);
  return `${stem}able${rest}`;
}
