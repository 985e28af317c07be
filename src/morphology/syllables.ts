/**
 * Syllables from a phonology file: orthographic syllabification of written words, and the
 * syllable inventory (onsets, nuclei, syllable types, counts) derived from the phoneme
 * inventory and the file's nasal and glide rules. Generic: every fact comes from the
 * Phonology; see docs/cartridge-phonology.md for how the derivation works.
 */
import { SYLLABIC_NASAL_TEMPLATE, citedSources, matchesSelector, matchesTargets, parseSyllableTemplate, type Consonant, type GlideRule, type Phonology, type SyllabicCondition, type TemplateParts } from './phonology.js';

/** One orthographic syllable with its template, e.g. { text: 'mbwa', template: 'NCwV' }. */
export interface Syllable {
  text: string;
  template: string;
}

/** A possible onset: its spelling, its IPA and how it was built. */
export interface Onset {
  grapheme: string;
  ipa: string;
  kind: string;
}

/** A written sound that can be a syllable peak. */
export interface Nucleus {
  grapheme: string;
  ipa: string;
}

/** One allowed syllable type with how many syllables of that shape the inventory allows. */
export interface SyllableTypeEntry {
  template: string;
  onset_kind: string | null;
  count: number;
  example: { word: string; syllables: string[]; syllable: string | null } | null;
}

/** The syllable inventory of a language, in a shape shared by every language. */
export interface SyllableInventory {
  onsets: Onset[];
  nuclei: Nucleus[];
  syllabic_nasals: Nucleus[];
  codas: { allowed: boolean; graphemes: string[] };
  syllable_types: SyllableTypeEntry[];
  counts: {
    onsets: number;
    onsets_by_kind: Record<string, number>;
    nuclei: number;
    syllabic_nasals: number;
    syllable_types: number;
    possible_syllables: number;
  };
  sources: {
    phoible: { inventory_id: number; inventory_source: string; references: string[] };
    references: Array<{ id: string; citation: string; url?: string; license?: string; cited_by: string[] }>;
  };
}

type SegmentKind = 'vowel' | 'consonant' | 'glide' | 'unknown';

interface Segment {
  text: string;
  key: string;
  kind: SegmentKind;
  nasal: boolean;
  syllabic: boolean;
}

interface Engine {
  phonology: Phonology;
  kinds: Map<string, SegmentKind>;
  maxLength: number;
  nasals: Set<string>;
  syllabic: Set<string>;
  glideSymbols: Map<string, string>;
  prenasal: Map<string, Set<string>>;
  apostrophes: Set<string>;
  separator: RegExp;
}

const APOSTROPHE = "'";
const engines = new WeakMap<Phonology, Engine>();

/** The nasal (grapheme and IPA mark) that prenasalises this consonant, or null if none does. */
function nasalFor(phonology: Phonology, consonant: Consonant): { grapheme: string; ipa: string } | null {
  const rule = phonology.syllable_structure.prenasalisation;
  if (!rule || consonant.syllabic || !matchesTargets(consonant, rule.targets)) return null;
  return rule.nasals.find((n) => matchesSelector(consonant, n.before)) ?? null;
}

function escapeForClass(chars: Iterable<string>): string {
  return [...chars].map((c) => c.replace(/[\\\]^-]/g, '\\$&')).join('');
}

function engineFor(phonology: Phonology): Engine {
  const cached = engines.get(phonology);
  if (cached) return cached;
  const s = phonology.syllable_structure;
  const consonants = phonology.inventory.consonants;
  const glideSymbols = new Map(s.glides.map((g) => [g.grapheme, g.symbol]));
  const kinds = new Map<string, SegmentKind>();
  for (const c of consonants) {
    for (const g of c.graphemes) kinds.set(g, c.manner === 'approximant' && glideSymbols.has(g) ? 'glide' : 'consonant');
  }
  for (const v of phonology.inventory.vowels) for (const g of v.graphemes) kinds.set(g, 'vowel');

  const prenasal = new Map<string, Set<string>>();
  for (const c of consonants) {
    const nasal = nasalFor(phonology, c);
    if (!nasal) continue;
    const set = prenasal.get(nasal.grapheme) ?? new Set<string>();
    for (const g of c.graphemes) set.add(g);
    prenasal.set(nasal.grapheme, set);
  }
  const apostrophes = new Set([APOSTROPHE, ...phonology.orthography.apostrophes]);
  const engine: Engine = {
    phonology,
    kinds,
    maxLength: Math.max(1, ...[...kinds.keys()].map((g) => [...g].length)),
    nasals: new Set(consonants.filter((c) => c.manner === 'nasal' && !c.syllabic).flatMap((c) => c.graphemes)),
    syllabic: new Set(consonants.filter((c) => c.syllabic).flatMap((c) => c.graphemes)),
    glideSymbols,
    prenasal,
    apostrophes,
    separator: new RegExp(`[^\\p{L}\\p{M}${escapeForClass(apostrophes)}]+`, 'u'),
  };
  engines.set(phonology, engine);
  return engine;
}

