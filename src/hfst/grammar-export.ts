/**
 * Exports a cartridge's verb grammar (not its forms) to lexc and xfst rules:
 *
 * - the lexc follows the verb template. `Root` lists every prefix the template engine builds
 *   for a cell (pre-initial, subject, negation, TAM, relative, object, stem support; the
 *   auxiliary word of a periphrastic tense), each morph between slot markers; then the root
 *   (the cartridge's lexicon, and an open root class tagged `+Guess` for roots it does not
 *   list), the tags, the extensions (as archiphonemes), the final vowel and the post-final.
 *   Flag diacritics tie the prefix to the tags and the suffixes, so the lexicon is a product
 *   of small lexicons rather than a list of words;
 * - the rules turn the archiphonemes into the allomorph each extension's `after` condition
 *   picks (the vowel harmony of extensions) and translate each boundary rule of rules.yaml
 *   into xfst replace rules that see the slot markers (so `left_slot`, `right_slot`,
 *   `left_id`, `right_id`, `when.tense` and `when.polarity` keep their meaning), then
 *   delete the markers.
 *
 * The prefixes come from the engine itself (run without rules on placeholder roots), so the
 * lexicon cannot drift from the cartridge's formations. A rule whose pattern the translator
 * does not support is listed in `unsupportedRules`; a lemma the template lexicon cannot hold
 * (multi-word lemmas, lemmas cited with an enclitic, lemmas with `verbs.irregular` forms, with
 * an extension's `lexical` derivative, or with their own final vowel where extensions depend
 * on it) goes to an explicit `Exceptions` lexicon of the engine's forms, counted in `exceptions`.
 * Generic: nothing here names a language.
 */
import type { Cartridge, VerbExtension } from '../cartridge/cartridge.js';
import { goldenCases } from '../cartridge/golden.js';
import { formationUsesHead, Generator, type Cell, type Lexeme } from '../morphology/generator.js';
import type { Morph } from '../morphology/rules.js';
import { analysisOf, exportVerbLexc, lexcEscape, longestCommonRun, type ExportedForm } from './cartridge-export.js';
import { parsePattern, patternToXfst, ruleSides, UnsupportedPattern, xfstString, xfstSymbol, xfstUnion, type Alphabet } from './xfst-regex.js';

export interface GrammarExport {
  iso: string;
  lexc: string;
  /** The rule cascade: `;`-separated xfst regular expressions applied in order (`hfst-regexp2fst -S`, then composed one by one). */
  rules: string;
  /** Lemmas of the root lexicon. */
  lemmas: string[];
  /** Prefix entries (one per cell and stem-support class). */
  prefixes: number;
  /** Lemmas routed through the exceptions lexicon, with the number of forms listed for them. */
  exceptions: Array<{ lemma: string; reason: string; forms: number }>;
  /** Boundary rules applied to verbs and translated into xfst. */
  translatedRules: string[];
  /** Boundary rules applied to verbs that could not be translated, with why. */
  unsupportedRules: Array<{ id: string; reason: string }>;
  /** Whether the open root class (+Guess) is in the lexicon. */
  guesser: boolean;
}

export interface GrammarExportOptions {
  /** Lemmas of the root lexicon (default: the lexicon's verbs and the golden tests' verb lemmas). */
  lemmas?: readonly string[];
  /** Weight of a guessed root (the analyser sorts lexicon analyses first). */
  guessWeight?: number;
  /**
   * Which roots the lexicon holds: `lexicon` (the lexicon's verbs and the exceptions), `guesser`
   * (only the open root class, for a fallback model), or `both` (default).
   */
  roots?: 'lexicon' | 'guesser' | 'both';
}

/** Vowels as the engine counts syllables (generator.ts) and as stem support sees vowel-initial stems. */
const VOWEL = /^[aeiouáéíóúàèìòùâêîôûāēīōū]$/u;
const SUPPORT_VOWEL = /^[aeiouāēīōū]/u;
/** How many extensions a form may stack in the exported lexicon. */
const MAX_EXTENSIONS = 3;

const begin = (slot: string, id?: string) => `⟨${slot}${id ? `.${id}` : ''}`;
const end = (slot: string, id?: string) => `${slot}${id ? `.${id}` : ''}⟩`;
const tenseMarker = (tense: string) => `⟨T.${tense}⟩`;
const polarityMarker = (polarity: string) => `⟨P.${polarity}⟩`;
const extensionSymbol = (id: string) => `⟨X.${id}⟩`;
/** Flag values: letters, digits and `_` only. */
const flagValue = (value: string) => value.replace(/[^A-Za-z0-9_]/gu, (c) => `_${c.codePointAt(0)!.toString(16)}`);

/** A lexc entry pairing `upper` and `lower` symbol lists position by position (shorter side padded with 0). */
function pairEntry(upper: readonly string[], lower: readonly string[]): string {
  const n = Math.max(upper.length, lower.length);
  const u: string[] = [];
  const l: string[] = [];
  for (let i = 0; i < n; i++) {
    u.push(upper[i] ?? '0');
    l.push(lower[i] ?? '0');
  }
  if (u.join('') === l.join('')) return u.join('');
  return `${u.join('')}:${l.join('')}`;
}

/** An entry with flag diacritics on both sides, then `upper` paired with `lower`. */
function flagged(flagList: readonly string[], upper: readonly string[], lower: readonly string[]): string {
  const n = Math.max(upper.length, lower.length);
  const pad = (side: readonly string[]) => [...side, ...Array<string>(n - side.length).fill('0')];
  return pairEntry([...flagList, ...pad(upper)], [...flagList, ...pad(lower)]);
}

const esc = (symbol: string) => (symbol.startsWith('@') && symbol.endsWith('@') ? symbol : lexcEscape(symbol));
const flags = (...list: Array<string | undefined>) => list.filter((f): f is string => f !== undefined);

