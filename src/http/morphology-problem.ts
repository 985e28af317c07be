/**
 * Service failures (values naming the parameter to fix) as HTTP errors: the one mapping of
 * a `Problem` to problem+json. `invalid_parameter` gets one `errors` entry naming the
 * parameter and, for a closed set, its allowed values; every other code is answered as itself.
 */
import { LughaError } from '../errors.js';
import { problemOf, type Failure, type Result } from '../result.js';
import { parameterProblem, type ParameterLocation } from './problem.js';

/** The HTTP error of a failed service call, its parameter located `where` in the request. */
export function failureError(failure: Failure, where: ParameterLocation, extensions: Record<string, unknown> = {}): LughaError {
  const problem = problemOf(failure);
  if (problem.code !== 'invalid_parameter') return new LughaError(problem.code, problem.message, extensions);
  const entry = parameterProblem(where, problem);
  return new LughaError('invalid_parameter', `${entry.parameter}: ${entry.message}`, { errors: [entry], ...extensions });
}

/** The value of a successful service call; throws the HTTP error of a failed one. */
export function valueOr<T>(outcome: Result<T>, where: ParameterLocation): T {
  if (outcome.ok) return outcome.value;
  throw failureError(outcome, where);
}