function segment(engine: Engine, text: string, key: string, kind: SegmentKind): Segment {
  return { text, key, kind, nasal: engine.nasals.has(key), syllabic: engine.syllabic.has(key) };
}

/** Splits one word into graphemes, longest match first; unknown letters become their own segment. */
function tokenise(engine: Engine, word: string): Segment[] {
  const chars = Array.from(word.normalize('NFC'));
  const keys = chars.map((c) => (engine.apostrophes.has(c) ? APOSTROPHE : c.toLowerCase()));
  const segments: Segment[] = [];
  let marks = '';
  let i = 0;
  while (i < chars.length) {
    let length = 0;
    for (let n = Math.min(engine.maxLength, chars.length - i); n >= 1; n--) {
      const key = keys.slice(i, i + n).join('');
      const kind = engine.kinds.get(key);
      if (kind) {
        segments.push(segment(engine, marks + chars.slice(i, i + n).join(''), key, kind));
        marks = '';
        length = n;
        break;
      }
    }
    if (length === 0) {
      const char = chars[i] ?? '';
      const key = keys[i] ?? '';
      const last = segments.at(-1);
      if (key === APOSTROPHE || /^\p{M}+$/u.test(char)) {
        if (last) last.text += char;
        else marks += char;
      } else {
        const base = key.normalize('NFD').replace(/\p{M}/gu, '');
        const kind = engine.kinds.get(base) === 'vowel' ? 'vowel' : 'unknown';
        segments.push(segment(engine, marks + char, kind === 'vowel' ? base : key, kind));
        marks = '';
      }
      length = 1;
    }
    i += length;
  }
  const last = segments.at(-1);
  if (marks && last) last.text += marks;
  return segments;
}

const isConsonantLike = (s: Segment | undefined): boolean => s !== undefined && (s.kind === 'consonant' || s.kind === 'unknown');
const canPrenasalise = (engine: Engine, nasal: Segment, next: Segment | undefined): boolean => nasal.nasal && next !== undefined && (engine.prenasal.get(nasal.key)?.has(next.key) ?? false);

/** The roles (N, C, glide symbol) of `segs` if they form an onset, else null. */
function onsetRoles(engine: Engine, segs: Segment[]): string[] | null {
  const [a, b, c] = segs;
  const glide = (s: Segment | undefined): string | undefined => (s?.kind === 'glide' ? engine.glideSymbols.get(s.key) : undefined);
  if (segs.length === 1) return a && a.kind !== 'vowel' ? ['C'] : null;
  if (segs.length === 2 && a && b) {
    const g = glide(b);
    if (a.kind !== 'vowel' && g) return ['C', g];
    return canPrenasalise(engine, a, b) ? ['N', 'C'] : null;
  }
  if (segs.length === 3 && a && b && c) {
    const g = glide(c);
    return g && canPrenasalise(engine, a, b) ? ['N', 'C', g] : null;
  }
  return null;
}

function conditionHolds(engine: Engine, segs: Segment[], k: number, condition: SyllabicCondition): boolean {
  const here = segs[k];
  const next = segs[k + 1];
  if (!here) return false;
  if (condition.nasals && !condition.nasals.includes(here.key)) return false;
  if (condition.after_word_initial && !(k === 1 && condition.after_word_initial.includes(segs[0]?.key ?? ''))) return false;
  switch (condition.next) {
    case 'word_end':
      return next === undefined;
    case 'consonant':
      return isConsonantLike(next);
    case 'non_prenasalisable_consonant':
      return isConsonantLike(next) && !canPrenasalise(engine, here, next);
    default:
      return true;
  }
}