/** The verb grammar of `cartridge` as lexc + xfst rules; undefined when it has no verb grammar. */
export function exportVerbGrammar(cartridge: Cartridge, generator: Generator, options: GrammarExportOptions = {}): GrammarExport | undefined {
  if (!cartridge.verbs) return undefined;
  const builder = new VerbLexcBuilder(cartridge, cartridge.verbs, generator);
  const roots = options.roots ?? 'both';
  // The sections in this order: each registers the markers and multichar symbols it writes, in order.
  const prefixes = builder.prefixes();
  const lemmas = [...new Set(options.lemmas ?? builder.defaultLemmas())];
  const rootLex = builder.roots(lemmas);
  const guess = builder.guesser(roots, options.guessWeight ?? 10);
  const exceptions = roots === 'guesser' ? { exceptions: [], lines: [], tags: new Set<string>() } : builder.exceptions(rootLex.exceptionLemmas);
  const tagLines = builder.tags(prefixes.flagValues);
  const extensionLines = builder.extensions();
  const fvLines = builder.finalVowels(prefixes.suffixes, rootLex.ownVowels);
  const endLines = builder.ends(prefixes.flagValues, guess.guesser);
  const lexc = builder.lexc({ roots, prefixes, rootLex, guess, exceptions, lines: [...tagLines, ...extensionLines, ...fvLines, ...endLines] });
  const { regex, translated, unsupported } = ruleCascade(cartridge, builder.cascadeInput());
  return {
    iso: cartridge.metadata.iso639_3,
    lexc,
    rules: regex,
    lemmas: roots === 'guesser' ? [] : lemmas.filter((l) => !rootLex.exceptionLemmas.some((e) => e.lemma === l)),
    prefixes: prefixes.prefixLines.length + prefixes.tailLines.filter((l) => l.endsWith(' RootLex ;')).length,
    exceptions: exceptions.exceptions,
    translatedRules: translated,
    unsupportedRules: unsupported,
    guesser: guess.guesser,
  };
}

type VerbGrammar = NonNullable<Cartridge['verbs']>;
type SupportNeed = 'none' | 'short' | 'vowel';
/** The flag values the prefixes set, which the tags then require: tense, subject, object, variant. */
type FlagValues = { T: Set<string>; S: Set<string>; O: Set<string>; H: Set<string>; VAR: Set<string> };
/** The final vowel and post-final of a cell, shared by every cell that ends alike (`@P.FV.k@`). */
type Suffix = { fv: Morph | undefined; post: Morph | undefined };
/** One prefix the engine built for a cell and a support class. */
type BuiltPrefix = { needs: boolean; aux: string[]; prefix: Morph[]; fv?: Morph; post?: Morph; tense: string; polarity: string };

/**
 * Builds the lexc of one verb grammar a section at a time (prefixes, roots, the open root
 * class, exceptions, tags, extensions, final vowels, ends), collecting as it goes the slot
 * markers, multichar symbols and alphabet that the lexc declares and the rule cascade reads.
 */
class VerbLexcBuilder {
  readonly multichar = new Set<string>();
  readonly markers = new Set<string>();
  readonly beginMarkers = new Map<string, { slot: string; id?: string }>();
  readonly endMarkers = new Map<string, { slot: string; id?: string }>();
  readonly alphabet = new Set<string>();
  readonly tenses = new Set<string>();
  readonly polarities = new Set<string>();
  /** The engine without rules: prefixes come out as morphs, before any boundary rule. */
  private readonly bare: Generator;
  private readonly support: VerbGrammar['stem_support'];

  constructor(
    private readonly cartridge: Cartridge,
    private readonly verbs: VerbGrammar,
    private readonly generator: Generator,
  ) {
    this.bare = new Generator({ ...cartridge, rules: [] });
    this.support = verbs.stem_support;
  }

  /** Registers the begin and end markers of a slot (and morph id). */
  register(slot: string, id?: string): readonly [string, string] {
    const b = begin(slot, id);
    const e = end(slot, id);
    this.beginMarkers.set(b, { slot, ...(id ? { id } : {}) });
    this.endMarkers.set(e, { slot, ...(id ? { id } : {}) });
    this.markers.add(b).add(e);
    return [b, e] as const;
  }

  /** A morph as lower-side symbols: its letters between its slot markers. */
  morphSymbols(m: Morph): string[] {
    const [b, e] = this.register(m.slot, m.id);
    for (const c of m.form) this.alphabet.add(c);
    return [b, ...[...m.form], e];
  }

  // --- stem support classes: which placeholder roots the engine gives support to ---

  /** Which support a root needs: none, as a short stem (lost with an extension) or as a vowel-initial one (kept). */
  needsSupport(lexeme: Pick<Lexeme, 'short' | 'root'>): SupportNeed {
    const support = this.support;
    return support === undefined ? 'none' : support.applies_to.includes('vowel_initial') && SUPPORT_VOWEL.test(lexeme.root) ? 'vowel' : support.applies_to.includes('short') && lexeme.short ? 'short' : 'none';
  }

  /**
   * The flags of a root: an extended stem is never short (the engine's rule), so a short root has
   * two entries, with support and without extensions (@P.XS.no@), and without support and with
   * extensions (@P.XS.yes@); `Ext0` checks which. A vowel-initial root keeps its support with an
   * extension (uzokwenziwa), so it has one entry.
   */
  supportVariants(needs: SupportNeed): string[][] {
    return this.support === undefined
      ? [[]]
      : needs === 'short' && this.verbs.extensions.length > 0
        ? [
            ['@U.SUP.yes@', '@P.XS.no@'],
            ['@U.SUP.no@', '@P.XS.yes@'],
          ]
        : [[`@U.SUP.${needs === 'none' ? 'no' : 'yes'}@`]];
  }

  private placeholder(needs: boolean): Lexeme {
    const support = this.support;
    return {
      lemma: '',
      root: needs && !support!.applies_to.includes('short') ? 'a\u0000' : '\u0000',
      ownFinalVowel: null,
      short: needs && support!.applies_to.includes('short'),
      inLexicon: false,
      gloss: null,
    };
  }

  // --- prefixes: one entry per canonical cell (and support class) ---

