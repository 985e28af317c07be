/** Pieces the HFST tools share: a lookup call (analyse or generate) checked against the tier's batch size, and its failures. */
import { MAX_LOOKUP_INPUTS, batchLimit } from '../../access/plans.js';
import type { HfstFailure, HfstLookupInput, HfstLookupOutput } from '../../hfst/service.js';
import { type Result, fail, ok } from '../../result.js';
import { type ToolContext } from '../tool.js';

/** The number of `inputs` raw arguments ask for, counted before validation (ToolDefinition.batchSize). */
export function lookupInputsSize(args: unknown): { size: number; unit: string } {
  const inputs = (args as { inputs?: unknown } | null | undefined)?.inputs;
  return { size: Array.isArray(inputs) ? inputs.length : 0, unit: 'inputs' };
}

const TRUNCATION_REASONS: Record<'depth' | 'results' | 'time', string> = {
  time: 'its time budget ran out',
  depth: 'the search went deeper than the bound (a cyclic or very ambiguous model)',
  results: 'too many partial results',
};

/** The items of a lookup that came back empty because a bound stopped the search, not because the model has nothing. */
export function incompleteInputs(output: HfstLookupOutput): HfstLookupOutput['items'] {
  return output.items.filter((item) => item.truncated !== undefined && item.results.length === 0);
}

/** Runs one lookup for a tool: refuses more inputs than the key's tier allows, and names the argument to fix on failure. */
export async function hfstLookup(args: HfstLookupInput, { services, principal }: ToolContext, direction: 'analyse' | 'generate'): Promise<Result<HfstLookupOutput>> {
  const limit = batchLimit(principal.limits.batchSize, MAX_LOOKUP_INPUTS);
  if (args.inputs.length > limit) {
    return fail('batch_too_large', `this call has ${args.inputs.length} inputs; this key may look up at most ${limit} per call: split \`inputs\` over several calls`, { parameter: 'inputs' });
  }
  const outcome: Result<HfstLookupOutput, HfstFailure> = await (direction === 'analyse' ? services.hfst.analyze(args) : services.hfst.generate(args));
  if (outcome.ok) {
    const cut = incompleteInputs(outcome.value);
    if (cut.length === 0) return ok(outcome.value);
    // An empty answer cut short by a bound is not "no such form": say so, and what to do.
    const reasons = [...new Set(cut.map((i) => i.truncated))].map((r) => TRUNCATION_REASONS[r!]).join('; ');
    const shown = cut
      .slice(0, 5)
      .map((i) => JSON.stringify(i.input))
      .join(', ');
    return fail(
      'lookup_incomplete',
      `the lookup of ${shown}${cut.length > 5 ? ` and ${cut.length - 5} more` : ''} stopped before finding anything (${reasons}), so no answer is known for ${cut.length === 1 ? 'it' : 'them'}: ` +
        'send fewer `inputs` per call, or a more specific analysis string; retrying later may help when the service is busy',
      { parameter: 'inputs' },
    );
  }
  const verb = direction === 'analyse' ? 'analyser' : 'generator';
  const models = services.hfst
    .listModels({ direction })
    .filter((m) => m.usable)
    .map((m) => m.name);
  if (outcome.code === 'model_not_found') {
    const parameter = args.model !== undefined ? 'model' : 'language';
    const hint = models.length ? `give one of the ${verb}s in \`allowed\` as \`model\` (hfst_list_models describes them)` : `no ${verb} is installed on this service, so this tool cannot answer here`;
    return fail('model_not_found', `${outcome.message}; ${hint}`, { parameter, ...(models.length ? { allowed: models } : {}) });
  }
  if (outcome.code === 'model_unreadable') {
    return fail('model_unreadable', `${outcome.message}; choose another ${verb} (hfst_list_models lists the usable ones)`, { parameter: 'model', allowed: models });
  }
  const wrongDirection = args.model !== undefined && /is an? (analyser|generator)/.test(outcome.message);
  return fail('invalid_parameter', wrongDirection ? `${outcome.message}; pass ${direction === 'analyse' ? 'an analyser' : 'a generator'} as \`model\`` : outcome.message, {
    parameter: wrongDirection ? 'model' : (/^([a-z_]+)[.:]/.exec(outcome.message)?.[1] ?? 'model'),
    ...(wrongDirection && models.length ? { allowed: models } : {}),
  });
}