function isSyllabicHere(engine: Engine, segs: Segment[], k: number): boolean {
  const seg = segs[k];
  const rules = engine.phonology.syllable_structure.syllabic_nasals;
  if (!seg?.syllabic || !rules) return false;
  return rules.when.some((c) => conditionHolds(engine, segs, k, c));
}

interface Slot {
  seg: Segment;
  role: string;
}

/** Syllabifies one word without separators: maximal legal onsets, syllabic nasals, leftovers as codas. */
function syllabifyWord(engine: Engine, segs: Segment[]): Syllable[] {
  const syllables: Slot[][] = [];
  let pending: Slot[] = [];
  const open = (slots: Slot[]): void => {
    syllables.push([...pending, ...slots]);
    pending = [];
  };
  const leftover = (from: number, to: number): void => {
    for (let k = from; k < to; k++) {
      const seg = segs[k];
      if (!seg) continue;
      if (isSyllabicHere(engine, segs, k)) open([{ seg, role: SYLLABIC_NASAL_TEMPLATE }]);
      else if (syllables.length > 0) syllables.at(-1)?.push({ seg, role: 'C' });
      else pending.push({ seg, role: 'C' });
    }
  };

  let start = 0;
  segs.forEach((nucleus, v) => {
    if (nucleus.kind !== 'vowel') return;
    let onsetStart = v;
    let roles: string[] = [];
    for (let n = Math.min(3, v - start); n >= 1; n--) {
      const found = onsetRoles(engine, segs.slice(v - n, v));
      if (found) {
        onsetStart = v - n;
        roles = found;
        break;
      }
    }
    if (roles[0] === 'N' && isSyllabicHere(engine, segs, onsetStart)) {
      onsetStart += 1;
      roles = roles.slice(1);
    }
    leftover(start, onsetStart);
    const onset = roles.map((role, i) => ({ seg: segs[onsetStart + i] as Segment, role }));
    open([...onset, { seg: nucleus, role: 'V' }]);
    start = v + 1;
  });
  leftover(start, segs.length);
  if (pending.length > 0) syllables.push(pending);
  return syllables.map((slots) => ({ text: slots.map((s) => s.seg.text).join(''), template: slots.map((s) => s.role).join('') }));
}

/** Syllables of a text with their templates; words split on spaces, hyphens and punctuation. */
export function syllabifyDetailed(text: string, phonology: Phonology): Syllable[] {
  const engine = engineFor(phonology);
  return text
    .split(engine.separator)
    .filter((word) => word.length > 0)
    .flatMap((word) => syllabifyWord(engine, tokenise(engine, word)));
}

/** Orthographic syllables of a word, case preserved: 'mwalimu' -> ['mwa', 'li', 'mu']; '' -> []. */
export function syllabify(word: string, phonology: Phonology): string[] {
  return syllabifyDetailed(word, phonology).map((s) => s.text);
}

/** How many syllables (each one mora in an open-syllable language) a word has. */
export function syllableCount(word: string, phonology: Phonology): number {
  return syllabifyDetailed(word, phonology).length;
}

function onsetKind(parts: TemplateParts, glide: GlideRule | undefined): string {
  const kinds = [parts.prenasal ? 'prenasalised' : null, glide ? glide.kind : null].filter((k) => k !== null);
  return kinds.length > 0 ? kinds.join('+') : 'plain';
}

/** The onsets of one onset shape (C, Cw, NC, NCw ...), built from the inventory and the rules. */
function deriveOnsets(phonology: Phonology, parts: TemplateParts, glide: GlideRule | undefined): Onset[] {
  const kind = onsetKind(parts, glide);
  const changes = phonology.syllable_structure.prenasalisation?.ipa_after_nasal ?? {};
  const found = new Map<string, Onset>();
  for (const c of phonology.inventory.consonants) {
    if (c.syllabic) continue;
    const nasal = parts.prenasal ? nasalFor(phonology, c) : null;
    if (parts.prenasal && !nasal) continue;
    if (glide && !matchesTargets(c, glide.targets)) continue;
    for (const g of c.graphemes) {
      const grapheme = (nasal?.grapheme ?? '') + g + (glide?.grapheme ?? '');
      const ipa = (nasal ? nasal.ipa + (changes[c.ipa] ?? c.ipa) : c.ipa) + (glide?.ipa ?? '');
      found.set(`${grapheme}\u0000${ipa}`, { grapheme, ipa, kind });
    }
  }
  return [...found.values()];
}

