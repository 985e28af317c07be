/**
 * The declared build roadmap (docs/roadmap.yaml) with "done" computed from coverage
 * wherever a milestone names a capability, and the template families in the order the
 * roadmap first builds them.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { z } from 'zod';
import { COVERAGE_LEVELS, TEMPLATE_FAMILIES, type CoverageLevel, type TemplateFamily } from './capabilities.js';
import type { CartridgeCoverage } from './coverage.js';

const doneWhenSchema = z
  .strictObject({
    capability: z.string().min(1),
    min_level: z.enum(COVERAGE_LEVELS),
    languages: z
      .array(z.string().regex(/^[a-z]{3}$/))
      .min(1)
      .optional(),
    at_least: z.number().int().min(1).optional(),
  })
  .refine((d) => d.languages || d.at_least, 'give `languages`, `at_least` or both');

const milestoneSchema = z
  .strictObject({
    id: z.string().regex(/^[a-z][a-z0-9-]*$/),
    title: z.string().min(1),
    family: z.enum(TEMPLATE_FAMILIES).optional(),
    done: z.boolean().optional(),
    evidence: z.string().optional(),
    done_when: doneWhenSchema.optional(),
  })
  .refine((m) => (m.done === undefined) !== (m.done_when === undefined), 'a milestone has either `done` (with evidence) or `done_when`')
  .refine((m) => m.done === undefined || m.evidence, 'a declared `done` needs `evidence`');

const roadmapSchema = z.strictObject({ format: z.literal(1), milestones: z.array(milestoneSchema).min(1) });
export type RoadmapFile = z.infer<typeof roadmapSchema>;
type Milestone = RoadmapFile['milestones'][number];

/** A milestone as the status API reports it. */
export interface MilestoneStatus {
  id: string;
  title: string;
  family: TemplateFamily | null;
  done: boolean;
  /** `computed` from coverage, or `declared` in the roadmap. */
  basis: 'computed' | 'declared';
  /** Why it is (not) done: the cartridges that meet or miss the condition. */
  evidence: string;
}

/** Reads and validates the roadmap file. Throws naming the file and field. */
export function loadRoadmap(file: string): RoadmapFile {
  const parsed = roadmapSchema.safeParse(parse(readFileSync(file, 'utf8')));
  if (!parsed.success) throw new Error(`${file}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data;
}

const atLeast = (level: CoverageLevel, min: CoverageLevel) => COVERAGE_LEVELS.indexOf(level) >= COVERAGE_LEVELS.indexOf(min);

/** Each milestone with `done` computed from the coverage where it names a capability. */
export function milestoneStatuses(roadmap: RoadmapFile, coverage: CartridgeCoverage[]): MilestoneStatus[] {
  return roadmap.milestones.map((m) => status(m, coverage));
}

function status(m: Milestone, coverage: CartridgeCoverage[]): MilestoneStatus {
  const base = { id: m.id, title: m.title, family: m.family ?? null };
  const when = m.done_when;
  if (!when) return { ...base, done: m.done ?? false, basis: 'declared', evidence: m.evidence ?? '' };
  const meeting = coverage.filter((c) => {
    const s = c.capabilities[when.capability];
    return s !== undefined && atLeast(s.level, when.min_level);
  });
  const reasons: string[] = [];
  let done = true;
  if (!coverage.some((c) => c.capabilities[when.capability])) {
    done = false;
    reasons.push(`no evaluator measures "${when.capability}" yet`);
  } else {
    if (when.languages) {
      const missing = when.languages.filter((iso) => !meeting.some((c) => c.iso === iso));
      if (missing.length > 0) done = false;
      reasons.push(missing.length > 0 ? `${when.capability} below ${when.min_level} in ${missing.join(', ')}` : `${when.capability} at ${when.min_level} or better in ${when.languages.join(', ')}`);
    }
    if (when.at_least) {
      if (meeting.length < when.at_least) done = false;
      reasons.push(`${meeting.length} of ${when.at_least} cartridges needed have ${when.capability} at ${when.min_level} or better`);
    }
  }
  return { ...base, done, basis: 'computed', evidence: reasons.join('; ') };
}

/** The first milestone not done, in roadmap order, or null when all are. */
export function nextMilestone(statuses: MilestoneStatus[]): MilestoneStatus | null {
  return statuses.find((m) => !m.done) ?? null;
}
