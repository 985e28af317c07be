/**
 * Batch generation over the morphology service: a list of conjugations and/or a
 * paradigm (roots × tenses × polarity × subjects). The size is known before any
 * form is generated, so a caller's limit is checked first; each item then
 * succeeds or fails on its own, and one bad item never fails the batch.
 */
import type { Polarity } from './morphology/generator.js';
import type { ConjugateInput, ConjugationResult, MorphologyProblem, MorphologyService } from './morphology/service.js';
import { fail, ok, type Result } from './result.js';

/** The most forms one batch may ask for, whatever the tier: bounds the time and memory of one request. */
export const MAX_BATCH_FORMS = 5000;

export interface ParadigmRequest {
  roots: string[];
  subjects?: string[];
  tenses?: string[];
  polarity?: Polarity[];
}

export interface BatchRequest {
  language: string;
  items?: Array<Omit<ConjugateInput, 'language'>>;
  paradigm?: ParadigmRequest;
}

export type BatchItemResult =
  | { index: number; ok: true; result: ConjugationResult }
  | { index: number; ok: false; error: MorphologyProblem };

/** A batch ready to run: its language resolved, its paradigm's defaults filled in, its size counted. */
export interface BatchPlan {
  language: string;
  /** Number of forms the batch asks for. */
  size: number;
  /** The conjugations, in result order: the items, then the paradigm. */
  inputs(): Generator<ConjugateInput>;
}

type Failure = { ok: false; code: string; message: string; problem?: MorphologyProblem };

/** The problem a failed service call names (every failure of the service names one). */
export function problemOf(failure: Failure): MorphologyProblem {
  return failure.problem ?? { code: failure.code === 'language_not_found' ? 'language_not_found' : 'invalid_parameter', parameter: '(all)', message: failure.message };
}

/** Resolves the language and the paradigm's defaults and counts the forms; generates nothing. */
export function planBatch(morphology: MorphologyService, request: BatchRequest): Result<BatchPlan, string> & { problem?: MorphologyProblem } {
  const found = morphology.engine(request.language);
  if (!found.ok) return { ...fail(found.code, found.message), problem: { code: found.code, parameter: 'language', message: found.message } };
  const engine = found.value;
  if (!engine.cartridge.verbs) {
    const message = `${engine.cartridge.metadata.name} has no verb grammar yet`;
    return { ...fail('invalid_parameter', message), problem: { code: 'invalid_parameter', parameter: 'language', message } };
  }
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

/** Generates every form of `plan`; a failed item is reported in its place. */
export function runBatch(morphology: MorphologyService, plan: BatchPlan): BatchItemResult[] {
  const results: BatchItemResult[] = [];
  let index = 0;
  for (const input of plan.inputs()) {
    const outcome = morphology.conjugate(input);
    results.push(outcome.ok ? { index, ok: true, result: outcome.value } : { index, ok: false, error: problemOf(outcome) });
    index++;
  }
  return results;
}
