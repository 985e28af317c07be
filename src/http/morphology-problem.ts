/**
 * Morphology failures (values naming the parameter to fix) as HTTP errors: an
 * unknown language is 404 language_not_found, anything else 400 invalid_parameter
 * with one `errors` entry naming the parameter and, for a closed set, its allowed values.
 */
import { problemOf } from '../batch-generation.js';
import { LughaError } from '../errors.js';
import type { MorphologyProblem } from '../morphology/service.js';
import type { ParameterProblem } from './problem.js';

type Outcome<T> = { ok: true; value: T } | { ok: false; code: string; message: string; problem?: MorphologyProblem };

/** The value of a successful service call; throws the HTTP error of a failed one. */
export function valueOr<T>(outcome: Outcome<T>, where: ParameterProblem['in']): T {
  if (outcome.ok) return outcome.value;
  const problem = problemOf(outcome);
  if (problem.code === 'language_not_found') throw new LughaError('language_not_found', problem.message);
  const entry: ParameterProblem = { in: where, parameter: problem.parameter, message: problem.message, ...(problem.allowed?.length ? { allowed: problem.allowed } : {}) };
  throw new LughaError('invalid_parameter', `${entry.parameter}: ${entry.message}`, { errors: [entry] });
}
