/** get_paradigm: the forms of one verb across tenses, polarities and subjects (Conjugation, generative). */
import { z } from 'zod';
import { MAX_BATCH_FORMS, batchLimit } from '../../access/plans.js';
import { planBatch } from '../../batch-generation.js';
import { problemOf, fail, ok } from '../../result.js';
import { conjugationParameters } from '../../morphology-api.js';
import { defineTool, fromService } from '../tool.js';
import { languageArgument } from './common.js';
import { EXAMPLE_LANGUAGE } from '../argument-docs.js';

/** Cells a call returns unless `max_cells` asks for more. */
const DEFAULT_CELLS = 100;

const cell = z.object({
  tense: z.string(),
  polarity: z.enum(['positive', 'negative']),
  subject: z.string(),
  surface_form: z.string().optional(),
  english: z.string().optional(),
  error: z.string().optional().describe('Why this cell has no form (e.g. the tense has no negative).'),
});

export const getParadigm = defineTool({
  name: 'get_paradigm',
  group: 'Conjugation',
  title: 'Verb paradigm',
  description:
    'The paradigm of one verb as a table: every subject × tense × polarity you ask for (default: every subject and tense of the language, positive only), ' +
    'each cell with its surface form and English gloss, in the order tense, polarity, subject. A call returns at most `max_cells` cells (default 100) from ' +
    '`from_cell` (default 0); `size` is the whole table and `next_from_cell` where the next call starts (null at the end). Narrow `tenses` and `subjects` ' +
    'for a smaller table; get_language_info lists the tense ids and subjects. Example: {"language":"' +
    EXAMPLE_LANGUAGE +
    '","root":"penda","tenses":["present","past"],"subjects":["1sg","3pl"]}.',
  input: z
    .object({
      language: languageArgument,
      root: conjugationParameters.root,
      tenses: z.array(z.string().min(1).max(64)).min(1).max(64).optional().describe('Tense ids (default: every tense).'),
      subjects: z.array(z.string().min(1).max(8)).min(1).max(32).optional().describe('Subjects (default: every person and noun class).'),
      polarity: z
        .array(z.enum(['positive', 'negative']))
        .min(1)
        .max(2)
        .optional()
        .describe('Default ["positive"]. Example: ["positive","negative"]'),
      from_cell: z.number().int().min(0).max(MAX_BATCH_FORMS).optional().describe('The first cell to return, from 0 (default 0): the `next_from_cell` of the previous call. Example: 100'),
      max_cells: z.number().int().min(1).max(MAX_BATCH_FORMS).optional().describe(`Most cells to return (default ${DEFAULT_CELLS}); at most the key's batch size (Startup 500). Example: 200`),
    })
    .strict(),
  output: z.object({
    language: z.string(),
    lemma: z.string(),
    root: z.string(),
    in_lexicon: z.boolean(),
    size: z.number().int().describe('Cells of the whole table.'),
    from_cell: z.number().int().describe('Index of the first cell returned.'),
    next_from_cell: z.number().int().nullable().describe('Pass as `from_cell` for the next cells; null when this call reached the end.'),
    cells: z.array(cell),
  }),
  generative: true,
  handler: ({ language, root, tenses, subjects, polarity, from_cell: from = 0, max_cells: wanted = DEFAULT_CELLS }, { services, principal }) => {
    const morphology = services.morphology;
    const planned = fromService(planBatch(morphology, { language, paradigm: { roots: [root], ...(tenses ? { tenses } : {}), ...(subjects ? { subjects } : {}), ...(polarity ? { polarity } : {}) } }));
    if (!planned.ok) return planned;
    const plan = planned.value;
    const limit = batchLimit(principal.limits.batchSize);
    if (wanted > limit) {
      return fail('batch_too_large', `max_cells ${wanted} is more than the ${limit} forms this key may ask for per call: pass a \`max_cells\` of at most ${limit} and page with \`from_cell\``, {
        parameter: 'max_cells',
      });
    }
    if (from >= plan.size && plan.size > 0) {
      return fail('invalid_parameter', `from_cell ${from} is past the end of this table of ${plan.size} cells (0..${plan.size - 1})`, { parameter: 'from_cell' });
    }
    const end = Math.min(plan.size, from + wanted);
    let head: { lemma: string; root: string; in_lexicon: boolean } | undefined;
    const cells: Array<z.output<typeof cell>> = [];
    let index = -1;
    for (const input of plan.inputs()) {
      index++;
      if (index < from) continue;
      if (index >= end) break;
      const outcome = morphology.conjugate(input);
      const where = { tense: input.tense!, polarity: input.polarity!, subject: input.subject! };
      if (outcome.ok) {
        head ??= { lemma: outcome.value.lemma, root: outcome.value.root, in_lexicon: outcome.value.in_lexicon };
        cells.push({ ...where, surface_form: outcome.value.surface_form, english: outcome.value.english });
      } else {
        const problem = problemOf(outcome);
        // A bad root or tense fails every cell alike: that is the caller's error, not a gap in the table.
        if (problem.parameter === 'root' || (problem.parameter === 'tense' && problem.allowed)) return fromService(outcome);
        cells.push({ ...where, error: problem.message });
      }
    }
    if (!head) return fail('invalid_parameter', `no cell of this paradigm has a form: ${cells[0]?.error ?? 'nothing asked for'}`, { parameter: 'tenses' });
    return ok({ language: plan.language, ...head, size: plan.size, from_cell: from, next_from_cell: end < plan.size ? end : null, cells });
  },
  summary: (r) =>
    `${r.lemma}: cells ${r.from_cell}–${r.from_cell + r.cells.length - 1} of ${r.size} (${r.cells.filter((c) => c.surface_form).length} with a form)` +
    (r.next_from_cell === null ? '' : `; call again with from_cell ${r.next_from_cell} for the rest`),
});
