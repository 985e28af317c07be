/**
 * UniMorph feature bundles to cells, through the cartridge's ordered mapping
 * (features.yaml). Handles the flat schema (V;IND;PST;3;SG;LGSPEC1) and the
 * layered 2023 schema (NOM(3,SG,BANTU1);PRIM(RFLX)), whose layers become
 * prefixed atoms (NOM:3, NOM:SG, NOM:BANTU1, PRIM:RFLX).
 */
import type { FeatureMapping, FeatureSchema } from '../cartridge/cartridge.js';
import type { Cell } from './generator.js';

/** The atoms of a bundle, layers flattened with their prefixes. */
export function featureAtoms(bundle: string, layers: Record<string, string>): Set<string> {
  const atoms = new Set<string>();
  for (const part of bundle.split(';')) {
    const token = part.trim();
    if (!token) continue;
    const layered = /^([A-Z]+)\((.*)\)$/.exec(token);
    if (layered) {
      const prefix = layers[layered[1]!] ?? layered[1]!;
      for (const inner of layered[2]!.split(',')) atoms.add(`${prefix}:${inner.trim()}`);
      atoms.add(`${prefix}:*`);
    } else {
      atoms.add(token);
    }
  }
  return atoms;
}

/** The cell a bundle names, or undefined when the mapping cannot place it. */
export function cellFromFeatures(bundle: string, mapping: FeatureMapping, schema?: FeatureSchema): Cell | undefined {
  return cellsFromFeatures(bundle, mapping, schema)[0];
}

/** The schema of a gold file: the first whose detecting atoms occur in any of its bundles. */
export function detectSchema(bundles: Iterable<string>, mapping: FeatureMapping): FeatureSchema | undefined {
  const atoms = new Set<string>();
  for (const bundle of bundles) for (const atom of featureAtoms(bundle, mapping.layers)) atoms.add(atom);
  return mapping.schemas.find((s) => s.detect.some((a) => atoms.has(a)));
}

/** Every cell a bundle names: the first is the one to generate, the others are readings the schema also allows. */
export function cellsFromFeatures(bundle: string, mapping: FeatureMapping, schema?: FeatureSchema): Cell[] {
  const atoms = featureAtoms(bundle, mapping.layers);
  const set: Record<string, string> = {};
  const also: string[] = [];
  for (const rule of [...(schema?.rules ?? []), ...mapping.rules]) {
    if (!rule.all.every((a) => atoms.has(String(a)))) continue;
    if (rule.none.some((a) => atoms.has(String(a)))) continue;
    if (rule.set.tense !== undefined && set.tense === undefined) also.push(...rule.also);
    for (const [field, value] of Object.entries(rule.set)) if (value !== undefined && set[field] === undefined) set[field] = value;
  }
  const first = toCell(set, mapping);
  if (!first) return [];
  // `also` entries are a tense, or tense:variant.
  return [
    first,
    ...also.map((entry) => {
      const [tense, variant] = entry.split(':');
      const cell: Cell = { ...first, tense: tense! };
      if (variant) cell.variant = variant;
      else delete cell.variant;
      return cell;
    }),
  ];
}

function toCell(set: Record<string, string>, mapping: FeatureMapping): Cell | undefined {
  if (!set.word_class) return undefined;
  const cell: Cell = {
    word_class: set.word_class,
    polarity: (set.polarity as Cell['polarity'] | undefined) ?? mapping.defaults.polarity,
  };
  if (set.tense) cell.tense = set.tense;
  if (set.agreement ?? set.subject) cell.subject = set.agreement ?? set.subject;
  if (set.object && set.object !== 'none') cell.object = set.object;
  if (set.variant) cell.variant = set.variant;
  if (set.number === 'sg' || set.number === 'pl') cell.number = set.number;
  if (set.form) cell.form = set.form;
  if (set.possessee) cell.possessee = set.possessee;
  if (cell.word_class === 'verb' && !cell.tense) return undefined;
  return cell;
}
