/**
 * Language codes at the edge: ISO 639-3 inside, with ISO 639-1 and
 * macrolanguage aliases (sw, swa -> swh) accepted and normalised once.
 * Facts come from reference/ (Glottolog 5.1 and the ISO 639-3 code tables).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** One Narrow Bantu languoid from Glottolog. */
export interface Languoid {
  glottocode: string;
  name: string;
  iso639_3: string;
  latitude: number | null;
  longitude: number | null;
  countries: string[];
  guthrie: string | null;
}

const CODE_SHAPE = /^[a-z]{2,3}$/;

/** The set of language codes the service recognises, with their aliases. */
export class LanguageCodes {
  readonly #aliases = new Map<string, string>();
  readonly #languoids = new Map<string, Languoid>();
  readonly #known = new Set<string>();
  readonly #withIso639_1: string[] = [];
  readonly #all: Languoid[] = [];

  constructor(languoids: Iterable<Languoid>, aliases: Iterable<[alias: string, iso: string]>) {
    for (const l of languoids) this.#all.push(l);
    for (const l of this.#all) if (l.iso639_3 && !this.#languoids.has(l.iso639_3)) this.#languoids.set(l.iso639_3, l);
    for (const [alias, iso] of aliases) {
      this.#aliases.set(alias, iso);
      if (/^[a-z]{2}$/.test(alias) && !this.#withIso639_1.includes(iso)) this.#withIso639_1.push(iso);
    }
    for (const iso of [...this.#languoids.keys(), ...this.#aliases.values()]) this.#known.add(iso);
  }

  /** Reads reference/glottolog-narrow-bantu.tsv and reference/language-codes.tsv. */
  static fromReference(referenceDir: string): LanguageCodes {
    const languoids = readTsv(path.join(referenceDir, 'glottolog-narrow-bantu.tsv')).map((r) => ({
      glottocode: r.glottocode ?? '',
      name: r.name ?? '',
      iso639_3: r.iso639_3 ?? '',
      latitude: r.latitude ? Number(r.latitude) : null,
      longitude: r.longitude ? Number(r.longitude) : null,
      countries: (r.countries ?? '').split(/[;,\s]+/).filter(Boolean),
      guthrie: r.guthrie_group_from_glottolog_path || null,
    }));
    const aliases = readTsv(path.join(referenceDir, 'language-codes.tsv')).map((r) => [r.alias ?? '', r.iso639_3 ?? ''] as [string, string]);
    return new LanguageCodes(languoids, aliases);
  }

  /**
   * The ISO 639-3 code for `code` (any case, alias or canonical),
   * or undefined when the code is not a known Bantu language.
   */
  normalise(code: string): string | undefined {
    const lower = code.trim().toLowerCase();
    if (!CODE_SHAPE.test(lower)) return undefined;
    const target = this.#aliases.get(lower) ?? lower;
    return this.#known.has(target) ? target : undefined;
  }

  /**
   * ISO 639-3 codes of the languages that also have an ISO 639-1 code (the most widely
   * written ones), in the order of reference/language-codes.tsv.
   */
  withIso639_1(): string[] {
    return [...this.#withIso639_1];
  }

  /** Every languoid of the reference table, in its order (also those without an ISO 639-3 code). */
  languoids(): readonly Languoid[] {
    return this.#all;
  }

  /** Glottolog's record for an ISO 639-3 code, when it has one. */
  languoid(iso: string): Languoid | undefined {
    return this.#languoids.get(iso);
  }
}

/** Parses a headed, tab-separated UTF-8 file into records keyed by header. */
export function readTsv(file: string): Record<string, string>[] {
  const lines = readFileSync(file, 'utf8')
    .split(/\r?\n/)
    .filter((l) => l.length > 0);
  const header = (lines.shift() ?? '').split('\t');
  return lines.map((line) => {
    const cells = line.split('\t');
    return Object.fromEntries(header.map((h, i) => [h, cells[i] ?? '']));
  });
}
