/**
 * Batch generation over the morphology service: a list of conjugations and/or a
 * paradigm (roots × tenses × polarity × subjects). The size is known before any
 * form is generated, so a caller's limit is checked first; each item then
 * succeeds or fails on its own, and one bad item never fails the batch. The limits
 * a batch is checked against live with the tiers (src/access/plans.ts).
 */
import type { z } from 'zod';
import type { batchItemResultSchema, batchRequestSchema, paradigmSchema } from './morphology-api.js';
import type { ConjugateInput, MorphologyService } from './morphology/service.js';
import { ok, problem, problemOf, type Result } from './result.js';
import { runStepsInSlices, type Steps } from './steps.js';

const lengthOf = (value: unknown): number => (Array.isArray(value) ? value.length : 0);

/**
 * A lower bound of the forms a raw, not yet validated batch request asks for, counted
 * from array lengths alone (no element is looked at): an oversized request is refused
 * by this count before any per-item work. A paradigm's omitted lists count as one.
 */
export function rawBatchSize(body: unknown): number {
  if (body === null || typeof body !== 'object') return 0;
  const { items, paradigm } = body as { items?: unknown; paradigm?: unknown };
  let size = lengthOf(items);
  if (paradigm !== null && typeof paradigm === 'object') {
    const { roots, tenses, subjects, polarity } = paradigm as Record<string, unknown>;
    size += lengthOf(roots) * Math.max(1, lengthOf(tenses)) * Math.max(1, lengthOf(subjects)) * Math.max(1, lengthOf(polarity));
  }
  return size;
}

/** A batch request and its items' results are the types of their API schemas (src/morphology-api.ts). */
export type ParadigmRequest = z.output<typeof paradigmSchema>;
export type BatchRequest = z.output<typeof batchRequestSchema>;
export type BatchItemResult = z.infer<typeof batchItemResultSchema>;

/** A batch ready to run: its language resolved, its paradigm's defaults filled in, its size counted. */
export interface BatchPlan {
  language: string;
  /** Number of forms the batch asks for. */
  size: number;
  /** The conjugations, in result order: the items, then the paradigm. */
  inputs(): Generator<ConjugateInput>;
}

/** Resolves the language and the paradigm's defaults and counts the forms; generates nothing. */
export function planBatch(morphology: MorphologyService, request: BatchRequest): Result<BatchPlan> {
  const found = morphology.engine(request.language);
  if (!found.ok) return problem(found.code, 'language', found.message);
  const engine = found.value;
  if (!engine.cartridge.verbs) return problem('invalid_parameter', 'language', `${engine.cartridge.metadata.name} has no verb grammar yet`);
  const items = request.items ?? [];
  const paradigm = request.paradigm;
  const roots = paradigm?.roots ?? [];
  const subjects = paradigm?.subjects ?? engine.generator.agreementIds;
  const tenses = paradigm?.tenses ?? engine.generator.tenseIds;
  const polarities = paradigm?.polarity ?? ['positive'];
  const size = items.length + roots.length * tenses.length * polarities.length * subjects.length;
  const language = engine.iso;
  return ok({
    language,
    size,
    *inputs() {
      for (const item of items) yield { ...item, language };
      for (const root of roots) {
        for (const tense of tenses) {
          for (const polarity of polarities) {
            for (const subject of subjects) yield { language, root, tense, polarity, subject };
          }
        }
      }
    },
  });
}

/**
 * Generates every form of `plan`, a failed item reported in its place, in slices of about
 * `sliceMs` with a turn of the event loop between them (thousands of forms take hundreds of ms).
 */
export function runBatchInSlices(morphology: MorphologyService, plan: BatchPlan, sliceMs = 10): Promise<BatchItemResult[]> {
  return runStepsInSlices(batchSteps(morphology, plan), sliceMs);
}

/** The batch as steps, one form a step. */
function* batchSteps(morphology: MorphologyService, plan: BatchPlan): Steps<BatchItemResult[]> {
  const results: BatchItemResult[] = [];
  let index = 0;
  for (const input of plan.inputs()) {
    yield;
    const outcome = morphology.conjugate(input);
    results.push(outcome.ok ? { index, ok: true, result: outcome.value } : { index, ok: false, error: problemOf(outcome) });
    index++;
  }
  return results;
}