function unique<T extends { grapheme: string; ipa: string }>(items: T[]): T[] {
  return [...new Map(items.map((x) => [`${x.grapheme}\u0000${x.ipa}`, x])).values()];
}

/** Where each reference is cited, as field paths without list indexes ('inventory.consonants'). */
function citedBy(phonology: Phonology): Map<string, string[]> {
  const byId = new Map<string, Set<string>>();
  for (const { id, path } of citedSources(phonology)) {
    const names = path.slice(0, 2).filter((p): p is string => typeof p === 'string' && p !== 'source');
    const set = byId.get(id) ?? new Set<string>();
    set.add(names.join('.'));
    byId.set(id, set);
  }
  return new Map([...byId].map(([id, set]) => [id, [...set].sort()]));
}

/** The example word's syllables, and its first syllable of the given template (null if none). */
function exampleOf(word: string, template: string, phonology: Phonology): SyllableTypeEntry['example'] {
  const syllables = syllabifyDetailed(word, phonology);
  const match = syllables.find((x) => x.template === template);
  return { word, syllables: syllables.map((x) => x.text), syllable: match?.text ?? null };
}

/** The syllable inventory: onsets by kind, nuclei, syllable types with counts, and sources. */
export function syllableInventory(phonology: Phonology): SyllableInventory {
  const s = phonology.syllable_structure;
  const nuclei = unique(phonology.inventory.vowels.flatMap((v) => v.graphemes.map((grapheme) => ({ grapheme, ipa: v.ipa }))));
  const syllabicNasals = unique(phonology.inventory.consonants.filter((c) => c.syllabic).flatMap((c) => c.graphemes.map((grapheme) => ({ grapheme, ipa: c.ipa }))));
  const codas = s.codas.allowed ? s.codas.graphemes : [];
  const onsetsByShape = new Map<string, Onset[]>();
  const types: SyllableTypeEntry[] = s.types.map((type) => {
    const parts = parseSyllableTemplate(type.template);
    if (!parts) throw new Error(`syllable type "${type.template}" is not a template`);
    let count = 0;
    let kind: string | null = null;
    if (parts.syllabicNasal) count = syllabicNasals.length;
    else {
      let onsetCount = 1;
      if (parts.consonant) {
        const glide = s.glides.find((g) => g.symbol === parts.glide);
        const shape = `${parts.prenasal ? 'N' : ''}C${parts.glide ?? ''}`;
        const onsets = onsetsByShape.get(shape) ?? deriveOnsets(phonology, parts, glide);
        onsetsByShape.set(shape, onsets);
        kind = onsetKind(parts, glide);
        onsetCount = onsets.length;
      }
      count = onsetCount * nuclei.length * (parts.coda ? codas.length : 1);
    }
    const example = type.example === undefined ? null : exampleOf(type.example, type.template, phonology);
    return { template: type.template, onset_kind: kind, count, example };
  });
  const onsets = [...onsetsByShape.values()].flat();
  const onsetsByKind: Record<string, number> = {};
  for (const o of onsets) onsetsByKind[o.kind] = (onsetsByKind[o.kind] ?? 0) + 1;
  const cited = citedBy(phonology);
  const phoible = phonology.inventory.phoible;
  return {
    onsets,
    nuclei,
    syllabic_nasals: syllabicNasals,
    codas: { allowed: s.codas.allowed, graphemes: codas },
    syllable_types: types,
    counts: {
      onsets: onsets.length,
      onsets_by_kind: onsetsByKind,
      nuclei: nuclei.length,
      syllabic_nasals: syllabicNasals.length,
      syllable_types: types.length,
      possible_syllables: types.reduce((sum, t) => sum + t.count, 0),
    },
    sources: {
      phoible: { inventory_id: phoible.inventory_id, inventory_source: phoible.inventory_source, references: phoible.references },
      references: Object.entries(phonology.sources).map(([id, ref]) => ({
        id,
        citation: ref.citation,
        ...(ref.url ? { url: ref.url } : {}),
        ...(ref.license ? { license: ref.license } : {}),
        cited_by: cited.get(id) ?? [],
      })),
    },
  };
}
