/**
 * Learns a language's text model from SADII-annotated text (Gaustad & Puttkammer 2022) and writes
 * it as data files under languages/<iso>/text/ (or --out): word forms and their readings, word
 * templates for unseen words, a stem lexicon, and the ranker's weights (an averaged perceptron
 * trained with each token read as if left out of the counts, so it also learns to rank guesses).
 * Deterministic: the same files give the same bytes.
 *
 *   npx tsx scripts/learn-text-model.ts --language zul [--holdout dev] [--out DIR] [--epochs 6] [--lemma-extra 20]
 *     [--related FILE --related-language ISO] [--seed 1] [--tagger] [--alternations] [--seen-context pos|all] [--scale S] FILE...
 *
 * `--seen-context`: `pos` (the default since 2026-11-28) gives a form the training text has only the context
 * features of POS and agreement (the neighbours' POS, the last noun's class), none that name a word (its own with a
 * neighbour's POS, the previous or next word, their letters); `all` gives it every context feature, as before.
 * An unseen form always has them all. On the zul dev split `pos` raised POS (docs/text-analysis.md).
 *
 * When the language has a cartridge, its engine reads the text's verbs and relatives, and the pairing of its
 * readings with the annotations gives the table of the text's tags for the engine's (meta.yaml `engine_tags`,
 * src/text/engine-tags.ts), which the analyser applies to the engine readings it is offered.
 *
 * `--scale`: the softmax scale of the probabilities, instead of the one that best fits the training examples
 * (the grid below); a larger scale returns fewer analyses a token under the default cut.
 *
 * `--seed`: the seed of the training orders' shuffles (the ranker's and the tagger's).
 * `--tagger`: also learn a POS tagger over word forms (src/text/pos-tagger.ts, tagger.tsv) and give the ranker its
 * cross-fold tags as features. `--alternations`: readings a seen form's annotations lack, by concords written
 * alike in several classes and infinitives read as verb or noun (meta.yaml `alternations`). Both are off by
 * default: neither raised POS on the zul dev split (docs/text-analysis.md, "Stacked tagger and alternations").
 *
 * `--sequence-beam N` (N > 1): after the per-token epochs, `--sequence-epochs` (3) structured-perceptron epochs over
 * whole sentences decoded by a beam of N, and meta.yaml `decode` makes the analyser decode sentences the same way.
 * Off by default: it lowered POS on the zul dev split (docs/text-analysis.md, "Sentence decoding").
 *
 * `--related`: a related language's SADII file (all of it), whose stems become the model's fallback
 * lexicon (related-lexicon.tsv, meta.yaml `related_lexicon`): proposed only for a stem the model's own
 * lexicon lacks with its tag, the readings marked as such (features of their own, a lower prior).
 *
 * `--cartridge-lexicon`: the cartridge's word list (languages/<iso>/lexicon.tsv: lemma, word_class, noun_class,
 * source), whose stems become a second fallback lexicon (cartridge-lexicon.tsv, meta.yaml `cartridge_lexicon`),
 * consulted like the related one. How a row's lemma gives a stem is read off the training text, not written here:
 * for each word class, the rows whose lemma the text has as a lemma (a verb) or as a word form (a noun's citation
 * form) give the stem tag; a lemma loses the commonest lemma ending of that tag's suffix templates, a citation form
 * the longest prefix of the text's noun readings of its class.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { readLexicon } from '../src/cartridge/lexicon.js';
import { alignSurfaces } from '../src/text/align.js';
import { isDevParagraph } from '../src/text/dev-split.js';
import { after, isNounPos, softmax, START, type DecodeState } from '../src/text/learned-analyzer.js';
import { learnEngineTags } from '../src/text/engine-tags.js';
import { loadConfig } from '../src/config.js';
import { openLanguageCodes, openMorphology } from '../src/services.js';
import {
  addLexicon,
  candidatesOf,
  concordKey,
  contextFeatures,
  tagSequence,
  headClassAfter,
  indexModel,
  innerClassOf,
  priorPos,
  nounClassOf,
  readingKey,
  serializeModel,
  stemRewrite,
  type Candidate,
  type LeaveOut,
  type PrefixTemplate,
  type SuffixTemplate,
  type StoredReading,
} from '../src/text/learned-model.js';
import { crossFoldTags, taggerFeatures, trainTagger, type TaggedSentence } from '../src/text/pos-tagger.js';
import { parseSadii, type SadiiParagraph } from '../src/text/sadii.js';
import type { Morpheme } from '../src/text/types.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    language: { type: 'string' },
    holdout: { type: 'string' },
    out: { type: 'string' },
    epochs: { type: 'string', default: '6' },
    'lemma-extra': { type: 'string', default: '20' },
    related: { type: 'string' },
    'cartridge-lexicon': { type: 'string' },
    'related-language': { type: 'string' },
    seed: { type: 'string', default: '1' },
    tagger: { type: 'boolean', default: false },
    alternations: { type: 'boolean', default: false },
    'seen-context': { type: 'string', default: 'pos' },
    scale: { type: 'string' },
    'sequence-beam': { type: 'string' },
    'sequence-epochs': { type: 'string', default: '3' },
  },
});
if (!values.language || positionals.length === 0) {
  process.stderr.write('usage: learn-text-model --language <iso> [--holdout dev] [--out DIR] [--epochs 6] [--lemma-extra 20] FILE...\n');
  process.exit(2);
}
const language = values.language;
const outDir = values.out ?? path.join('languages', language, 'text');
const epochs = Number(values.epochs);
/** The seed of the shuffles (the ranker's and the tagger's training orders). */
const shuffleSeed = Number(values.seed);
/** `pos`: a seen form's context features are only those of POS and agreement (meta.yaml `seen_context: pos`); `all`: also those naming words. */
const seenContext = values['seen-context'];
/** `--sequence-beam N` (N > 1): train the ranker as a structured perceptron over each sentence's readings, decoded by a beam of N (meta.yaml `decode`). */
const sequenceBeam = values['sequence-beam'] === undefined ? 1 : Number(values['sequence-beam']);
const sequenceEpochs = Number(values['sequence-epochs']);
if (!(Number.isInteger(sequenceBeam) && sequenceBeam >= 1) || !(Number.isInteger(sequenceEpochs) && sequenceEpochs >= 0)) {
  process.stderr.write('--sequence-beam is a whole number, at least 1; --sequence-epochs one, at least 0\n');
  process.exit(2);
}
if (values.scale !== undefined && !(Number(values.scale) > 0)) {
  process.stderr.write('--scale is a positive number\n');
  process.exit(2);
}
if (seenContext !== 'pos' && seenContext !== 'all') {
  process.stderr.write('--seen-context is pos or all\n');
  process.exit(2);
}
if (values.related && !values['related-language']) {
  process.stderr.write('--related needs --related-language <iso>\n');
  process.exit(2);
}

