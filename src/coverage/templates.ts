/**
 * Template families (metadata, phonology, noun, verb, numeral, tone, transducer) with their
 * implementation order from the roadmap and their state derived from the cartridges.
 */
import type { MorphologyService } from '../morphology/service.js';
import { syllableInventory } from '../morphology/syllables.js';
import { COVERAGE_LEVELS, TEMPLATE_FAMILIES, type CapabilityEvaluator, type CoverageLevel, type TemplateFamily } from './capabilities.js';
import type { CartridgeCoverage } from './coverage.js';
import type { MilestoneStatus } from './roadmap.js';

export interface TemplateFamilyStatus {
  family: TemplateFamily;
  /** 1-based position in the roadmap's build order (families the roadmap never names come last). */
  order: number;
  /** built: every milestone of the family is done; in_progress: some cartridge has it at partial or better; planned: neither. */
  state: 'built' | 'in_progress' | 'planned';
  capabilities: string[];
  milestones: Array<{ id: string; title: string; done: boolean }>;
  /** Cartridges by their best level over the family's capabilities. */
  cartridges: Record<CoverageLevel, number>;
  /** The template's parts as the cartridges declare them: verb slots in order, syllable types. */
  parts: string[];
}

const rank = (l: CoverageLevel) => COVERAGE_LEVELS.indexOf(l);

/** The families in implementation order. */
export function templateFamilies(evaluators: CapabilityEvaluator[], milestones: MilestoneStatus[], coverage: CartridgeCoverage[], morphology: MorphologyService): TemplateFamilyStatus[] {
  const present = TEMPLATE_FAMILIES.filter((f) => evaluators.some((e) => e.family === f) || milestones.some((m) => m.family === f));
  const firstMilestone = (f: TemplateFamily) => {
    const i = milestones.findIndex((m) => m.family === f);
    return i === -1 ? Number.MAX_SAFE_INTEGER : i;
  };
  const ordered = [...present].sort((a, b) => firstMilestone(a) - firstMilestone(b) || TEMPLATE_FAMILIES.indexOf(a) - TEMPLATE_FAMILIES.indexOf(b));
  return ordered.map((family, i) => {
    const capabilities = evaluators.filter((e) => e.family === family).map((e) => e.id);
    const counts = Object.fromEntries(COVERAGE_LEVELS.map((l) => [l, 0])) as Record<CoverageLevel, number>;
    for (const c of coverage) {
      const best = capabilities.map((id) => c.capabilities[id]?.level ?? 'none').reduce<CoverageLevel>((a, b) => (rank(b) > rank(a) ? b : a), 'none');
      counts[best]++;
    }
    const own = milestones.filter((m) => m.family === family);
    const state = own.length > 0 && own.every((m) => m.done) ? 'built' : counts.partial + counts.complete > 0 ? 'in_progress' : 'planned';
    return {
      family,
      order: i + 1,
      state,
      capabilities,
      milestones: own.map((m) => ({ id: m.id, title: m.title, done: m.done })),
      cartridges: counts,
      parts: partsOf(family, coverage, morphology),
    };
  });
}

/** Union of the parts the cartridges declare, in first-seen order. */
function partsOf(family: TemplateFamily, coverage: CartridgeCoverage[], morphology: MorphologyService): string[] {
  const parts: string[] = [];
  const add = (p: string) => {
    if (!parts.includes(p)) parts.push(p);
  };
  for (const c of coverage) {
    const found = morphology.engine(c.iso);
    if (!found.ok) continue;
    const engine = found.value;
    if (family === 'verb') engine.cartridge.verbs?.template.forEach(add);
    if (family === 'phonology' && engine.phonology) syllableInventory(engine.phonology).syllable_types.forEach((t) => add(t.template));
    if (family === 'noun') engine.cartridge.nouns?.classes.forEach((k) => add(k.id));
  }
  return parts;
}
