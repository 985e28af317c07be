/** predict_tones: the tone of a word (recorded lexical tone) or of a verb in a conjugated form (Tonal; generative only for a conjugated form). */
import { asksForConjugatedForm, predictTonesInputSchema, predictTonesOutputSchema } from '../../tone/api.js';
import { defineTool, fromService } from '../tool.js';

export const predictTones = defineTool({
  name: 'predict_tones',
  group: 'Tonal',
  title: 'Predict tones',
  description:
    'Tones of a word or a verb form. With `language` and `word` (or a bare `root`): the recorded tone-marked items for it (form, tone pattern, gloss, variety, source) ' +
    'and the root\'s lexical tone in the cartridge (`kind: "lexical"`). With `root` plus any of `tense`, `subject`, `object`, `polarity`: the conjugated form and its ' +
    'tonal analysis, unit by unit with the tone rules that applied (`kind: "conjugated"`; tense ids and subjects from get_language_info; needs a Startup or Enterprise key, as conjugate_verb does). Give a word or a root.',
  input: predictTonesInputSchema,
  output: predictTonesOutputSchema,
  // A recorded lexical tone is a look-up; a conjugated form is generated, as conjugate_verb's is.
  generative: { when: asksForConjugatedForm, modes: 'a root and tense, subject, object or polarity (a conjugated form)' },
  handler: async (args, { services }) => {
    // A recorded tone reads the tone data (in slices, not at once on this call); a conjugated form needs only the engine.
    if (!asksForConjugatedForm(args)) await services.tone.loadInBackground();
    return fromService(services.tone.predictTones(args));
  },
  summary: (r) =>
    r.kind === 'conjugated'
      ? `${r.surface_form ?? ''}: ${r.tonal_analysis?.transcription ?? r.tonal_analysis?.status ?? ''}`
      : `${r.items.length} tone-marked items, ${r.roots.length ? `root tone ${r.roots.map((x) => x.tone).join(', ')}` : 'no root tone in the cartridge'}`,
});