const paragraphs: SadiiParagraph[] = [];
for (const file of positionals) {
  for (const p of parseSadii(readFileSync(file, 'utf8'))) if (values.holdout !== 'dev' || !isDevParagraph(p.id)) paragraphs.push(p);
}

// 1. Readings, forms, templates and the stem lexicon, with what each token contributed (for leave-one-out).
const readings: StoredReading[] = [];
const readingIds = new Map<string, number>();
const formCounts = new Map<string, Map<number, number>>();
const prefixTemplates: PrefixTemplate[] = [];
const suffixTemplates: SuffixTemplate[] = [];
const templateIds = new Map<string, number>();
const pairs = new Map<string, number>();
/** The index of a template (counted once more). */
function templateId<T extends { count: number }>(list: T[], template: T, kind: string): number {
  const signature = kind + JSON.stringify({ ...template, count: 0 });
  let id = templateIds.get(signature);
  if (id === undefined) {
    id = list.length;
    list.push({ ...template, count: 0 });
    templateIds.set(signature, id);
  }
  list[id]!.count++;
  return id;
}
const lexicon = new Map<string, number>();
interface TokenFacts {
  token: string;
  pos: string;
  morphemes: Morpheme[];
  key: string;
  leaveOut: LeaveOut;
}
const sentences: TokenFacts[][] = [];
let tokens = 0;

for (const paragraph of paragraphs) {
  const sentence: TokenFacts[] = [];
  for (const t of paragraph.tokens) {
    tokens++;
    const surfaces = alignSurfaces(
      t.token,
      t.morphemes.map((m) => m.canonical),
    );
    const morphemes: Morpheme[] = t.morphemes.map((m, i) => ({ surface: surfaces[i] ?? '', canonical: m.canonical, tag: m.tag }));
    const key = readingKey(t.lemma, t.pos, morphemes);
    let reading = readingIds.get(key);
    if (reading === undefined) {
      reading = readings.length;
      readings.push({ lemma: t.lemma, pos: t.pos, morphemes });
      readingIds.set(key, reading);
    }
    const form = t.token.toLowerCase();
    let counts = formCounts.get(form);
    if (!counts) formCounts.set(form, (counts = new Map()));
    counts.set(reading, (counts.get(reading) ?? 0) + 1);

    const leaveOut: LeaveOut = { reading, prefixTemplate: -1, suffixTemplate: -1, lexStem: '', lexTag: '', lexClass: '' };
    const template = templateOf(morphemes, t.lemma, t.pos);
    if (template) {
      const pid = templateId(prefixTemplates, template.prefix, 'p');
      const sid = templateId(suffixTemplates, template.suffix, 's');
      pairs.set(`${pid} ${sid}`, (pairs.get(`${pid} ${sid}`) ?? 0) + 1);
      addLexicon(lexicon, template.stem, template.prefix.stemTag, template.prefix.nounClass, 1);
      Object.assign(leaveOut, { prefixTemplate: pid, suffixTemplate: sid, lexStem: template.stem, lexTag: template.prefix.stemTag, lexClass: template.prefix.nounClass });
    }
    sentence.push({ token: t.token, pos: t.pos, morphemes, key, leaveOut });
  }
  sentences.push(sentence);
}