  /**
   * Every prefix the engine builds, one per canonical cell and support class. A prefix is
   * written as a head (up to the object slot) continued by a table of tails (object, stem
   * support); heads with the same table share it.
   */
  prefixes(): { prefixLines: string[]; tailLines: string[]; suffixes: Suffix[]; flagValues: FlagValues } {
    const { generator, verbs } = this;
    const subjects: Array<string | undefined> = [undefined, ...generator.agreementIds];
    const objects: Array<string | undefined> = [undefined, ...(verbs.reflexive ? ['refl'] : []), ...generator.agreementIds];
    const suffixes: Suffix[] = [];
    const suffixIndex = new Map<string, number>();
    const flagValues: FlagValues = { T: new Set<string>(), S: new Set<string>(), O: new Set<string>(), H: new Set<string>(), VAR: new Set<string>() };
    const heads = new Map<string, Set<string>>();
    const seenCells = new Set<string>();
    for (const tenseId of generator.tenseIds) {
      const tense = generator.tense(tenseId)!;
      for (const polarity of ['positive', 'negative'] as const) {
        for (const variant of [undefined, ...Object.keys(tense.variants)]) {
          const formation = { ...tense[polarity], ...(variant ? (tense.variants[variant]?.[polarity] ?? {}) : {}) };
          for (const subject of subjects) {
            // A relative of object or place also with each noun class as its head and every object marker
            // (bye bankolera: head class 8, object 1sg). The analyzer's paradigm (enumerateCells) holds the head's
            // marker only and reads the others by analysing the verb after the head's word; here the object is a
            // tail after the head's prefix, and a head's tails are the table every other prefix shares, so the
            // transducer barely grows.
            const pairs: Array<[string | undefined, string | undefined]> = objects.map((o) => [o, undefined]);
            if (formationUsesHead(formation)) {
              for (const h of generator.agreementIds) {
                if (h !== subject && generator.row(h)?.class !== undefined) pairs.push(...objects.map((o): [string | undefined, string | undefined] => [o, h]));
              }
            }
            for (const [object, relHead] of pairs) {
              const raw: Cell = { word_class: 'verb', tense: tenseId, polarity, ...(variant ? { variant } : {}), ...(subject ? { subject } : {}), ...(object ? { object } : {}), ...(relHead ? { head: relHead } : {}) };
              const found = this.buildCell(raw, seenCells);
              if (!found) continue;
              const { cell, built } = found;
              const first = built[0]!;
              const sfxKey = JSON.stringify([first.fv, first.post]);
              let k = suffixIndex.get(sfxKey);
              if (k === undefined) {
                k = suffixes.length;
                suffixes.push({ fv: first.fv, post: first.post });
                suffixIndex.set(sfxKey, k);
              }
              const same = built.every((b) => JSON.stringify([b.aux, b.prefix]) === JSON.stringify([first.aux, first.prefix]));
              for (const b of same ? [first] : built) this.addPrefix(heads, flagValues, cell, b, k, same);
            }
          }
        }
      }
    }
    const prefixLines: string[] = [];
    const tailTables = new Map<string, string>();
    const tailLines: string[] = [];
    for (const [head, tails] of heads) {
      const key = [...tails].sort().join('\n');
      let name = tailTables.get(key);
      if (!name) {
        name = `Tail${tailTables.size}`;
        tailTables.set(key, name);
        tailLines.push('', `LEXICON ${name}`, ...[...tails].sort().map((t) => `${t} RootLex ;`));
      }
      prefixLines.push(`${head} ${name} ;`);
    }
    return { prefixLines, tailLines, suffixes, flagValues };
  }

  /** The canonical cell of `raw` and its prefix per support class; undefined when the engine does not have the cell or it was seen. */
  private buildCell(raw: Cell, seenCells: Set<string>): { cell: Cell; built: BuiltPrefix[] } | undefined {
    const { generator, bare } = this;
    const built: BuiltPrefix[] = [];
    try {
      const cell = generator.canonical(raw);
      const key = analysisOf('', cell);
      if (seenCells.has(key)) return undefined;
      seenCells.add(key);
      for (const needs of this.support ? [false, true] : [false]) {
        const lexeme = this.placeholder(needs);
        const words = bare.generateWith(lexeme, cell).words;
        const main = words[words.length - 1]!;
        const aux = generator
          .generateWith(lexeme, cell)
          .words.slice(0, -1)
          .map((w) => w.surface);
        const rootAt = main.morphs.findIndex((m) => m.slot === 'root');
        const after = main.morphs.slice(rootAt + 1);
        built.push({
          needs,
          aux,
          prefix: main.morphs.slice(0, rootAt),
          fv: after.find((m) => m.slot === 'fv'),
          post: after.find((m) => m.slot === 'post_final'),
          tense: main.tense!,
          polarity: main.polarity,
        });
      }
      return { cell, built };
    } catch {
      return undefined; // a cell the engine does not have
    }
  }

  /** Adds one built prefix: its head (flags up to the subject, morphs up to the object slot) and its tail. */
  private addPrefix(heads: Map<string, Set<string>>, flagValues: FlagValues, cell: Cell, b: BuiltPrefix, k: number, same: boolean): void {
    const { multichar, alphabet, markers } = this;
    const template: readonly string[] = this.verbs.template;
    const objectAt = template.includes('object') ? template.indexOf('object') : template.indexOf('root');
    this.tenses.add(b.tense);
    this.polarities.add(b.polarity);
    flagValues.T.add(cell.tense!);
    if (cell.subject) flagValues.S.add(cell.subject);
    if (cell.object) flagValues.O.add(cell.object);
    if (cell.head) flagValues.H.add(cell.head);
    if (cell.variant) flagValues.VAR.add(cell.variant);
    const headFlags = flags(
      `@P.T.${flagValue(cell.tense!)}@`,
      `@P.POL.${cell.polarity === 'negative' ? 'neg' : 'pos'}@`,
      cell.variant ? `@P.VAR.${flagValue(cell.variant)}@` : undefined,
      cell.subject ? `@P.S.${flagValue(cell.subject)}@` : undefined,
      cell.head ? `@P.H.${flagValue(cell.head)}@` : undefined,
    );
    const tailFlags = flags(cell.object ? `@P.O.${flagValue(cell.object)}@` : undefined, `@P.FV.${k}@`, same ? undefined : `@U.SUP.${b.needs ? 'yes' : 'no'}@`);
    const auxText = b.aux.length ? [...`${b.aux.join(' ')} `] : [];
    const split = b.prefix.findIndex((m) => template.indexOf(m.slot) >= objectAt);
    const headMorphs = split < 0 ? b.prefix : b.prefix.slice(0, split);
    const tailMorphs = split < 0 ? [] : b.prefix.slice(split);
    const head = [...auxText, tenseMarker(b.tense), polarityMarker(b.polarity), ...headMorphs.flatMap((m) => this.morphSymbols(m))];
    const tail = tailMorphs.flatMap((m) => this.morphSymbols(m));
    markers.add(tenseMarker(b.tense)).add(polarityMarker(b.polarity));
    for (const c of auxText) alphabet.add(c);
    [...headFlags, ...tailFlags].forEach((x) => multichar.add(x));
    const headEntry = flagged(headFlags, [], head.map(esc));
    let tails = heads.get(headEntry);
    if (!tails) heads.set(headEntry, (tails = new Set()));
    tails.add(flagged(tailFlags, [], tail.map(esc)));
  }

