/** What the language commands share: the morphology service from the cartridges folder, and failures as usage errors. */
import { loadConfig } from '../config.js';
import type { LanguageEngine, MorphologyService } from '../morphology/service.js';
import { problemOf, type Result } from '../result.js';
import { openMorphology } from '../services.js';
import { CliError, EXIT_USAGE } from './output.js';

export interface LanguageOptions {
  language: string;
  languagesDir?: string;
  json?: boolean;
}

/** The morphology service over the configured (or given) cartridges folder; no store is opened. */
export function morphologyFor(options: { languagesDir?: string }): MorphologyService {
  return openMorphology(loadConfig({ flags: { languagesDir: options.languagesDir } }));
}

/** The value of a successful service call; a failure stops the command with exit code 2, naming the parameter. */
export function valueOrUsage<T>(outcome: Result<T>): T {
  if (outcome.ok) return outcome.value;
  const problem = problemOf(outcome);
  // Some messages already list the values ("installed: swh, zul"): list them once.
  const list = problem.allowed?.join(', ') ?? '';
  const allowed = problem.code === 'invalid_parameter' && list !== '' && !problem.message.includes(list) ? ` (allowed: ${list})` : '';
  throw new CliError(`--${problem.parameter.replaceAll('_', '-')}: ${problem.message}${allowed}`, EXIT_USAGE);
}

/** The engine of `language`, or exit code 2 naming the installed languages. */
export function engineOrUsage(morphology: MorphologyService, language: string): LanguageEngine {
  const found = morphology.engine(language);
  if (!found.ok) throw new CliError(`--language: ${found.message}`, EXIT_USAGE);
  return found.value;
}