/** The template of an annotated word, split at its stem (the morpheme that carries the lemma). */
function templateOf(morphemes: Morpheme[], lemma: string, pos: string): { prefix: PrefixTemplate; suffix: SuffixTemplate; stem: string } | null {
  const lowerLemma = lemma.toLowerCase();
  let stemIndex = -1;
  for (let i = 0; i < morphemes.length; i++) {
    const c = morphemes[i]!.canonical.toLowerCase();
    if (c !== '' && lowerLemma.startsWith(c) && (stemIndex < 0 || c.length >= morphemes[stemIndex]!.canonical.length)) stemIndex = i;
  }
  if (stemIndex < 0) return null;
  const stem = morphemes[stemIndex]!;
  if (stem.surface === '') return null;
  const before = morphemes.slice(0, stemIndex);
  const after = morphemes.slice(stemIndex + 1);
  const keepCase = lemma !== lemma.toLowerCase();
  const canonical = keepCase ? stem.canonical : stem.canonical.toLowerCase();
  const rewrite = stemRewrite(stem.surface, canonical);
  const written = keepCase ? stem.surface : stem.surface.toLowerCase();
  if (rewrite !== '' && !rewrite.startsWith('^') && written.lastIndexOf(rewrite.slice(0, rewrite.indexOf('>'))) < 0) return null;
  if (!lemma.startsWith(keepCase ? stem.canonical : lemma.slice(0, stem.canonical.length))) return null;
  const anchored = rewrite.startsWith('^');
  return {
    stem: canonical,
    prefix: {
      count: 0,
      prefix: before
        .map((m) => m.surface)
        .join('')
        .toLowerCase(),
      pos,
      before,
      stemTag: stem.tag,
      rewrite: anchored ? rewrite : '',
      keepCase,
      nounClass: nounClassOf(before),
    },
    suffix: {
      count: 0,
      suffix: after
        .map((m) => m.surface)
        .join('')
        .toLowerCase(),
      after,
      stemTag: stem.tag,
      lemmaAdd: lemma.slice(stem.canonical.length),
      rewrite: anchored ? '' : rewrite,
    },
  };
}

// The related language's stems (its whole file: none of its paragraphs is this language's dev text).
const related = values.related ? new Map<string, number>() : undefined;
if (related) {
  for (const p of parseSadii(readFileSync(values.related!, 'utf8'))) {
    for (const t of p.tokens) {
      const surfaces = alignSurfaces(
        t.token,
        t.morphemes.map((m) => m.canonical),
      );
      const template = templateOf(
        t.morphemes.map((m, i) => ({ surface: surfaces[i] ?? '', canonical: m.canonical, tag: m.tag })),
        t.lemma,
        t.pos,
      );
      if (template) addLexicon(related, template.stem, template.prefix.stemTag, template.prefix.nounClass, 1);
    }
  }
}
// The cartridge's stems (its lexicon.tsv), turned into stems the way the training text writes them.
const cartridgeStems = values['cartridge-lexicon'] ? new Map<string, number>() : undefined;
let cartridgeRows = 0;
if (cartridgeStems) {
  // The cartridge's own reader (columns, validation), as the analyser reads the same file.
  const entries = readLexicon(values['cartridge-lexicon']!, undefined).map((e) => ({
    lemma: e.lemma.toLowerCase(),
    wordClass: e.word_class,
    nounClass: e.noun_class ?? '',
    plural: e.plural === undefined || e.plural === '-' ? '' : e.plural.toLowerCase(),
  }));
  const byLemma = new Map<string, string>();
  const byForm = new Map<string, string>();
  for (const e of entries) {
    if (e.nounClass === '') byLemma.set(e.lemma, e.wordClass);
    else byForm.set(e.lemma, e.wordClass);
  }
  // Per word class: the stem tags of the training readings whose lemma (or, for a row with a noun class, whose form) the row has.
  const tagVotes = new Map<string, Map<string, number>>();
  const lemmaAdds = new Map<string, Map<string, number>>();
  const nounPrefixes = new Map<string, Set<string>>();
  const vote = (m: Map<string, Map<string, number>>, k: string, v: string): void => {
    const inner = m.get(k) ?? new Map<string, number>();
    inner.set(v, (inner.get(v) ?? 0) + 1);
    m.set(k, inner);
  };
  for (const [form, counts] of formCounts) {
    for (const id of counts.keys()) {
      const r = readings[id]!;
      const template = templateOf(r.morphemes, r.lemma, r.pos);
      if (!template) continue;
      vote(lemmaAdds, template.prefix.stemTag, template.suffix.lemmaAdd);
      if (isNounPos(r.pos) && template.prefix.nounClass !== '') {
        const cls = classNumber(template.prefix.nounClass);
        const set = nounPrefixes.get(`${template.prefix.stemTag}\t${cls}`) ?? new Set<string>();
        set.add(template.prefix.prefix);
        nounPrefixes.set(`${template.prefix.stemTag}\t${cls}`, set);
      }
      const lemmaClass = byLemma.get(r.lemma.toLowerCase());
      if (lemmaClass !== undefined) vote(tagVotes, lemmaClass, template.prefix.stemTag);
      const formClass = byForm.get(form);
      if (formClass !== undefined && isNounPos(r.pos)) vote(tagVotes, formClass, template.prefix.stemTag);
    }
  }
  /** A noun class without leading zeros (`01` and `1` alike; `1a` stays apart). */
  function classNumber(cls: string): string {
    return cls.replace(/^0+(?=\d)/, '');
  }
  /** A class as the text writes it (`01` or `1`), from the text's own noun prefixes of that stem tag. */
  const writtenClass = (tag: string, cls: string): string => [...prefixTemplates].find((t) => t.stemTag === tag && t.nounClass !== '' && classNumber(t.nounClass) === cls)?.nounClass ?? cls;
  const top = (m: Map<string, number> | undefined): string | undefined => (m ? [...m].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0] : undefined);
  for (const e of entries) {
    const tag = top(tagVotes.get(e.wordClass));
    if (tag === undefined || e.lemma === '') continue;
    let stem: string | undefined;
    let nounClass = '';
    if (e.nounClass === '') {
      const add = top(lemmaAdds.get(tag)) ?? '';
      stem = add !== '' && e.lemma.endsWith(add) ? e.lemma.slice(0, -add.length) : e.lemma;
    } else {
      const cls = classNumber(e.nounClass);
      const prefix = [...(nounPrefixes.get(`${tag}\t${cls}`) ?? [])].filter((p) => e.lemma.startsWith(p) && e.lemma.length - p.length >= 2).sort((a, b) => b.length - a.length)[0];
      if (prefix === undefined) continue;
      stem = e.lemma.slice(prefix.length);
      nounClass = writtenClass(tag, cls);
    }
    if (stem.length < 2) continue;
    cartridgeRows++;
    addLexicon(cartridgeStems, stem, tag, nounClass, 1);
    // The plural's class: the one whose noun prefix, cut off the plural the row gives, leaves the same stem.
    if (e.nounClass !== '' && e.plural !== '') {
      for (const [key, prefixes] of [...nounPrefixes].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
        const [pluralTag, cls] = key.split('\t') as [string, string];
        if (pluralTag !== tag || cls === classNumber(e.nounClass)) continue;
        if (![...prefixes].some((p) => e.plural === p + stem)) continue;
        addLexicon(cartridgeStems, stem, tag, writtenClass(tag, cls), 1);
        break;
      }
    }
  }
  process.stderr.write(`cartridge lexicon: ${cartridgeRows} of ${entries.length} rows as stems\n`);
}
const cartridgeMeta = cartridgeStems
  ? {
      cartridge_lexicon: {
        file: 'cartridge-lexicon.tsv',
        source_id: 'cartridge',
        learnt_from: [path.basename(path.dirname(values['cartridge-lexicon']!)) + '/' + path.basename(values['cartridge-lexicon']!)],
        stems: [...cartridgeStems.keys()].filter((k) => k.split('\t').length === 3).length,
      },
    }
  : {};