  // --- roots: the lexicon's verbs; lemmas the template cannot hold go to the exceptions ---

  /** The lexicon's verbs and the golden tests' verb lemmas (the root lexicon by default). */
  defaultLemmas(): string[] {
    const golden = goldenCases(this.cartridge.golden).filter((t) => t.cell.word_class === 'verb');
    const lexiconVerbs = this.cartridge.lexicon.filter((e) => e.word_class === 'verb').map((e) => e.lemma);
    return [...lexiconVerbs, ...golden.map((t) => t.lemma)];
  }

  /** Why the template lexicon cannot hold `lexeme` (a cartridge construct it does not model), or undefined when it can. */
  private outsideTemplate(lexeme: Lexeme): string | undefined {
    const verbs = this.verbs;
    const ownFvConditioned = verbs.extensions.some((e) => e.forms.some((f) => f.own_fv !== undefined));
    const lexicalKeys = verbs.extensions.flatMap((e) => Object.keys(e.lexical));
    const extensionForms = [...new Set(verbs.extensions.flatMap((e) => e.forms.map((f) => f.form)))].filter((f) => f !== '');
    /** Whether `text` is one or more extension forms in a row. */
    const extensionRun = (text: string): boolean => text !== '' && extensionForms.some((f) => text.startsWith(f) && (text === f || extensionRun(text.slice(f.length))));
    if (verbs.irregular.some((i) => i.lemma === lexeme.lemma)) return 'irregular forms (verbs.irregular)';
    // A lexical derivative is keyed by the stem it attaches to (+ the final vowel): the lemma, or
    // the root with extension forms; the check errs on the side of listing a lemma.
    if (lexicalKeys.some((k) => k === lexeme.lemma || (k.startsWith(lexeme.root) && k.endsWith(verbs.default_fv) && extensionRun(k.slice(lexeme.root.length, k.length - verbs.default_fv.length)))))
      return 'a lexical derivative of its extensions (extensions[].lexical)';
    if (lexeme.ownFinalVowel !== null && verbs.extensions.length > 0 && (ownFvConditioned || VOWEL.test([...lexeme.root].at(-1) ?? '')))
      return 'its own final vowel conditions its extensions (own_fv, or a vowel stem once extended)';
    return undefined;
  }

  /** The root lexicon's entries for `lemmas`; the lemmas it cannot hold, with why; the own final vowels met (`@P.OWN.i@`). */
  roots(lemmas: readonly string[]): { rootLines: string[]; exceptionLemmas: Array<{ lemma: string; reason: string }>; ownVowels: Map<string, number> } {
    const { generator, multichar, alphabet } = this;
    const rootLines: string[] = [];
    const exceptionLemmas: Array<{ lemma: string; reason: string }> = [];
    const ownVowels = new Map<string, number>();
    this.register('root');
    for (const lemma of lemmas) {
      const lexeme = generator.lexeme(lemma);
      if (lemma.includes(' ')) {
        exceptionLemmas.push({ lemma, reason: 'multi-word lemma' });
        continue;
      }
      if (lexeme.enclitic) {
        exceptionLemmas.push({ lemma, reason: `cited with the enclitic -${lexeme.enclitic}` });
        continue;
      }
      const outside = this.outsideTemplate(lexeme);
      if (outside) {
        exceptionLemmas.push({ lemma, reason: outside });
        continue;
      }
      for (const c of lexeme.root) alphabet.add(c);
      let own: string | undefined;
      if (lexeme.ownFinalVowel !== null) {
        if (!ownVowels.has(lexeme.ownFinalVowel)) ownVowels.set(lexeme.ownFinalVowel, ownVowels.size);
        own = `@P.OWN.${ownVowels.get(lexeme.ownFinalVowel)}@`;
        for (const c of lexeme.ownFinalVowel) alphabet.add(c);
      }
      const variants = this.supportVariants(this.needsSupport(lexeme)).map((v) => flags(...v, own));
      variants.flat().forEach((x) => multichar.add(x));
      const [upperFull, lowerFull] = alignRoot([...lemma], [...lexeme.root]);
      for (const f of variants) rootLines.push(`${flagged(f, upperFull, lowerFull)} Tags ;`);
    }
    return { rootLines, exceptionLemmas, ownVowels };
  }

  // --- the open root class: any root of the cartridge's letters ending in a consonant ---

