/** get_tonal_analysis: the tonal analysis of a conjugated verb form (Analysis, generative: it conjugates the form it analyses). */
import { z } from 'zod';
import { tonalAnalysisInputSchema, tonalAnalysisSchema } from '../../tone/api.js';
import { defineTool, fromService } from '../tool.js';

export const getTonalAnalysis = defineTool({
  name: 'get_tonal_analysis',
  group: 'Analysis',
  title: 'Tonal analysis of a verb form',
  description:
    'Conjugate `root` in `language` (optionally `tense`, `subject`, `object`, `polarity`, as for conjugate_verb; ids from get_language_info) and analyse the tones ' +
    'of the form: each tone-bearing unit with its morph, underlying and surface tone, where the high tone came from, downstep, and the rules that changed it, ' +
    'plus a transcription (acute = high). `status` says whether the cartridge has tone rules (`analysed`) or why not, in `note`.',
  input: tonalAnalysisInputSchema,
  output: z.object({ language: z.string(), surface_form: z.string(), tonal_analysis: tonalAnalysisSchema }),
  // It conjugates `root` before analysing: the form it returns is generated, as conjugate_verb's is.
  generative: true,
  handler: (args, { services }) => fromService(services.tone.tonalAnalysis(args)),
  summary: (r) => `${r.surface_form}: ${r.tonal_analysis.transcription ?? r.tonal_analysis.status}`,
});
