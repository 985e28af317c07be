/**
 * The language catalogue: every Narrow Bantu languoid Glottolog knows, joined with the
 * installed cartridges (and cartridges Glottolog lists under no ISO code of its own, such
 * as a macrolanguage), with what each cartridge covers. Filters for GET /languages.
 */
import type { Languoid, LanguageCodes } from '../language-codes.js';
import type { LanguageSummary } from '../morphology/service.js';
import { COVERAGE_LEVELS, type CoverageLevel } from './capabilities.js';
import type { CartridgeCoverage } from './coverage.js';

/** One language of the catalogue; the cartridge fields are empty for languages without one. */
export interface CatalogueEntry extends Omit<LanguageSummary, 'iso'> {
  iso: string | null;
  /** Glottolog's name where it differs from the cartridge's (or the only name). */
  glottolog_name: string | null;
  guthrie_group: string | null;
  countries: string[];
  latitude: number | null;
  longitude: number | null;
  has_cartridge: boolean;
  /** Coverage per capability (level only), or null without a cartridge. */
  coverage: { level: CoverageLevel; capabilities: Record<string, CoverageLevel> } | null;
}

export interface CatalogueFilter {
  has_cartridge?: boolean;
  /** A capability id: cartridges where it is at least `min_level` (default `declared`). */
  capability?: string;
  min_level?: CoverageLevel;
  /** Case-insensitive substring of the name, endonym, Glottolog name, ISO code or glottocode. */
  q?: string;
  /** ISO 3166-1 alpha-2 country code. */
  country?: string;
  /** Guthrie zone (`S`), group (`S.40`, `S40`) or code prefix (`S.41`). */
  guthrie?: string;
}

const EMPTY = { capabilities: [], tenses: [], subjects: [], extensions: [], word_classes: [], lexicon_size: 0, golden_tests: { total: 0, passing: 0 }, sources: [] };

/** Every catalogue entry, sorted by ISO code (languoids without one last, by glottocode). */
export function buildCatalogue(codes: LanguageCodes, summaries: LanguageSummary[], coverage: CartridgeCoverage[]): CatalogueEntry[] {
  const bySummary = new Map(summaries.map((s) => [s.iso, s]));
  const byCoverage = new Map(coverage.map((c) => [c.iso, c]));
  const entries: CatalogueEntry[] = [];
  const seen = new Set<string>();
  for (const l of codes.languoids()) {
    if (l.iso639_3 && seen.has(l.iso639_3)) continue;
    if (l.iso639_3) seen.add(l.iso639_3);
    entries.push(entry(l, l.iso639_3 ? bySummary.get(l.iso639_3) : undefined, l.iso639_3 ? byCoverage.get(l.iso639_3) : undefined));
  }
  for (const s of summaries) if (!seen.has(s.iso)) entries.push(entry(undefined, s, byCoverage.get(s.iso)));
  return entries.sort((a, b) => (a.iso ?? `~${a.glottocode}`).localeCompare(b.iso ?? `~${b.glottocode}`));
}

function entry(l: Languoid | undefined, s: LanguageSummary | undefined, c: CartridgeCoverage | undefined): CatalogueEntry {
  const name = s?.name ?? l?.name ?? '';
  return {
    ...EMPTY,
    ...s,
    iso: s?.iso ?? (l?.iso639_3 || null),
    iso639_1: s?.iso639_1 ?? null,
    name,
    endonym: s?.endonym ?? null,
    glottocode: s?.glottocode ?? l?.glottocode ?? null,
    glottolog_name: l && l.name !== name ? l.name : null,
    guthrie: s?.guthrie ?? l?.guthrie ?? null,
    guthrie_group: l?.guthrie ?? null,
    foundational: s?.foundational ?? false,
    countries: l?.countries ?? [],
    latitude: l?.latitude ?? null,
    longitude: l?.longitude ?? null,
    has_cartridge: s !== undefined,
    coverage: c ? { level: c.level, capabilities: Object.fromEntries(Object.entries(c.capabilities).map(([id, st]) => [id, st.level])) } : null,
  };
}

const compact = (code: string) => code.replace(/[.\s]/g, '').toUpperCase();

/** Does a Guthrie code (S.41, J.61, L.31a) fall under the query (S, S.40, S40, S.41)? */
export function matchesGuthrie(code: string | null, query: string): boolean {
  if (!code) return false;
  const c = compact(code);
  const q = compact(query);
  // A group ends in 0 (S.40): every code of that group (S.41, S.42 ...) and the group itself.
  if (/^[A-Z]+\d0$/.test(q)) return c.startsWith(q.slice(0, -1));
  return c.startsWith(q);
}

/** The entries that pass every given filter. */
export function filterCatalogue(entries: CatalogueEntry[], f: CatalogueFilter): CatalogueEntry[] {
  const q = f.q?.trim().toLowerCase();
  const country = f.country?.trim().toUpperCase();
  const min = COVERAGE_LEVELS.indexOf(f.min_level ?? 'declared');
  return entries.filter((e) => {
    if (f.has_cartridge !== undefined && e.has_cartridge !== f.has_cartridge) return false;
    if (f.capability) {
      const level = e.coverage?.capabilities[f.capability];
      if (!level || COVERAGE_LEVELS.indexOf(level) < min) return false;
    } else if (f.min_level && (!e.coverage || COVERAGE_LEVELS.indexOf(e.coverage.level) < min)) return false;
    if (country && !e.countries.includes(country)) return false;
    if (f.guthrie && !matchesGuthrie(e.guthrie, f.guthrie) && !matchesGuthrie(e.guthrie_group, f.guthrie)) return false;
    if (q) {
      const fields = [e.name, e.endonym, e.glottolog_name, e.iso, e.glottocode].filter((x): x is string => Boolean(x));
      if (!fields.some((x) => x.toLowerCase().includes(q))) return false;
    }
    return true;
  });
}