  /** The open root class (+Guess, weighted `weight`), unless `roots` is `lexicon` or the lexicon's roots give no vowels or consonants. */
  guesser(roots: 'lexicon' | 'guesser' | 'both', weight: number): { guesser: boolean; guessLines: string[] } {
    const { cartridge, generator, verbs, multichar } = this;
    const rootLetters = new Set<string>();
    for (const e of cartridge.lexicon) if (e.word_class === 'verb') for (const c of generator.lexeme(e.lemma).root) rootLetters.add(c);
    const vowels = [...rootLetters].filter((c) => VOWEL.test(c)).sort();
    const consonants = [...rootLetters].filter((c) => !VOWEL.test(c) && /\p{L}|\p{M}/u.test(c)).sort();
    const guesser = roots !== 'lexicon' && consonants.length > 0 && vowels.length > 0;
    const guessLines: string[] = [];
    if (!guesser) return { guesser, guessLines };
    for (const c of rootLetters) this.alphabet.add(c);
    const fvUpper = verbs.citation === 'root' ? [] : [...verbs.default_fv];
    const prothetic = verbs.prothetic_vowel?.vowel;
    const state = (vi: boolean, hv: boolean, lc: boolean) => `Guess_${vi ? 'v' : 'c'}${hv ? 'h' : 'n'}${lc ? 'c' : 'v'}`;
    multichar.add('@P.G.yes@');
    guessLines.push(`LEXICON GuessRoot`);
    guessLines.push(`${flagged(['@P.G.yes@'], [], [esc(begin('root'))])} GuessStart "weight: ${weight}" ;`, '');
    guessLines.push('LEXICON GuessStart');
    for (const c of consonants) guessLines.push(`${lexcEscape(c)} ${state(false, false, true)} "weight: 1" ;`);
    for (const v of vowels) if (v !== prothetic) guessLines.push(`${lexcEscape(v)} ${state(true, true, false)} "weight: 1" ;`);
    guessLines.push('');
    for (const vi of [false, true]) {
      for (const hv of [false, true]) {
        for (const lc of [false, true]) {
          if (!hv && (vi || !lc)) continue; // unreachable states
          guessLines.push(`LEXICON ${state(vi, hv, lc)}`);
          for (const c of consonants) guessLines.push(`${lexcEscape(c)} ${state(vi, hv, true)} "weight: 1" ;`);
          for (const v of vowels) guessLines.push(`${lexcEscape(v)} ${state(vi, true, false)} "weight: 1" ;`);
          if (lc) {
            for (const sup of this.supportVariants(this.needsSupport({ short: !hv, root: vi ? 'a' : 'b' }))) {
              sup.forEach((x) => multichar.add(x));
              guessLines.push(`${flagged(sup, [...fvUpper.map(lexcEscape), '0'], [...fvUpper.map(() => '0'), esc(end('root'))])} Tags ;`);
            }
          }
          guessLines.push('');
        }
      }
    }
    return { guesser, guessLines };
  }

  // --- exceptions: the engine's forms of the lemmas the template lexicon cannot hold ---

  /**
   * The engine's forms of `exceptionLemmas`, one entry each. Each tag of an exception's analysis
   * is one symbol, as in the template paths: a tag string declared whole would be read as one
   * symbol (longest match) and hide the template's tags from generation.
   */
  exceptions(exceptionLemmas: ReadonlyArray<{ lemma: string; reason: string }>): { exceptions: GrammarExport['exceptions']; lines: string[]; tags: Set<string> } {
    const exceptions: GrammarExport['exceptions'] = [];
    const lines: string[] = [];
    const tags = new Set<string>();
    if (exceptionLemmas.length === 0) return { exceptions, lines, tags };
    const table = exportVerbLexc(this.cartridge, this.generator, { lemmas: exceptionLemmas.map((e) => e.lemma) })!;
    for (const e of exceptionLemmas) {
      const forms = table.forms.filter((f) => f.analysis.startsWith(`${e.lemma}+V+`));
      exceptions.push({ ...e, forms: forms.length });
      for (const form of forms) {
        for (const c of form.surface) this.alphabet.add(c);
        const entry = exceptionEntry(form);
        entry.tags.forEach((t) => tags.add(t));
        lines.push(`${entry.text} # ;`);
      }
    }
    return { exceptions, lines, tags };
  }

  // --- tags, extensions, final vowel, post-final ---

  /** `Tags`, `TagT`, `TagS`, `TagO`, `TagH`: +V, then the tense, subject, object and relative-head tags the prefix's flags require. */
  tags(flagValues: FlagValues): string[] {
    const tagLines: string[] = ['LEXICON Tags', `${pairEntry(['%+V'], ['0'])} TagT ;`, '', 'LEXICON TagT'];
    for (const t of flagValues.T) tagLines.push(`${flagged([`@R.T.${flagValue(t)}@`], [lexcEscape(`+T/${t}`)], ['0'])} TagS ;`);
    tagLines.push('', 'LEXICON TagS', '@D.S@ TagO ;');
    for (const s of flagValues.S) tagLines.push(`${flagged([`@R.S.${flagValue(s)}@`], [lexcEscape(`+S/${s}`)], ['0'])} TagO ;`);
    tagLines.push('', 'LEXICON TagO', '@D.O@ TagH ;');
    for (const o of flagValues.O) tagLines.push(`${flagged([`@R.O.${flagValue(o)}@`], [lexcEscape(`+O/${o}`)], ['0'])} TagH ;`);
    tagLines.push('', 'LEXICON TagH', '@D.H@ Ext0 ;');
    for (const h of flagValues.H) tagLines.push(`${flagged([`@R.H.${flagValue(h)}@`], [lexcEscape(`+H/${h}`)], ['0'])} Ext0 ;`);
    return tagLines;
  }

  /** `Ext0`, `ExtSeq`, `ExtEnd`: every sequence of extensions the engine allows (no extension twice, none after one it may not follow), as archiphonemes. */
  extensions(): string[] {
    const { verbs, support, multichar } = this;
    const extensionLines: string[] = ['', 'LEXICON Ext0', `${flagged(support && verbs.extensions.length > 0 ? ['@D.XS.yes@'] : [], [], [])} FV ;`];
    if (verbs.extensions.length === 0) return extensionLines;
    this.register('extensions');
    extensionLines.push(`${flagged(support ? ['@D.XS.no@'] : [], ['0'], [esc(begin('extensions'))])} ExtSeq ;`);
    if (support) ['@P.XS.yes@', '@P.XS.no@', '@D.XS.yes@', '@D.XS.no@'].forEach((x) => multichar.add(x));
    extensionLines.push('', 'LEXICON ExtSeq');
    const sequences = (done: VerbExtension[]): VerbExtension[][] =>
      done.length === MAX_EXTENSIONS ? [] : verbs.extensions.filter((e) => !done.some((d) => d.id === e.id || e.not_after.includes(d.id))).flatMap((e) => [[...done, e], ...sequences([...done, e])]);
    for (const sequence of sequences([])) {
      extensionLines.push(
        `${flagged(
          [`@C.OWN@`],
          sequence.map((e) => lexcEscape(`+Ext/${e.id}`)),
          sequence.map((e) => esc(extensionSymbol(e.id))),
        )} ExtEnd ;`,
      );
    }
    for (const ext of verbs.extensions) {
      multichar.add(extensionSymbol(ext.id));
      for (const f of ext.forms) for (const c of f.form) this.alphabet.add(c);
    }
    extensionLines.push('', 'LEXICON ExtEnd', `${pairEntry(['0'], [esc(end('extensions'))])} FV ;`);
    return extensionLines;
  }