// 1b. The text's tags for the cartridge engine's verb readings (src/text/engine-tags.ts).
const engineTags = learnEngineTags(language, paragraphs, openMorphology(loadConfig({ flags: {} }), openLanguageCodes(), { only: [language] }), (line) => process.stderr.write(`${line}\n`));

const relatedMeta = related
  ? {
      related_lexicon: {
        language: values['related-language']!,
        file: 'related-lexicon.tsv',
        source_id: `sadilar-ii-${values['related-language']!}`,
        learnt_from: [path.basename(values.related!)],
        stems: [...related.keys()].filter((k) => k.split('\t').length === 3).length,
      },
    }
  : {};

const forms = new Map<string, Array<[number, number]>>();
for (const [form, counts] of formCounts)
  forms.set(
    form,
    [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0]),
  );

// Alternations (learned-model.ts `withAlternations`): concords written alike in several classes, and
// segmentations the text annotates with two POS, each counted over the training tokens.
const ALTERNATION_MIN = 3;
const readingTokens = new Array<number>(readings.length).fill(0);
for (const counts of formCounts.values()) for (const [r, c] of counts) readingTokens[r]! += c;
const concordClasses = new Map<string, Map<string, number>>();
readings.forEach((r, id) => {
  const concord = concordKey(r.pos, r.morphemes);
  if (concord) {
    const classes = concordClasses.get(concord.key) ?? new Map<string, number>();
    classes.set(concord.cls, (classes.get(concord.cls) ?? 0) + readingTokens[id]!);
    concordClasses.set(concord.key, classes);
  }
});
const classAlternations: string[][] = [];
for (const [key, classes] of [...concordClasses].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
  const kept = [...classes].filter(([, n]) => n >= ALTERNATION_MIN).map(([c]) => c);
  if (kept.length >= 2) classAlternations.push([...key.split('\t'), ...kept.sort()]);
}
// Two readings of one form, one lemma: the same prefix morphemes, then a root with suffixes or one stem that is the lemma.
const stemPairs = new Map<string, Set<string>>();
for (const [form, counts] of formCounts) {
  const rs = [...counts.keys()].map((id) => readings[id]!);
  for (const a of rs) {
    for (const b of rs) {
      if (a.lemma !== b.lemma || a.pos === b.pos) continue;
      let k = 0;
      while (k < a.morphemes.length && k < b.morphemes.length && a.morphemes[k]!.canonical === b.morphemes[k]!.canonical && a.morphemes[k]!.tag === b.morphemes[k]!.tag) k++;
      if (k === 0 || b.morphemes.length !== k + 1 || b.morphemes[k]!.canonical !== b.lemma || a.morphemes.length < k + 2) continue;
      const prefix = tagSequence(a.morphemes.slice(0, k));
      const collapse = [a.pos, b.pos, prefix, 'collapse', b.morphemes[k]!.tag].join('\t');
      stemPairs.set(collapse, (stemPairs.get(collapse) ?? new Set()).add(form));
      const rest = a.morphemes.slice(k);
      if (rest.length === 2 && rest[0]!.canonical === a.lemma.slice(0, -1) && rest[1]!.canonical === a.lemma.slice(-1)) {
        const split = [b.pos, a.pos, prefix, 'split', b.morphemes[k]!.tag, rest[0]!.tag, rest[1]!.tag].join('\t');
        stemPairs.set(split, (stemPairs.get(split) ?? new Set()).add(form));
      }
    }
  }
}
const stemAlternations = [...stemPairs]
  .filter(([, forms]) => forms.size >= ALTERNATION_MIN)
  .map(([k]) => k.split('\t'))
  .sort((a, b) => (a.join() < b.join() ? -1 : 1));
