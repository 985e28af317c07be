/**
 * Generation over the Bantu verb template (and the simpler templates of other
 * word classes): a cell (tense, polarity, subject, object, ...) and a lexeme give
 * morphs per slot, then the cartridge's boundary rules give the surface form.
 * Generic: everything language-specific comes from the cartridge.
 */
import { derivationMeanings, type AgreementRow, type Cartridge, type DerivationMeaning, type Formation, type MorphSpec, type Tense, type VerbExtension } from '../cartridge/cartridge.js';
import { NounInflector, nounForms, type NounClass, type NounForm } from './nouns.js';
import { applyRules, compileRules, type CompiledRule, type Morph } from './rules.js';

export type Polarity = 'positive' | 'negative';

/** A fully specified paradigm cell. */
export interface Cell {
  word_class: string;
  tense?: string;
  polarity: Polarity;
  /** Agreement id of the subject (1sg..3pl, c1..c18) for verbs; of the head noun for other word classes. */
  subject?: string;
  /** Agreement id of the object, or 'refl'. */
  object?: string;
  /**
   * Agreement id of the noun a relative verb qualifies when it is not the subject (kitabu nilichokisoma
   * 'the book which I read': head c7, subject 1sg); only for formations with a concord `of: head`.
   */
  head?: string;
  variant?: string;
  extensions?: string[];
  /** Nouns: the class (else the lexicon's or a guess), number, derived form, and the possessee's agreement id. */
  noun_class?: string;
  number?: 'sg' | 'pl';
  form?: string;
  possessee?: string;
}

/** A lexeme as the generator needs it. */
export interface Lexeme {
  lemma: string;
  root: string;
  /** Final vowel the lexeme keeps in every form (loan verbs), or null for -a verbs. */
  ownFinalVowel: string | null;
  short: boolean;
  inLexicon: boolean;
  gloss: string | null;
  /** Enclitic the lemma is cited with (-wo of salawo), kept after every form. */
  enclitic?: string;
}

/**
 * The lexicon flag of a verb whose perfect reports the state its event results in (a verb 'know'
 * whose perfect means 'I know'): the English gloss reads that perfect as a present.
 */
export const RESULT_STATE_FLAG = 'perfect_state';

/**
 * The lexicon flags of a verb's objects, a fact of the language read from its dictionary or grammar: `no_object`, a
 * verb that takes no object marker ('go', 'die'); `two_objects`, a verb of two objects whose passive still takes an
 * object marker for the other one (a 'give' whose passive reads 'I have been given it'). A verb with neither takes one.
 */
export const NO_OBJECT_FLAG = 'no_object';
export const TWO_OBJECTS_FLAG = 'two_objects';

/**
 * How many objects a derived verb still takes: the verb's own (0, 1 or 2: the flags above), one more for each
 * applicative or causative ('go to _', 'make _ read'), one less for each passive, stative or reciprocal ('be read',
 * 'be readable', 'love each other'). A form whose count falls below one has no place for an object marker.
 */
export function objectPlaces(objects: number, derivations: readonly DerivationMeaning[]): number {
  let places = objects;
  for (const d of derivations) {
    if (d === 'applicative' || d === 'causative') places += 1;
    else if (d === 'passive' || d === 'stative' || d === 'reciprocal') places = Math.max(0, places - 1);
  }
  return places;
}

/**
 * The concord of an agreement row whose object marker has a second part after the final vowel
 * (a 2nd person plural object ku-...-ni): put in the post-final slot whenever the row is the object.
 */
export const OBJECT_SUFFIX = 'object_suffix';

/** One orthographic word of a generated form. */
export interface GeneratedWord {
  surface: string;
  morphs: Morph[];
  rules: string[];
  tense?: string;
  polarity: Polarity;
}

export interface Generated {
  surface: string;
  words: GeneratedWord[];
}

export class GenerationError extends Error {
  constructor(
    readonly parameter: string,
    message: string,
    /** The values the parameter may take here, when the caller can be told (extensions allowed after another). */
    readonly allowed?: string[],
  ) {
    super(message);
    this.name = 'GenerationError';
  }
}

const VOWELS = /[aeiouáéíóúàèìòùâêîôûāēīōū]/gu;

/** Generates forms of one cartridge. */
export class Generator {
  readonly #rules: CompiledRule[];
  readonly #tenses = new Map<string, Tense>();
  readonly #rows = new Map<string, AgreementRow>();
  readonly #lexicon = new Map<string, Cartridge['lexicon'][number]>();
  readonly #nouns?: NounInflector;