  /** `FV`: each cell's final vowel and post-final (`@R.FV.k@`), and a root's own final vowel in its place (`@R.OWN.i@`). */
  finalVowels(suffixes: readonly Suffix[], ownVowels: ReadonlyMap<string, number>): string[] {
    const fvLines: string[] = ['', 'LEXICON FV'];
    const suffixSymbols = (fv: Morph | undefined, post: Morph | undefined) => [...(fv ? this.morphSymbols(fv) : []), ...(post ? this.morphSymbols(post) : [])].map(esc);
    suffixes.forEach((s, k) => {
      fvLines.push(`${flagged(['@D.OWN@', `@R.FV.${k}@`], [], suffixSymbols(s.fv, s.post))} End ;`);
      for (const [vowel, index] of ownVowels) {
        fvLines.push(`${flagged([`@R.OWN.${index}@`, `@R.FV.${k}@`], [], suffixSymbols({ slot: 'fv', form: vowel }, s.post))} End ;`);
      }
    });
    return fvLines;
  }

  /** `End`, `Neg`, `Guess`: the variant, negation and +Guess tags. */
  ends(flagValues: FlagValues, guesser: boolean): string[] {
    const endLines: string[] = ['', 'LEXICON End', '@D.VAR@ Neg ;'];
    for (const v of flagValues.VAR) endLines.push(`${flagged([`@R.VAR.${flagValue(v)}@`], [lexcEscape(`+Var/${v}`)], ['0'])} Neg ;`);
    endLines.push('', 'LEXICON Neg', '@R.POL.pos@ Guess ;', `${flagged([`@R.POL.neg@`], ['%+Neg'], ['0'])} Guess ;`);
    endLines.push('', 'LEXICON Guess', '@D.G@ # ;');
    if (guesser) endLines.push(`${flagged([`@R.G.yes@`], ['%+Guess'], ['0'])} # ;`);
    return endLines;
  }

  // --- the whole lexc ---

  /** The lexc file: header, multichar symbols, then the lexicons of every section. */
  lexc(parts: {
    roots: 'lexicon' | 'guesser' | 'both';
    prefixes: { prefixLines: string[]; tailLines: string[]; suffixes: Suffix[]; flagValues: FlagValues };
    rootLex: { rootLines: string[]; ownVowels: Map<string, number> };
    guess: { guesser: boolean; guessLines: string[] };
    exceptions: { lines: string[]; tags: Set<string> };
    /** Tags, extensions, final vowels and ends, in order. */
    lines: string[];
  }): string {
    const { multichar, verbs } = this;
    const { roots, prefixes, rootLex, guess, exceptions } = parts;
    const { flagValues, suffixes } = prefixes;
    const tagSymbols = [
      '+V',
      '+Neg',
      '+Guess',
      ...[...flagValues.T].map((t) => `+T/${t}`),
      ...[...flagValues.S].map((s) => `+S/${s}`),
      ...[...flagValues.O].map((o) => `+O/${o}`),
      ...[...flagValues.H].map((h) => `+H/${h}`),
      ...[...flagValues.VAR].map((v) => `+Var/${v}`),
      ...verbs.extensions.map((e) => `+Ext/${e.id}`),
    ];
    for (const t of [...flagValues.T]) multichar.add(`@R.T.${flagValue(t)}@`);
    for (const s of [...flagValues.S]) multichar.add(`@R.S.${flagValue(s)}@`);
    for (const o of [...flagValues.O]) multichar.add(`@R.O.${flagValue(o)}@`);
    for (const h of [...flagValues.H]) multichar.add(`@R.H.${flagValue(h)}@`);
    for (const v of [...flagValues.VAR]) multichar.add(`@R.VAR.${flagValue(v)}@`);
    suffixes.forEach((_, k) => multichar.add(`@R.FV.${k}@`));
    for (const [, index] of rootLex.ownVowels) multichar.add(`@R.OWN.${index}@`);
    ['@D.S@', '@D.O@', '@D.H@', '@D.VAR@', '@D.OWN@', '@C.OWN@', '@R.POL.pos@', '@R.POL.neg@', '@D.G@', '@R.G.yes@'].forEach((x) => multichar.add(x));
    const m = this.cartridge.metadata;
    return [
      `! ${m.name} (${m.iso639_3}) verb grammar, exported by Lugha from its cartridge (languages/${m.iso639_3}/): the verb template`,
      `! as continuation lexicons, ${roots === 'lexicon' ? "the lexicon's roots" : roots === 'guesser' ? 'an open root class (+Guess) only: a guesser' : "the lexicon's roots and an open root class (+Guess)"}; compose with the rules file.`,
      '! Tags: lemma+V+T/<tense>[+S/<subject>][+O/<object>][+H/<head>][+Ext/<extension>…][+Var/<variant>][+Neg][+Guess] (docs/hfst.md).',
      '',
      'Multichar_Symbols',
      ...[...new Set([...tagSymbols, ...exceptions.tags])].map(lexcEscape),
      ...[...this.markers].map(lexcEscape),
      ...[...multichar].filter((x) => !x.startsWith('@')).map(lexcEscape),
      ...[...multichar].filter((x) => x.startsWith('@')),
      '',
      'LEXICON Root',
      'Prefixes ;',
      ...(exceptions.lines.length ? ['Exceptions ;'] : []),
      '',
      'LEXICON Prefixes',
      ...prefixes.prefixLines,
      ...prefixes.tailLines,
      '',
      'LEXICON RootLex',
      ...(roots === 'guesser' ? [] : rootLex.rootLines),
      ...(guess.guesser ? ['GuessRoot ;'] : []),
      '',
      ...guess.guessLines,
      ...parts.lines,
      '',
      ...(exceptions.lines.length ? ['LEXICON Exceptions', ...exceptions.lines, ''] : []),
    ].join('\n');
  }