const alternations = values.alternations ? { classes: classAlternations, stems: stemAlternations } : undefined;
if (alternations) process.stderr.write(`alternations: ${classAlternations.length} concords of several classes, ${stemAlternations.length} stem alternations\n`);

/** Readings past the candidate limit whose lemma the text has (`patternCandidates`; meta.yaml `lemma_extra`). */
const LEMMA_EXTRA = Number(values['lemma-extra']);
/** What the text taught, the same in the model trained here and in the files written at the end. */
const parts = { language, readings, forms, prefixTemplates, suffixTemplates, pairs, lexicon, ...(related ? { related } : {}), ...(cartridgeStems ? { cartridge: cartridgeStems } : {}) };
const model = indexModel({
  ...parts,
  weights: new Map(),
  scale: 1,
  meta: { lemma_extra: LEMMA_EXTRA, ...(alternations ? { alternations } : {}) },
});

// 2a. The POS tagger (pos-tagger.ts): its cross-fold tags on the training text for the ranker's examples,
// then the tagger trained on all of it, which ships as tagger.tsv.
const TAGGER_FOLDS = 5;
const TAGGER_EPOCHS = 8;
const taggedSentences: TaggedSentence[] = sentences.map((s) => ({ tokens: s.map((t) => t.token), tags: s.map((t) => t.pos) }));
const foldTags = values.tagger ? crossFoldTags(taggedSentences, { folds: TAGGER_FOLDS, epochs: TAGGER_EPOCHS, seed: shuffleSeed }) : undefined;
const tagger = values.tagger ? trainTagger(taggedSentences, { epochs: TAGGER_EPOCHS, seed: shuffleSeed }) : undefined;
if (foldTags) {
  let right = 0;
  let all = 0;
  sentences.forEach((s, i) =>
    s.forEach((t, k) => {
      if (t.pos === 'PUNC') return;
      all++;
      if (foldTags[i]![k]!.tag === t.pos) right++;
    }),
  );
  process.stderr.write(`tagger: cross-fold POS ${pct(right, all)} of ${all} tokens (PUNC left out), ${tagger!.size} weights\n`);
}