  constructor(readonly cartridge: Cartridge) {
    this.#rules = compileRules(cartridge.rules);
    if (cartridge.nouns) this.#nouns = new NounInflector(cartridge.nouns);
    for (const t of cartridge.verbs?.tenses ?? []) this.#tenses.set(t.id, t);
    for (const r of cartridge.agreement?.rows ?? []) this.#rows.set(r.id, r);
    // A row that gives one cell's own form (hana 'does not have' of -na 'have') does not stand for
    // the lemma when a row without a form does.
    for (const e of cartridge.lexicon) {
      const key = `${e.word_class}:${e.lemma}`;
      const known = this.#lexicon.get(key);
      if (!known || !e.form || known.form) this.#lexicon.set(key, e);
    }
  }

  get tenseIds(): string[] {
    return [...this.#tenses.keys()];
  }

  /** The noun grammar, when the cartridge has one. */
  get nouns(): NounInflector | undefined {
    return this.#nouns;
  }

  get agreementIds(): string[] {
    return [...this.#rows.keys()];
  }

  tense(id: string): Tense | undefined {
    return this.#tenses.get(id);
  }

  row(id: string): AgreementRow | undefined {
    return this.#rows.get(id);
  }

  /**
   * The cell with only the fields its form depends on: no subject for forms without
   * a subject marker (unless the plural changes them), no variant the tense lacks.
   */
  canonical(cell: Cell): Cell {
    if (cell.word_class !== 'verb' || !cell.tense) return cell;
    const tense = this.#tenses.get(cell.tense);
    if (!tense) return cell;
    const formation = this.#formation(tense, cell.polarity, cell.variant && tense.variants[cell.variant] ? cell.variant : undefined);
    const out: Cell = { ...cell };
    if (cell.variant && !tense.variants[cell.variant]?.[cell.polarity]) delete out.variant;
    if (out.head !== undefined && out.head === out.subject) delete out.head;
    if (formation.no_subject && typeof formation.subject !== 'object') {
      const pluralMatters = formation.plural_suffix !== undefined || formation.plural_prefix !== undefined || formation.fv_plural !== undefined;
      if (!pluralMatters) delete out.subject;
    }
    return out;
  }

  /** The gloss of a lexicon row that gives this very form of the lemma (hana 'does not have' of -na 'have'). */
  formGloss(lemma: string, wordClass: string, surface: string): string | undefined {
    this.#formGlosses ??= new Map(this.cartridge.lexicon.filter((e) => e.form && e.gloss).map((e) => [`${e.word_class}:${e.lemma}:${e.form}`, e.gloss!]));
    return this.#formGlosses.get(`${wordClass}:${lemma}:${surface}`);
  }
  #formGlosses?: Map<string, string>;

  /** The flags of a lemma's lexicon entry (none for a lemma outside the lexicon). */
  flags(lemma: string, wordClass = 'verb'): readonly string[] {
    return this.#lexicon.get(`${wordClass}:${lemma}`)?.flags ?? [];
  }

  /**
   * How many objects the verb (a lemma and its extensions) still takes, by its lexicon flags `no_object` and
   * `two_objects` (objectPlaces): those of the derived stem when the lexicon lists it (ona + causative = onyesha),
   * else those of the lemma. A verb outside the lexicon takes one object.
   */
  objectPlaces(lemma: string, extensions: string[]): number {
    const derivation = this.derivation(lemma, extensions);
    const flags = this.flags(derivation.lemma ?? this.lexeme(lemma).lemma);
    return objectPlaces(flags.includes(NO_OBJECT_FLAG) ? 0 : flags.includes(TWO_OBJECTS_FLAG) ? 2 : 1, derivation.meanings);
  }

  /** The lexeme for a lemma (from the lexicon when present, else guessed from its shape). */
  lexeme(lemma: string, wordClass = 'verb'): Lexeme {
    const entry = this.#lexicon.get(`${wordClass}:${lemma}`);
    if (!entry && wordClass === 'verb' && this.cartridge.verbs?.restore_initial_vowel) {
      const full = ['a', 'e', 'i', 'o', 'u'].map((v) => this.#lexicon.get(`verb:${v}${lemma}`)).find((e) => e !== undefined);
      if (full) return this.lexeme(full.lemma, wordClass);
    }
    // A short stem the lexicon cites with its prothetic vowel (idya) is also asked for without it (dya).
    const protheticVowel = wordClass === 'verb' ? this.cartridge.verbs?.prothetic_vowel?.vowel : undefined;
    if (!entry && protheticVowel && !lemma.startsWith(protheticVowel)) {
      const cited = this.#lexicon.get(`verb:${protheticVowel}${lemma}`);
      if (cited?.flags?.includes('short')) return this.lexeme(cited.lemma, wordClass);
    }
    // A lemma cited with the infinitive prefix (ku + itika), or with another written form of it (gu-, kw-), is
    // the verb the lexicon knows without it.
    const verbGrammar = wordClass === 'verb' ? this.cartridge.verbs : undefined;
    for (const infinitive of verbGrammar ? infinitivePrefixes(verbGrammar) : []) {
      if (entry || !lemma.startsWith(infinitive) || lemma.length <= infinitive.length + 1) continue;
      const known = infinitiveStems(lemma.slice(infinitive.length), verbGrammar?.prothetic_vowel?.vowel)
        .map((l) => this.#lexicon.get(`verb:${l}`))
        .find((e) => e !== undefined);
      if (known) return this.lexeme(known.lemma, wordClass);
    }
    // A vowel-initial verb cited with the glide of its imperative (yogera) is the verb the lexicon knows without it.
    const glide = verbGrammar?.cited_glide?.glide;
    if (!entry && glide && lemma.startsWith(glide) && /^[aeiou]/u.test(lemma.slice(glide.length))) {
      const known = this.#lexicon.get(`verb:${lemma.slice(glide.length)}`);
      if (known) return this.lexeme(known.lemma, wordClass);
    }
    const flags = new Set(entry?.flags ?? []);
    const fv = this.cartridge.verbs?.default_fv ?? 'a';
    if (!entry && wordClass === 'verb') {
      const enclitic = this.cartridge.verbs?.enclitics?.forms.find((e) => lemma.endsWith(fv + e) && lemma.length > fv.length + e.length + 1);
      if (enclitic) return { ...this.lexeme(lemma.slice(0, -enclitic.length), wordClass), lemma, enclitic };
    }
    if (wordClass === 'verb' && this.cartridge.verbs?.citation === 'root') {
      // A verb cited with its final vowel (linga = ling- + -a) is its root, unless the lexicon lists it as a root.
      if (!entry && lemma.endsWith(fv) && lemma.length > fv.length) return { ...this.lexeme(lemma.slice(0, -fv.length), wordClass), lemma };
      const syllables = (lemma.match(VOWELS) ?? []).length;
      return { lemma, root: lemma, ownFinalVowel: null, short: flags.has('short') || syllables === 0, inLexicon: entry !== undefined, gloss: entry?.gloss ?? null };
    }
    const prothetic = wordClass === 'verb' ? this.cartridge.verbs?.prothetic_vowel : undefined;
    if (prothetic && lemma.startsWith(prothetic.vowel)) {
      const rest = lemma.slice(prothetic.vowel.length);
      const guessed = !entry && prothetic.guess !== undefined && new RegExp(prothetic.guess, 'u').test(rest);
      if (flags.has('short') || guessed) {
        const root = rest.endsWith(fv) ? rest.slice(0, -fv.length) : rest;
        return { lemma, root, ownFinalVowel: null, short: true, inLexicon: entry !== undefined, gloss: entry?.gloss ?? null };
      }
    }
    const endsInFv = lemma.endsWith(fv);
    const keeps = wordClass === 'verb' && (flags.has('keeps_fv') || (!endsInFv && /[aeiou]$/u.test(lemma)));
    const root = wordClass !== 'verb' ? lemma : keeps ? lemma.slice(0, -1) : endsInFv ? lemma.slice(0, -fv.length) : lemma;
    const syllables = (lemma.match(VOWELS) ?? []).length;
    return {
      lemma,
      root,
      ownFinalVowel: keeps ? lemma.slice(-1) : null,
      short: flags.has('short') || (wordClass === 'verb' && syllables <= 1),
      inLexicon: entry !== undefined,
      gloss: entry?.gloss ?? null,
    };
  }

  /** Generates the form of `lemma` in `cell`, or throws GenerationError naming the bad parameter. */
  generate(lemma: string, cell: Cell): Generated {
    const refused = cell.word_class === 'verb' ? this.cartridge.verbs?.not_verbs.find((n) => n.lemma === lemma) : undefined;
    if (refused) throw new GenerationError('root', `"${lemma}" is not a verb: ${refused.note}`);
    // A multi-word lemma (hlala phansi 'sit down') inflects its first word; the rest follows unchanged.
    const space = cell.word_class === 'verb' ? lemma.indexOf(' ') : -1;
    const whole = space > 0 ? this.#irregularWord(lemma, cell) : undefined;
    if (whole) return whole;
    if (space > 0) {
      const head = this.generateWith(this.lexeme(lemma.slice(0, space), cell.word_class), cell);
      const rest = lemma.slice(space + 1);
      const complement: GeneratedWord = { surface: rest, morphs: [{ slot: 'complement', form: rest }], rules: [], polarity: cell.polarity };
      return { surface: `${head.surface} ${rest}`, words: [...head.words, complement] };
    }
    return this.generateWith(this.lexeme(lemma, cell.word_class), cell);
  }

  /** Generates with an explicit lexeme (the analyzer passes placeholder roots). */
  generateWith(lexeme: Lexeme, cell: Cell): Generated {
    if (cell.word_class === 'verb') return this.#verb(lexeme, cell);
    if (cell.word_class === 'noun') return this.#noun(lexeme.lemma, cell);
    return this.#word(lexeme.root, cell);
  }

  #noun(lemma: string, cell: Cell): Generated {
    const nouns = this.#nouns;
    if (!nouns) throw new GenerationError('word_class', 'this language has no noun grammar yet');
    const entry = this.#lexicon.get(`noun:${lemma}`);
    const cls = nouns.classify(lemma, cell.noun_class ?? entry?.noun_class);
    if (!cls) throw new GenerationError('lemma', `cannot tell the noun class of "${lemma}"`);
    const stem = nouns.split(lemma, cls);
    if (stem === undefined) throw new GenerationError('lemma', `"${lemma}" does not begin with a class ${cls.id} prefix`);
    let target = cls;
    let targetStem = stem;
    let prefixes = cls.prefixes;
    if (cell.number === 'pl' && cls.plural !== undefined) {
      if (entry?.plural === '-') throw new GenerationError('number', `"${lemma}" has no plural`);
      const plural = nouns.nounClass(cls.plural);
      if (!plural) throw new GenerationError('number', `class ${cls.id} names an unknown plural class ${cls.plural}`);
      target = plural;
      if (entry?.plural) {
        // An irregular plural may belong to another class than the usual one (indoda -> amadoda, class 6).
        const pluralClass = nouns.split(entry.plural, plural) !== undefined ? plural : nouns.classify(entry.plural);
        const split = pluralClass ? nouns.splitWith(entry.plural, pluralClass) : undefined;
        if (!pluralClass || !split) throw new GenerationError('number', `cannot read the plural "${entry.plural}"`);
        target = pluralClass;
        targetStem = split.stem;
        prefixes = [split.prefix];
      } else {
        prefixes = nouns.pluralPrefixes(cls.plural_prefixes ?? plural.prefixes, nouns.splitWith(lemma, cls)?.prefix);
      }
    } else if (cell.number === 'pl' && !nouns.grammar.classes.some((c) => c.plural === cls.id)) {
      throw new GenerationError('number', `class ${cls.id} nouns have no plural`);
    }
    // A noun of a plural class (amafutha, class 6) is its own plural.
    return this.nounForm(target, targetStem, prefixes, cell);
  }

  /** A noun form from an explicit class, stem and prefix allomorphs (the analyzer builds frames with it). */
  nounForm(cls: NounClass, stem: string, prefixes: NounClass['prefixes'], cell: Cell): Generated {
    const nouns = this.#nouns;
    if (!nouns) throw new GenerationError('word_class', 'this language has no noun grammar yet');
    const form = (cell.form ?? 'full') as NounForm;
    if (!(nounForms as readonly string[]).includes(form)) throw new GenerationError('form', `unknown noun form "${form}"`);
    const possessee = cell.possessee ? this.#agreement('possessee', cell.possessee) : undefined;
    if ((form === 'possessive' || form === 'relative_possessive') && !possessee) throw new GenerationError('possessee', 'a possessive needs the class of the possessed noun');
    if (form === 'negative_copulative' && !nouns.grammar.negative_copulative) throw new GenerationError('form', 'this language has no negative copulative of nouns yet');
    const own = form === 'negative_copulative' ? this.#rows.get(cls.agreement) : undefined;
    let morphs: Morph[];
    try {
      morphs = nouns.morphs(cls, stem, prefixes, form, possessee, own);
    } catch (error) {
      throw new GenerationError(form === 'negative_copulative' ? 'form' : 'possessee', (error as Error).message);
    }
    // The negative copulative is a negative form: rules conditioned on the negative polarity apply to it.
    const polarity = form === 'negative_copulative' ? 'negative' : 'positive';
    const rules = applyRules(this.#rules, morphs, { wordClass: 'noun', polarity });
    const word: GeneratedWord = { surface: morphs.map((m) => m.form).join(''), morphs: morphs.filter((m) => m.form !== ''), rules, polarity };
    return { surface: word.surface, words: [word] };
  }

  #verb(lexeme: Lexeme, cell: Cell): Generated {
    const verbs = this.cartridge.verbs;
    if (!verbs) throw new GenerationError('language', 'this language has no verb grammar yet');
    const tense = cell.tense ? this.#tenses.get(cell.tense) : undefined;
    if (!tense) throw new GenerationError('tense', `unknown tense "${cell.tense ?? ''}"`);
    // A head other than the subject: an object or place relative (a concord with `unless_subject_head`, and the
    // formation's `indirect` fields, only then).
    const otherHead = cell.head !== undefined && cell.head !== cell.subject;
    const plain = this.#formation(tense, cell.polarity, cell.variant);
    const formation = otherHead && plain.indirect ? { ...plain, ...plain.indirect } : plain;
    if (formation.absent) {
      // A variant absent for every verb but those with a suppletive form of their own (verbs.irregular) in it.
      const own = cell.variant !== undefined ? this.#irregularWord(lexeme.lemma, cell) : undefined;
      if (own) return own;
      throw new GenerationError('polarity', `the ${tense.id} has no ${cell.polarity} form`);
    }
    if (formation.not_modelled) throw new GenerationError('polarity', `the ${cell.polarity} ${tense.id} is not modelled in this cartridge yet`);
    const persons = formation.persons;
    if (persons && cell.subject !== undefined && !persons.includes(this.#agreement('subject', cell.subject).person as 1 | 2 | 3)) {
      const allowed = [...this.#rows.values()].filter((r) => persons.includes(r.person as 1 | 2 | 3)).map((r) => r.id);
      throw new GenerationError('subject', `the ${cell.polarity} ${tense.id} has ${persons.map((p) => `${p}${['st', 'nd', 'rd'][p - 1]}`).join(' and ')} person subjects only: ${allowed.join(', ')}`, allowed);
    }
    if (formation.auxiliary && formation.main) {
      const aux = this.#verb(this.lexeme(formation.auxiliary.lemma), {
        ...cell,
        object: undefined,
        extensions: undefined,
        tense: formation.auxiliary.tense,
        polarity: formation.auxiliary.polarity ?? cell.polarity,
        variant: formation.auxiliary.variant,
      });
      const main = this.#verb(lexeme, { ...cell, tense: formation.main.tense, polarity: formation.main.polarity, variant: formation.main.variant });
      const words = [...aux.words, ...main.words];
      return { surface: words.map((w) => w.surface).join(' '), words };
    }
    const subjectRow = formation.no_subject ? undefined : this.#agreement('subject', cell.subject);
    const objectRow = cell.object && cell.object !== 'refl' ? this.#agreement('object', cell.object) : undefined;
    if (cell.head !== undefined && !formationUsesHead(formation)) throw new GenerationError('head', `the ${tense.id} agrees with no head noun; leave head out`);
    const headRow = cell.head !== undefined ? this.#agreement('head', cell.head) : subjectRow;
    const slots: Record<string, Morph> = {};
    const put = (slot: string, form: string | undefined, id?: string) => {
      if (form) slots[slot] = { slot, form, ...(id ? { id } : {}) };
    };
    const plural = subjectRow?.number === 'pl' || (formation.no_subject && cell.subject !== undefined && this.#rows.get(cell.subject)?.number === 'pl');
    put('pre_initial', [this.#literal(formation.pre_initial, subjectRow, objectRow, headRow, otherHead), plural ? formation.plural_prefix : undefined].filter(Boolean).join(''));
    if (!subjectRow && typeof formation.subject === 'string') put('subject', formation.subject, 'infinitive');
    if (subjectRow) {
      const concord = this.#resolve(formation.subject ?? { concord: 'subject', of: 'subject' }, subjectRow, objectRow);
      const [pre, main] = concord.includes('-') ? concord.split('-', 2) : [undefined, concord];
      if (pre) put('pre_initial', pre, 'negative');
      put('subject', main, subjectRow.id);
    }
    put('negation', this.#literal(formation.negation, subjectRow, objectRow, headRow, otherHead));
    put('tam', this.#literal(formation.tam, subjectRow, objectRow, headRow, otherHead), tense.id);
    put('relative', this.#literal(formation.relative, subjectRow, objectRow, headRow, otherHead), headRow?.id);
    if (cell.object === 'refl') put('object', verbs.reflexive, 'refl');
    // An object slot agreeing with the head (an object relative) takes the cell's own object when no head is named.
    else if (objectRow) put('object', this.#resolve(formation.object ?? { concord: 'object', of: 'object' }, subjectRow, objectRow, cell.head !== undefined ? headRow : objectRow), objectRow.id);
    const irregular = this.#irregularWord(lexeme.lemma, cell, slots.object);
    if (irregular) return irregular;
    const derived = this.#derive(lexeme, cell.extensions ?? []);
    const support = verbs.stem_support;
    // An extension adds a syllable, so an extended stem is never short (kula but alipewa, alilisha;
    // uzokudla but uzodliwa); a vowel-initial stem stays vowel-initial and keeps its support
    // (uzokwenza, uzokwenziwa). The HFST export mirrors this rule and must change with it.
    const needsSupport =
      support !== undefined &&
      ((support.applies_to.includes('short') && lexeme.short && derived.extensions.length === 0 && derived.root === lexeme.root) || (support.applies_to.includes('vowel_initial') && /^[aeiouāēīōū]/u.test(derived.root)));
    if (formation.stem_support && support && needsSupport && !(cell.object && support.dropped_with_object)) {
      const morph = typeof formation.stem_support === 'string' ? formation.stem_support : support.morph;
      // A literal prefix identical to the support morph (the infinitive ku-) is the support itself.
      if (slots.subject?.id === 'infinitive' && slots.subject.form === morph && !slots.negation) delete slots.subject;
      put('stem_support', morph);
    }
    put('root', derived.root);
    if (derived.form) slots.extensions = { slot: 'extensions', form: derived.form, id: derived.extensions.join('+') };
    const keepsOwn = lexeme.ownFinalVowel !== null && !cell.extensions?.length;
    const fv = keepsOwn
      ? lexeme.ownFinalVowel!
      : ((plural ? formation.fv_plural : undefined) ?? (cell.object && !formation.fv_object_except?.includes(cell.object) ? formation.fv_object : undefined) ?? formation.fv ?? verbs.default_fv);
    put('fv', fv);
    // An object marker in two parts (a prefix and a suffix after the final vowel, ku-...-ni): the row's
    // `object_suffix` concord goes after the verb, before an enclitic.
    const objectSuffix = objectRow?.concords[OBJECT_SUFFIX];
    const post = [this.#literal(formation.post_final, subjectRow, objectRow, headRow, otherHead), plural ? formation.plural_suffix : undefined, objectSuffix, lexeme.enclitic].filter(Boolean).join('');
    put('post_final', post);
    const morphs = verbs.template.map((slot) => slots[slot]).filter((m): m is Morph => m !== undefined);
    const rules = applyRules(this.#rules, morphs, { wordClass: 'verb', tense: tense.id, polarity: cell.polarity });
    const word: GeneratedWord = { surface: morphs.map((m) => m.form).join(''), morphs: morphs.filter((m) => m.form !== ''), rules, tense: tense.id, polarity: cell.polarity };
    return { surface: word.surface, words: [word] };
  }

  /**
   * The suppletive form of `lemma` in this cell (verbs.irregular), if it has one. `object` is the
   * cell's object morph: only an entry whose template places `{object}` serves a cell with an object.
   */
  #irregularWord(lemma: string, cell: Cell, object?: Morph): Generated | undefined {
    if (cell.extensions?.length || !cell.tense) return undefined;
    // An entry of the cell's own variant first (the short perfect uthe), else one that names no variant.
    const entries = this.cartridge.verbs?.irregular.filter((i) => i.lemma === lemma && i.tense === cell.tense && i.polarity === cell.polarity && Boolean(cell.object) === Boolean(i.template?.includes('{object}'))) ?? [];
    const entry = entries.find((i) => i.variant !== undefined && i.variant === cell.variant) ?? entries.find((i) => i.variant === undefined);
    if (!entry) return undefined;
    let morphs: Morph[];
    if (entry.template !== undefined) {
      // The subject's row only when the template names a concord (a template of a subjectless variant has none).
      const row = /\{(?!object\})[a-z_]+\}/u.test(entry.template) ? this.#agreement('subject', cell.subject) : undefined;
      morphs = entry.template
        .split(/(\{[a-z_]+\})/u)
        .filter((part) => part !== '')
        .map((part) => {
          const concord = /^\{([a-z_]+)\}$/u.exec(part)?.[1];
          if (!concord) return { slot: 'root', form: part, id: 'irregular' };
          if (concord === 'object') {
            if (!object) throw new GenerationError('object', `the irregular form of ${lemma} needs an object marker`);
            return { ...object };
          }
          const form = row!.concords[concord];
          if (form === undefined) throw new GenerationError('subject', `no ${concord} concord for ${row!.id}`);
          return { slot: 'subject', form: form.replace('-', ''), id: row!.id };
        });
    } else {
      const form = cell.subject ? entry.forms[cell.subject] : Object.values(entry.forms)[0];
      if (form === undefined) return undefined;
      morphs = [{ slot: 'root', form, id: 'irregular' }];
    }
    // The boundary rules join a concord to a vowel-initial stem as in any verb (u + azile -> wazile).
    const rules = applyRules(this.#rules, morphs, { wordClass: 'verb', tense: cell.tense, polarity: cell.polarity });
    const surface = morphs.map((m) => m.form).join('');
    return { surface, words: [{ surface, morphs: morphs.filter((m) => m.form !== ''), rules, tense: cell.tense, polarity: cell.polarity }] };
  }

  /**
   * The derived stem of `lexeme` with `extensions` in order: a lexical derivative where the
   * cartridge lists one (lala -> laza), else the first allomorph that fits the stem so far.
   * Throws a GenerationError (parameter `extensions`, with the allowed ids) for an unknown
   * extension, a repeated one, or one the grammar forbids after another.
   */
  #derive(lexeme: Lexeme, ids: string[]): { root: string; form: string; extensions: string[]; lexical: string | undefined } {
    const verbs = this.cartridge.verbs!;
    const fv = verbs.default_fv;
    // A loan whose own final vowel follows another vowel (sahau) is a vowel stem once extended (sahaulika).
    const vowelLoan = ids.length > 0 && lexeme.ownFinalVowel !== null && /[aeiou]$/u.test(lexeme.root);
    let root = vowelLoan ? lexeme.root + lexeme.ownFinalVowel : lexeme.root;
    let form = '';
    let lexical: string | undefined;
    const done: VerbExtension[] = [];
    for (const id of ids) {
      const ext = verbs.extensions.find((e) => e.id === id);
      if (!ext)
        throw new GenerationError(
          'extensions',
          `unknown extension "${id}"`,
          verbs.extensions.map((e) => e.id),
        );
      const clash = done.find((d) => d.id === id || ext.not_after.includes(d.id));
      if (clash) {
        const allowed = verbs.extensions.filter((e) => !done.some((d) => d.id === e.id || e.not_after.includes(d.id))).map((e) => e.id);
        const why = clash.id === id ? `the ${id} extension cannot be repeated` : `the ${id} extension cannot follow the ${clash.id}`;
        throw new GenerationError('extensions', `${why}; after ${done.map((d) => d.id).join(' + ')} the allowed extensions are: ${allowed.join(', ') || 'none'}`, allowed);
      }
      done.push(ext);
      const stem = root + form;
      const atRoot = done.length === 1 && !lexical;
      const citation = atRoot ? lexeme.lemma : stem + fv;
      const derived = ext.lexical[citation];
      if (derived !== undefined) {
        root = derived.endsWith(fv) ? derived.slice(0, -fv.length) : derived;
        form = '';
        lexical = derived;
        continue;
      }
      const ownFv = atRoot && lexeme.ownFinalVowel !== null && !vowelLoan;
      const allomorph = ext.forms.find((f) => (!f.root_only || atRoot) && (f.own_fv === undefined || f.own_fv === ownFv) && (!f.after || new RegExp(`(?:${f.after})$`, 'u').test(stem)));
      if (!allomorph) throw new GenerationError('extensions', `no form of the ${id} extension fits the stem "${stem}"`);
      form += allomorph.form;
    }
    return { root, form, extensions: done.map((d) => d.id), lexical };
  }

  /**
   * What the extensions do to the meaning, for the English gloss: the lexicon's own gloss of the
   * longest derived stem it lists (ona + causative = onyesha 'show', ingia + causative = ingiza
   * 'bring in'), that stem's headword when it is a lexicon row (`lemma`), and the meanings of the extensions after it.
   */
  derivation(lemma: string, extensions: string[]): { gloss?: string; lemma?: string; meanings: DerivationMeaning[] } {
    const verbs = this.cartridge.verbs;
    if (!verbs || extensions.length === 0) return { meanings: [] };
    const meaningOf = (id: string): DerivationMeaning | undefined =>
      verbs.extensions.find((e) => e.id === id)?.meaning ?? ((derivationMeanings as readonly string[]).includes(id) ? (id as DerivationMeaning) : id === 'neuter' ? 'stative' : undefined);
    const lexeme = this.lexeme(lemma);
    let gloss: string | undefined;
    // the lexicon's headword of the derived stem whose gloss is taken, for its flags
    let headword: string | undefined;
    let from = 0;
    for (let n = 1; n <= extensions.length; n++) {
      let derived: { root: string; form: string };
      try {
        derived = this.#derive(lexeme, extensions.slice(0, n));
      } catch {
        return { meanings: [] };
      }
      const entry = this.#lexicon.get(`verb:${derived.root}${derived.form}${verbs.default_fv}`);
      // (a derived stem that is no headword may still have its own English: verbs.yaml derived_glosses)
      // A verb flagged `underived` only sounds like this derivation (lia 'cry' is not la 'eat' + applicative).
      const citation = `${derived.root}${derived.form}${verbs.default_fv}`;
      const known = (entry?.flags.includes('underived') ? undefined : entry?.gloss) ?? verbs.derived_glosses?.glosses[citation];
      if (known) {
        gloss = known.split(/[;,]/)[0]!.trim();
        headword = entry?.gloss === known ? entry.lemma : undefined;
        from = n;
      }
    }
    return { ...(gloss ? { gloss } : {}), ...(headword ? { lemma: headword } : {}), meanings: extensions.slice(from).flatMap((id) => meaningOf(id) ?? []) };
  }

  #word(lemma: string, cell: Cell): Generated {
    const wordClass = this.cartridge.words?.classes.find((c) => c.id === cell.word_class);
    if (!wordClass) throw new GenerationError('word_class', `unknown word class "${cell.word_class}"`);
    const row = this.#agreement('agreement', cell.subject);
    const concord = wordClass.by_stem?.find((b) => new RegExp(b.stem, 'u').test(lemma))?.concord ?? wordClass.concord;
    const prefix = wordClass.prefixes?.[row.id] ?? (concord ? row.concords[concord] : undefined);
    if (prefix === undefined) throw new GenerationError('agreement', `${wordClass.id} has no form for ${row.id}`);
    const morphs: Morph[] = [
      { slot: 'prefix', form: prefix, id: row.id },
      { slot: 'stem', form: lemma },
    ];
    const rules = applyRules(this.#rules, morphs, { wordClass: wordClass.id, polarity: cell.polarity });
    const word: GeneratedWord = { surface: morphs.map((m) => m.form).join(''), morphs: morphs.filter((m) => m.form !== ''), rules, polarity: cell.polarity };
    return { surface: word.surface, words: [word] };
  }

  #formation(tense: Tense, polarity: Polarity, variant?: string): Formation {
    const base = tense[polarity];
    const override = variant ? tense.variants[variant]?.[polarity] : undefined;
    if (variant && !tense.variants[variant]) throw new GenerationError('variant', `the ${tense.id} has no variant "${variant}"`);
    return override ? { ...base, ...override } : base;
  }

  #agreement(parameter: string, id: string | undefined): AgreementRow {
    const row = id ? this.#rows.get(id) : undefined;
    if (!row) throw new GenerationError(parameter, `unknown ${parameter} "${id ?? ''}"`);
    return row;
  }

  #literal(spec: MorphSpec | undefined, subject: AgreementRow | undefined, object: AgreementRow | undefined, head?: AgreementRow, otherHead = false): string | undefined {
    if (spec === undefined || (typeof spec === 'object' && spec.unless_subject_head && !otherHead)) return undefined;
    return this.#resolve(spec, subject, object, head);
  }

  #resolve(spec: MorphSpec, subject: AgreementRow | undefined, object: AgreementRow | undefined, head?: AgreementRow): string {
    if (typeof spec === 'string') return spec;
    const row = spec.of === 'object' ? object : spec.of === 'head' ? (head ?? subject) : subject;
    const form = row?.concords[spec.concord];
    if (form === undefined) {
      // The rows that have the concord: a tense some persons lack (a form the sources give for some persons only).
      const allowed = [...this.#rows.values()].filter((r) => r.concords[spec.concord] !== undefined).map((r) => r.id);
      throw new GenerationError(spec.of, `no ${spec.concord} concord for ${row?.id ?? 'this form'}`, allowed);
    }
    return form;
  }
}

/** Whether a formation has a concord that agrees with the cell's head, or `indirect` fields (a relative of object or place). */
export function formationUsesHead(formation: Partial<Record<string, unknown>>): boolean {
  return formation.indirect !== undefined || Object.values(formation).some((spec) => typeof spec === 'object' && spec !== null && (spec as { of?: string }).of === 'head');
}

/** The written forms of the infinitive prefix a cited infinitive may begin with: the prefix, then its other forms. */
export function infinitivePrefixes(verbs: { infinitive_prefix?: string; infinitive_prefix_forms?: readonly string[] }): string[] {
  return verbs.infinitive_prefix ? [verbs.infinitive_prefix, ...(verbs.infinitive_prefix_forms ?? [])] : [];
}

/**
 * The stems the rest of an infinitive may cite: itself (ku-la: la) or, in a cartridge whose
 * monosyllabic stems are cited with a prothetic vowel, that vowel + the rest (ku-dya: idya).
 * No other vowel is added (ku-nda is not enda).
 */
export function infinitiveStems(rest: string, protheticVowel?: string): string[] {
  return protheticVowel ? [rest, `${protheticVowel}${rest}`] : [rest];
}