  /** What the rule cascade needs to know of the lexc: its alphabet, markers, tenses and polarities. */
  cascadeInput(): CascadeInput {
    return {
      alphabet: [...this.alphabet].sort(),
      markers: [...this.markers],
      beginMarkers: this.beginMarkers,
      endMarkers: this.endMarkers,
      tenses: [...this.tenses],
      polarities: [...this.polarities],
      extensionSymbols: this.verbs.extensions.map((e) => extensionSymbol(e.id)),
    };
  }
}

/**
 * A root entry's two sides: the lemma (upper) aligned with the root (lower) on their longest
 * shared run, what precedes it paired with epsilon on the other side, between the root markers.
 */
function alignRoot(upper: readonly string[], root: readonly string[]): [string[], string[]] {
  const run = longestCommonRun(upper, root);
  const u: string[] = [];
  const l: string[] = [];
  for (let i = 0; i < run.lemmaStart; i++) {
    u.push(lexcEscape(upper[i]!));
    l.push('0');
  }
  for (let i = 0; i < run.surfaceStart; i++) {
    u.push('0');
    l.push(lexcEscape(root[i]!));
  }
  for (let i = 0; i < run.length; i++) {
    u.push(lexcEscape(upper[run.lemmaStart + i]!));
    l.push(lexcEscape(root[run.surfaceStart + i]!));
  }
  const uTail = upper.slice(run.lemmaStart + run.length).map(lexcEscape);
  const lTail = root.slice(run.surfaceStart + run.length).map(lexcEscape);
  const lowerFull = [esc(begin('root')), ...l, ...lTail];
  const upperFull = ['0', ...u, ...uTail];
  while (upperFull.length < lowerFull.length) upperFull.push('0');
  while (lowerFull.length < upperFull.length) lowerFull.push('0');
  upperFull.push('0');
  lowerFull.push(esc(end('root')));
  return [upperFull, lowerFull];
}

/** An exception entry: the analysis and the surface form, the lemma aligned with its stretch of the form. */
function exceptionEntry(form: ExportedForm): { text: string; tags: string[] } {
  const at = form.analysis.indexOf('+V+');
  const lemma = [...form.analysis.slice(0, at)];
  const tagList = form.analysis
    .slice(at + 1)
    .split('+')
    .map((t) => `+${t}`);
  const tags = tagList.map(lexcEscape);
  const surface = [...form.surface];
  const run = longestCommonRun(lemma, surface);
  const u: string[] = [];
  const l: string[] = [];
  for (let i = 0; i < run.surfaceStart; i++) {
    u.push('0');
    l.push(lexcEscape(surface[i]!));
  }
  for (let i = 0; i < run.lemmaStart; i++) {
    u.push(lexcEscape(lemma[i]!));
    l.push('0');
  }
  for (let i = 0; i < run.length; i++) {
    u.push(lexcEscape(lemma[run.lemmaStart + i]!));
    l.push(lexcEscape(surface[run.surfaceStart + i]!));
  }
  const uTail = lemma.slice(run.lemmaStart + run.length).map(lexcEscape);
  const lTail = surface.slice(run.surfaceStart + run.length).map(lexcEscape);
  while (uTail.length < lTail.length) uTail.push('0');
  while (lTail.length < uTail.length) lTail.push('0');
  for (const t of tags) {
    uTail.push(t);
    lTail.push('0');
  }
  return { text: flagged([`@D.G@`], [...u, ...uTail], [...l, ...lTail]), tags: tagList };
}

interface CascadeInput {
  alphabet: string[];
  markers: string[];
  beginMarkers: Map<string, { slot: string; id?: string }>;
  endMarkers: Map<string, { slot: string; id?: string }>;
  tenses: string[];
  polarities: string[];
  extensionSymbols: string[];
}

const asList = (v: string | string[] | undefined) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]);