// 2. Training examples: each token's candidates as if it were left out of the counts.
const featureIds = new Map<string, number>();
const featureNames: string[] = [];
const idOf = (f: string): number => {
  let id = featureIds.get(f);
  if (id === undefined) {
    id = featureNames.length;
    featureNames.push(f);
    featureIds.set(f, id);
  }
  return id;
};
interface Example {
  candidates: Int32Array[];
  gold: number;
  unseen: boolean;
}
const examples: Example[] = [];
/** A token of a sentence for the structured perceptron: its candidates, the gold one's index (-1 when none is), its own features per candidate. */
interface SequenceToken {
  candidates: Candidate[];
  gold: number;
  unseen: boolean;
  own: Int32Array[];
}
const sequences: Array<{ index: number; tokens: SequenceToken[] }> = [];
let oracle = 0;
let unseenTokens = 0;
let unseenOracle = 0;
for (const [sentenceIndex, sentence] of sentences.entries()) {
  let headClass = '';
  // Each token's candidates as if it were left out; the next token's are read one step ahead.
  const candidateLists = sentence.map((t) => candidatesOf(model, t.token, t.leaveOut));
  const sequence: SequenceToken[] = [];
  if (sequenceBeam > 1) sequences.push({ index: sentenceIndex, tokens: sequence });
  for (let i = 0; i < sentence.length; i++) {
    const t = sentence[i]!;
    if (i > 0) headClass = headClassAfter(sentence[i - 1]!.pos, sentence[i - 1]!.morphemes, headClass, isNounPos);
    const candidates = candidateLists[i]!;
    const unseen = candidates.length === 0 || candidates[0]!.features.includes('unseen');
    if (unseen) unseenTokens++;
    let gold = candidates.findIndex((c) => c.key === t.key);
    if (gold < 0) {
      const [lemma, pos] = t.key.split('\t');
      gold = candidates.findIndex((c) => c.lemma === lemma && c.pos === pos);
    }
    if (sequenceBeam > 1)
      sequence.push({
        candidates,
        gold,
        unseen,
        own: candidates.map((c) => Int32Array.from([...c.features, ...(foldTags ? taggerFeatures(foldTags[sentenceIndex]![i]!, c.pos, unseen) : [])].map(idOf))),
      });
    if (gold < 0) continue;
    oracle++;
    if (unseen) unseenOracle++;
    if (candidates.length < 2) continue;
    const context = {
      token: t.token,
      unseen,
      previousPos: i === 0 ? '<s>' : sentence[i - 1]!.pos,
      previousPos2: i < 2 ? '<s>' : sentence[i - 2]!.pos,
      previous: sentence[i - 1]?.token,
      next: sentence[i + 1]?.token,
      nextPos: priorPos(candidateLists[i + 1]),
      headClass,
      innerClass: i === 0 ? '' : innerClassOf(sentence[i - 1]!.pos, sentence[i - 1]!.morphemes, isNounPos),
      seenWords: seenContext === 'all',
    };
    examples.push({
      gold,
      unseen,
      candidates: candidates.map((c) => Int32Array.from([...c.features, ...contextFeatures(c.pos, context), ...(foldTags ? taggerFeatures(foldTags[sentenceIndex]![i]!, c.pos, unseen) : [])].map(idOf))),
    });
  }
}
process.stderr.write(
  `${language}: ${tokens} tokens, ${readings.length} readings, ${forms.size} forms, ${prefixTemplates.length} prefix and ${suffixTemplates.length} suffix templates; ` +
    `gold among candidates ${pct(oracle, tokens)} (left-out unseen ${pct(unseenOracle, unseenTokens)} of ${unseenTokens}); ${examples.length} ranking examples, ${featureNames.length} features\n`,
);

// 3. Averaged perceptron (deterministic order: a fixed-seed shuffle per epoch).
let weights: Float64Array = new Float64Array(featureNames.length);
let totals: Float64Array = new Float64Array(featureNames.length);
let stamps: Float64Array = new Float64Array(featureNames.length);
let step = 1;
/** Room for the features the structured perceptron meets only on wrong paths. */
const grow = (): void => {
  if (featureNames.length <= weights.length) return;
  const size = Math.max(featureNames.length, Math.ceil(weights.length * 1.5));
  const widen = (a: Float64Array): Float64Array => {
    const b = new Float64Array(size);
    b.set(a);
    return b;
  };
  weights = widen(weights);
  totals = widen(totals);
  stamps = widen(stamps);
};
const score = (features: Int32Array): number => {
  let s = 0;
  for (const f of features) s += weights[f]!;
  return s;
};
const update = (features: Int32Array, delta: number): void => {
  for (const f of features) {
    totals[f]! += (step - stamps[f]!) * weights[f]!;
    stamps[f] = step;
    weights[f]! += delta;
  }
};
let seed = shuffleSeed;
const random = (): number => {
  seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
  return seed / 4294967296;
};
trainTokens();
if (sequenceBeam > 1) trainSequences(sequenceEpochs);

/** Shuffles `order` in place (Fisher-Yates) with the learner's seeded random numbers. */
function shuffle(order: number[]): void {
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
}

/** The perceptron over each token's candidates, its neighbours' POS taken from the annotation. */
function trainTokens(): void {
  const order = examples.map((_, i) => i);
  for (let epoch = 0; epoch < epochs; epoch++) {
    shuffle(order);
    let errors = 0;
    for (const index of order) {
      const example = examples[index]!;
      let best = 0;
      let bestScore = -Infinity;
      example.candidates.forEach((c, k) => {
        const s = score(c);
        if (s > bestScore) {
          bestScore = s;
          best = k;
        }
      });
      if (best !== example.gold) {
        errors++;
        update(example.candidates[example.gold]!, 1);
        update(example.candidates[best]!, -1);
      }
      step++;
    }
    process.stderr.write(`epoch ${epoch + 1}: ${errors} ranking errors of ${examples.length}\n`);
  }
}

/**
 * The structured perceptron: each sentence's best path through its tokens' candidates under the current
 * weights (beam search, paths making the same context merged, as the analyser decodes), against the
 * annotated path; a token whose gold reading is not among its candidates is fixed to the annotation on
 * both paths and adds no features. The context features of a reading are those of the path before it.
 */
