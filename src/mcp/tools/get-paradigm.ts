/** get_paradigm: the forms of one verb across tenses, polarities and subjects (Conjugation, generative). */
import { z } from 'zod';
import { MAX_BATCH_FORMS, planBatch, problemOf } from '../../batch-generation.js';
import { conjugationParameters } from '../../morphology-api.js';
import { defineTool, failure, fromService, success } from '../tool.js';
import { languageArgument } from './common.js';

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
    'each cell with its surface form and English gloss. Narrow `tenses` and `subjects` to stay within the tier batch size (Academic 50, Startup 500 forms); ' +
    'get_language_info lists the tense ids and subjects.',
  input: z
    .object({
      language: languageArgument,
      root: conjugationParameters.root,
      tenses: z.array(z.string().min(1).max(64)).min(1).max(64).optional().describe('Tense ids (default: every tense).'),
      subjects: z.array(z.string().min(1).max(8)).min(1).max(32).optional().describe('Subjects (default: every person and noun class).'),
      polarity: z.array(z.enum(['positive', 'negative'])).min(1).max(2).optional().describe('Default ["positive"].'),
    })
    .strict(),
  output: z.object({
    language: z.string(),
    lemma: z.string(),
    root: z.string(),
    in_lexicon: z.boolean(),
    size: z.number().int(),
    cells: z.array(cell),
  }),
  generative: true,
  handler: ({ language, root, tenses, subjects, polarity }, { services, principal }) => {
    const morphology = services.morphology;
    const planned = fromService(planBatch(morphology, { language, paradigm: { roots: [root], ...(tenses ? { tenses } : {}), ...(subjects ? { subjects } : {}), ...(polarity ? { polarity } : {}) } }));
    if (!planned.ok) return planned;
    const plan = planned.value;
    const limit = Math.min(principal.limits.batchSize ?? MAX_BATCH_FORMS, MAX_BATCH_FORMS);
    if (plan.size > limit) {
      return failure('batch_too_large', `this paradigm has ${plan.size} cells; this key may ask for at most ${limit} forms per call: pass fewer \`tenses\` or \`subjects\``, {
        parameter: 'tenses',
      });
    }
    let head: { lemma: string; root: string; in_lexicon: boolean } | undefined;
    const cells: Array<z.output<typeof cell>> = [];
    for (const input of plan.inputs()) {
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
    if (!head) return failure('invalid_parameter', `no cell of this paradigm has a form: ${cells[0]?.error ?? 'nothing asked for'}`, { parameter: 'tenses' });
    return success({ language: plan.language, ...head, size: plan.size, cells });
  },
  summary: (r) => `${r.lemma}: ${r.cells.filter((c) => c.surface_form).length} of ${r.size} cells`,
});