/** The extension allomorphy, the cartridge's boundary rules and the marker clean-up as one xfst cascade. */
function ruleCascade(cartridge: Cartridge, input: CascadeInput): { regex: string; translated: string[]; unsupported: Array<{ id: string; reason: string }> } {
  // The letters the rules write count as letters too: a letter only a rule writes (a doubled nasal, the
  // space that splits off a word) must still be a letter to the rules after it, as it is to the engine's.
  const letters = new Set(input.alphabet);
  for (const rule of cartridge.rules) {
    for (const to of [rule.left_to, rule.right_to]) for (const c of (to ?? '').replace(/\$\d/gu, '')) letters.add(c);
  }
  const alphabet: Alphabet = { letters: [...letters].sort() };
  const letter = xfstUnion(alphabet.letters);
  const anyBegin = xfstUnion([...input.beginMarkers.keys()]);
  const anyEnd = xfstUnion([...input.endMarkers.keys()]);
  const skip = `[${anyBegin} ${anyEnd}]*`;
  const steps: string[] = [];
  const translated: string[] = [];
  const unsupported: Array<{ id: string; reason: string }> = [];
  const verbs = cartridge.verbs!;

  // Extension allomorphs: the first form whose `after` matches the stem so far (root + earlier extensions).
  const stemSymbol = xfstUnion([...alphabet.letters, end('root'), begin('extensions')]);
  const stemMarkers = xfstUnion([end('root'), begin('extensions')]);
  const extensionRules: string[] = [];
  for (const ext of verbs.extensions) {
    const earlier: string[] = [];
    for (const form of ext.forms) {
      // Only after a root keeping its own final vowel: such lemmas are in the exceptions (outsideTemplate).
      if (form.own_fv === true) continue;
      let matches = `[${stemSymbol}]*`;
      if (form.after !== undefined) {
        let pattern;
        try {
          pattern = parsePattern(form.after);
        } catch (error) {
          unsupported.push({ id: `extension ${ext.id}`, reason: (error as Error).message });
          continue;
        }
        const anchored = pattern.length === 1 && pattern[0]![0]?.kind === 'start';
        if (anchored) pattern = [pattern[0]!.slice(1)];
        matches = `[${anchored ? '' : `[${stemSymbol}]*`} [${patternToXfst(pattern, alphabet)} / ${stemMarkers}]]`;
      }
      // A root-only form excludes the later forms only right after the root (the engine skips it elsewhere).
      const condition = form.root_only ? `[${matches} & [${letter}* ${xfstSymbol(end('root'))} ${xfstSymbol(begin('extensions'))}]]` : matches;
      const context = `[[${stemSymbol}]* & ${condition}${earlier.map((e) => ` & ~${e}`).join('')}]`;
      extensionRules.push(`[${xfstSymbol(extensionSymbol(ext.id))} -> ${xfstString(form.form)} || ${xfstSymbol(begin('root'))} ${context} _ ]`);
      if (form.after !== undefined || form.root_only) earlier.push(condition);
    }
  }
  for (let pass = 0; pass < MAX_EXTENSIONS; pass++) steps.push(...extensionRules);
  // An extension none of whose forms fits the stem is left unrewritten: the engine refuses that cell, so no path may keep it.
  if (input.extensionSymbols.length > 0) steps.push(`~$[${xfstUnion(input.extensionSymbols)}]`);

  // Boundary rules.
  cartridge.rules.forEach((rule, index) => {
    const when = rule.when;
    if (when?.word_class && !when.word_class.includes('verb')) return;
    const slotOk = (marker: { slot: string; id?: string }, slots: string[] | undefined, ids: string[] | undefined) =>
      (!slots || slots.includes(marker.slot)) && (!ids || (marker.id !== undefined && ids.includes(marker.id)));
    const endL = [...input.endMarkers].filter(([, m]) => slotOk(m, asList(rule.left_slot), when?.left_id)).map(([s]) => s);
    const beginR = [...input.beginMarkers].filter(([, m]) => slotOk(m, asList(rule.right_slot), when?.right_id)).map(([s]) => s);
    if (endL.length === 0 || beginR.length === 0) return; // never met in a verb
    let tenses = input.tenses;
    if (when?.tense) tenses = tenses.filter((t) => when.tense!.includes(t));
    if (when?.not_tense) tenses = tenses.filter((t) => !when.not_tense!.includes(t));
    if (tenses.length === 0) return;
    const polarities = when?.polarity ? input.polarities.filter((p) => p === when.polarity) : input.polarities;
    if (polarities.length === 0) return;
    let lefts;
    let rights;
    try {
      lefts = ruleSides(rule.left, rule.left_to, alphabet);
      rights = ruleSides(rule.right, rule.right_to, alphabet);
    } catch (error) {
      if (error instanceof UnsupportedPattern) {
        unsupported.push({ id: rule.id, reason: error.message });
        return;
      }
      throw error;
    }
    if (lefts.every((l) => l.to === undefined) && rights.every((r) => r.to === undefined)) return;
    let variant = 0;
    for (const left of lefts) {
      for (const right of rights) {
        const q = xfstSymbol(`⟨Q${index}.${variant}⟩`);
        const conditioned = tenses.length !== input.tenses.length || polarities.length !== input.polarities.length;
        const markerCondition = `${xfstUnion(tenses.map(tenseMarker))} ${xfstUnion(polarities.map(polarityMarker))}`;
        // A negative lookbehind of the left pattern: the text before it must not end in X (a
        // lookbehind at the start of the right morph, or a lookahead at the end of the left
        // one, sees only the empty string in the engine and is vacuous).
        const notBefore = left.notBefore ? `.#. [~[?* ${left.notBefore}]${conditioned ? ` & [?* ${markerCondition} ?*]` : ''}]` : '';
        const condition = notBefore || (conditioned ? `${markerCondition} ?*` : '');
        const notAfter = right.notAfter ? `[~[${right.notAfter} ?*]] .#.` : '';
        const leftWhole = left.whole === '[0]' ? letter : left.whole;
        const rightWhole = right.whole === '[0]' ? letter : right.whole;
        const leftStart = left.atStart ? anyBegin : '';
        const rightEnd = right.atEnd ? anyEnd : '';
        const endLeft = xfstUnion(endL);
        const beginRight = xfstUnion(beginR);
        steps.push(`[ [..] -> ${q} || ${condition} ${leftStart} ${leftWhole} ${endLeft} ${skip} _ ${beginRight} ${rightWhole} ${rightEnd} ${notAfter} ]`);
        // A core that can match more or less text (x*, x+, an optional (x)) is replaced leftmost-longest, as
        // the engine's regular expression matches: with a plain -> an optional (i) w would also match the w
        // of iw alone and write i + iw (enz-iw-ile > enziiwe beside enziwe).
        const arrow = (core: string) => (core === '[0]' ? '[..] ->' : /[*+(]/u.test(core) ? `${core} @->` : `${core} ->`);
        const leftBefore = left.notBefore ? `.#. [~[?* ${left.notBefore}]]` : '';
        if (left.to !== undefined) steps.push(`[ ${arrow(left.core)} ${xfstString(left.to)} || ${leftBefore} ${leftStart} ${left.before} _ ${left.after} ${endLeft} ${skip} ${q} ]`);
        if (right.to !== undefined) steps.push(`[ ${arrow(right.core)} ${xfstString(right.to)} || ${q} ${beginRight} ${right.before} _ ${right.after} ${rightEnd} ${notAfter} ]`);
        steps.push(`[ ${q} -> 0 ]`);
        variant++;
      }
    }
    translated.push(rule.id);
  });

  // Markers out.
  steps.push(`[ ${xfstUnion([...input.markers, ...input.extensionSymbols])} -> 0 ]`);
  // The standard spelling: without the optional marks where the cartridge's orthography leaves them out.
  const spelling = writtenSpellingRule(cartridge);
  if (spelling) steps.push(spelling);
  return { regex: steps.map((step) => `${step} ;\n`).join(''), translated, unsupported };
}

/**
 * An xfst rule that writes a form as the cartridge's standard orthography does: the optional marks
 * (metadata.orthography.optional_marks) rewritten to their plain letters when the spelling leaves
 * them out (`written: false`); undefined when forms are written as the cartridge notes them.
 */
export function writtenSpellingRule(cartridge: Cartridge): string | undefined {
  const orthography = cartridge.metadata.orthography;
  const marks = Object.entries(orthography.optional_marks);
  if (orthography.written !== false || marks.length === 0) return undefined;
  return `[ ${marks.map(([marked, plain]) => `${xfstString(marked)} -> ${xfstString(plain)}`).join(' , ')} ]`;
}