function trainSequences(rounds: number): void {
  interface Path {
    score: number;
    state: DecodeState;
    back: Path | null;
    pick: number;
    features: Int32Array | null;
  }
  const featuresAt = (sentence: TokenFacts[], tokens: SequenceToken[], i: number, k: number, state: DecodeState): Int32Array => {
    const t = tokens[i]!;
    const c = t.candidates[k]!;
    const context = {
      token: sentence[i]!.token,
      unseen: t.unseen,
      ...state,
      previous: sentence[i - 1]?.token,
      next: sentence[i + 1]?.token,
      nextPos: priorPos(tokens[i + 1]?.candidates),
      seenWords: seenContext === 'all',
    };
    const own = t.own[k]!;
    const extra = contextFeatures(c.pos, context).map(idOf);
    const out = new Int32Array(own.length + extra.length);
    out.set(own);
    out.set(extra, own.length);
    return out;
  };
  // The annotated path's features do not depend on the weights.
  const goldFeatures = sequences.map(({ index, tokens }) => {
    const sentence = sentences[index]!;
    let state = START;
    const out: Int32Array[] = [];
    tokens.forEach((t, i) => {
      if (t.gold >= 0 && t.candidates.length > 0) out.push(featuresAt(sentence, tokens, i, t.gold, state));
      state = t.gold >= 0 ? after(state, t.candidates[t.gold]!) : after(state, sentence[i]!);
    });
    return out;
  });
  grow();
  const order = sequences.map((_, i) => i);
  for (let epoch = 0; epoch < rounds; epoch++) {
    shuffle(order);
    let errors = 0;
    let wrongSentences = 0;
    for (const index of order) {
      const { index: sentenceIndex, tokens } = sequences[index]!;
      const sentence = sentences[sentenceIndex]!;
      let paths: Path[] = [{ score: 0, state: START, back: null, pick: -1, features: null }];
      tokens.forEach((t, i) => {
        if (t.gold < 0 || t.candidates.length === 0) {
          paths = paths.map((p) => ({ score: p.score, state: after(p.state, sentence[i]!), back: p, pick: -1, features: null }));
          return;
        }
        const merged = new Map<string, Path>();
        for (const p of paths) {
          for (let k = 0; k < t.candidates.length; k++) {
            const features = featuresAt(sentence, tokens, i, k, p.state);
            grow();
            const state = after(p.state, t.candidates[k]!);
            const total = p.score + score(features);
            const key = `${state.previousPos}\t${state.previousPos2}\t${state.headClass}\t${state.innerClass}`;
            const known = merged.get(key);
            if (known === undefined || total > known.score) merged.set(key, { score: total, state, back: p, pick: k, features });
          }
        }
        paths = [...merged.values()].sort((a, b) => b.score - a.score).slice(0, sequenceBeam);
      });
      const predicted: Int32Array[] = [];
      let wrong = 0;
      let p: Path | null = paths[0]!;
      for (let i = tokens.length - 1; i >= 0; i--) {
        if (p!.features) {
          predicted.push(p!.features);
          if (p!.pick !== tokens[i]!.gold) wrong++;
        }
        p = p!.back;
      }
      if (wrong > 0) {
        errors += wrong;
        wrongSentences++;
        for (const f of goldFeatures[index]!) update(f, 1);
        for (const f of predicted) update(f, -1);
      }
      step++;
    }
    process.stderr.write(`epoch ${epoch + 1}: ${errors} token errors in ${wrongSentences} of ${sequences.length} sentences\n`);
  }
}
for (let f = 0; f < weights.length; f++) {
  totals[f]! += (step - stamps[f]!) * weights[f]!;
  weights[f] = totals[f]! / step;
}

// 4. The softmax scale that best fits the training examples' gold readings (log-likelihood), or the one given.
let bestScale = values.scale === undefined ? 1 : Number(values.scale);
let bestLikelihood = -Infinity;
for (const scale of values.scale === undefined ? [0.125, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5, 0.6, 0.75, 1, 1.25, 1.5, 2, 3, 4, 6, 8] : []) {
  let likelihood = 0;
  for (const example of examples) {
    const probabilities = softmax(example.candidates.map(score), scale);
    likelihood += Math.log(Math.max(1e-12, probabilities[example.gold]!));
  }
  if (likelihood > bestLikelihood) {
    bestLikelihood = likelihood;
    bestScale = scale;
  }
}

const learnt = new Map<string, number>();
for (let f = 0; f < weights.length; f++) if (Math.abs(weights[f]!) >= 0.0005) learnt.set(featureNames[f]!, weights[f]!);

const files = serializeModel({
  ...parts,
  weights: learnt,
  scale: bestScale,
  meta: {
    format: 1,
    source_id: 'sadilar-ii',
    source: 'SADiLaR-II annotated text (CTexT, North-West University; SADiLaR), CC BY 4.0; Gaustad & Puttkammer (2022), Data in Brief 41, 107994',
    learnt_from: positionals.map((f) => path.basename(f)),
    holdout: values.holdout ?? null,
    paragraphs: paragraphs.length,
    tokens,
    epochs,
    ...(shuffleSeed === 1 ? {} : { seed: shuffleSeed }),
    ...(tagger ? { tagger: { file: 'tagger.tsv', tags: tagger.tags.length, weights: tagger.size, folds: TAGGER_FOLDS, epochs: TAGGER_EPOCHS } } : {}),
    lemma_extra: LEMMA_EXTRA,
    ...(seenContext === 'pos' ? { seen_context: 'pos' } : {}),
    ...(alternations ? { alternations } : {}),
    ...(sequenceBeam > 1 ? { decode: { beam: sequenceBeam, score: 'raw' } } : {}),
    ...relatedMeta,
    ...cartridgeMeta,
    ...(engineTags ? { engine_tags: engineTags } : {}),
  },
});
if (tagger) files['tagger.tsv'] = tagger.serialize();
files['README.md'] = readme();
mkdirSync(outDir, { recursive: true });
for (const [name, text] of Object.entries(files)) writeFileSync(path.join(outDir, name), text);
process.stderr.write(`wrote ${Object.keys(files).join(', ')} to ${outDir} (softmax scale ${bestScale}, ${learnt.size} weights)\n`);

function pct(a: number, b: number): string {
  return `${((100 * a) / Math.max(1, b)).toFixed(1)}%`;
}

function readme(): string {
  const heldOut = values.holdout ? `, the ${values.holdout} paragraphs left out` : '';
  const holdoutFlag = values.holdout ? ` --holdout ${values.holdout}` : '';
  const seedFlag = shuffleSeed === 1 ? '' : ` --seed ${shuffleSeed}`;
  const taggerFlag = `${values.tagger ? ' --tagger' : ''}${values.alternations ? ' --alternations' : ''}`;
  const extraFlag = `${LEMMA_EXTRA === 20 ? '' : ` --lemma-extra ${LEMMA_EXTRA}`}${seenContext === 'pos' ? '' : ' --seen-context all'}${values.scale === undefined ? '' : ` --scale ${values.scale}`}`;
  const relatedFlag = values.related ? ` --related <sadii>/${path.basename(values.related)} --related-language ${values['related-language']}` : '';
  const cartridgeFlag = values['cartridge-lexicon'] ? ` --cartridge-lexicon languages/${language}/lexicon.tsv` : '';
  const cartridgeSource = values['cartridge-lexicon']
    ? `\nThe second fallback stem lexicon (cartridge-lexicon.tsv, ${cartridgeRows} rows) is drawn from the cartridge's own word
list, languages/${language}/lexicon.tsv, each row of which cites its source there.\n`
    : '';
  const relatedSource = values.related
    ? `\nThe fallback stem lexicon (related-lexicon.tsv) is learnt from the SADiLaR-II annotated text of a related
language, ${path.basename(values.related)} (same authors, dataset and licence, CC BY 4.0): its stems, tags, noun classes and
counts, used only for a stem this language's own text lacks.
`
    : '';
  const inputs = positionals.map((f) => `<sadii>/${path.basename(f)}`).join(' ');
  return `# Text model (${language})

Learnt from annotated running text by \`scripts/learn-text-model.ts\`; read by \`src/text/learned-model.ts\`
and ranked by \`src/text/learned-analyzer.ts\`. The format and the figures are in \`docs/text-analysis.md\`.

Source: SADiLaR-II annotated text (${positionals.map((f) => path.basename(f)).join(', ')}; ${paragraphs.length} paragraphs, ${tokens} tokens${heldOut}), by CTexT (Centre for Text Technology, North-West University) and SADiLaR (South African Centre for
Digital Language Resources), licensed CC BY 4.0. Gaustad, T. & Puttkammer, M. J. (2022). Linguistically
annotated dataset for four official South African languages with a conjunctive orthography.
Data in Brief 41, 107994. The word forms, stems, noun classes, templates and counts below are facts
learnt from that text; these files are distributed under the same licence, with this attribution.
${relatedSource}${cartridgeSource}
Made with:

    npx tsx scripts/learn-text-model.ts --language ${language}${holdoutFlag}${extraFlag}${relatedFlag}${cartridgeFlag}${seedFlag}${taggerFlag} ${inputs}

| file | one line is |
|---|---|
| readings.tsv | a reading: lemma, POS, canonical segmentation (\`u[NPrePre3]-mu[BPre3]-phakathi[NStem]\`), the written letters of each morpheme joined by \`|\` |
| forms.tsv | a lower-cased word form and its readings as \`reading:count\` (reading = line number in readings.tsv, from 0) |
| prefixes.tsv | a prefix template: count, written prefix, POS, its morphemes (canonical + written), the stem's tag, a rewrite of the stem's start (\`^p>ph\`), whether the stem keeps its case, the noun class |
| suffixes.tsv | a suffix template: count, written suffix, its morphemes, the stem's tag, what the lemma adds to the canonical stem, a rewrite of the stem before it (\`tsh>b\`) |
| pairs.tsv | how often a prefix template and a suffix template (line numbers from 0) made one word |
| lexicon.tsv | a stem: canonical form, tag, noun class, count |${values.related ? "\n| related-lexicon.tsv | a stem of the related language's text: canonical form, tag, noun class, count |" : ''}
| weights.tsv | a ranker feature and its averaged-perceptron weight |${values.tagger ? "\n| tagger.tsv | the POS tagger's weights (src/text/pos-tagger.ts): a first line `#tags` with its tags, then a feature and its `tag:weight` pairs (tag = place in that line's list, from 0) |" : ''}
| meta.yaml | language, source, sizes, softmax scale, lemma_extra (readings past the candidate limit whose lemma the text has), seen_context (\`pos\`: a seen form's context features are those of POS and agreement only), engine_tags (the text's tags and POS for the cartridge engine's readings: src/text/engine-tags.ts) |
`;
}
