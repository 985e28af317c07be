/** Pieces the tool declarations share: the language argument and the engine lookup. */
import { conjugationParameters, languageCode } from '../../morphology-api.js';
import { wordText } from '../../word-text.js';
import type { MorphologyService } from '../../morphology/service.js';

/** The `language` argument of a tool. */
export const languageArgument = languageCode.describe('Language code: ISO 639-3 (swh, zul, sna, ...), 639-1 (sw, zu) or a macrolanguage code (swa). list_languages gives the installed ones. Example: swh');

/** The arguments of one conjugation besides the language, described for a model (the REST schemas, with tool names and examples). */
export const conjugationArguments = {
  ...conjugationParameters,
  root: conjugationParameters.root.describe('Verb root: `penda`, `-pend-` or the infinitive `kupenda`; search_roots finds lemmas. Example: penda'),
  subject: conjugationParameters.subject.describe('Subject: `1sg`, `2sg`, `3sg`, `1pl`, `2pl`, `3pl`, or a noun class `c1`..`c18` (get_language_info lists them). Example: 3pl'),
  tense: conjugationParameters.tense.describe("Tense id of the language, as get_language_info lists them (default: the language's first tense). Example: future"),
  polarity: conjugationParameters.polarity.describe('positive (default) or negative. Example: negative'),
  object: conjugationParameters.object.describe('Object marker: a person (`1sg`..`3pl`), a noun class (`c7`) or `refl`. Example: c7'),
  head: conjugationParameters.head.describe(
    'Relatives only: the noun class the relative verb qualifies when it is not the subject (an object or place relative: root soma, tense past_relative, subject 1sg, object c7, head c7 gives nilichokisoma). Example: c7',
  ),
  mood: conjugationParameters.mood.describe('Mood (indicative, subjunctive, imperative, ...); picks the first tense of that mood when `tense` is absent. Example: subjunctive'),
  variant: conjugationParameters.variant.describe('A named alternative formation of the tense (e.g. a second negative); get_language_info lists them. Example: unimorph'),
  extensions: conjugationParameters.extensions.describe('Verb extensions, comma-separated: applicative, causative, passive, ... Example: applicative,passive'),
  features: conjugationParameters.features.describe('A UniMorph feature bundle instead of tense/subject/object/polarity. Example: V;IND;FUT;NEG;3;PL'),
  include_tones: conjugationParameters.include_tones.describe('true to add the tonal analysis; `tonal_analysis.status` says whether the language has tone data. Example: true'),
};

/** A word form argument (`form`, `word`): 1..100 characters of text, no control characters. */
export function wordArgument(description: string) {
  return wordText(100).describe(description);
}

/** The engine for `language`, or a failure listing the installed languages (shared with the services). */
export { engineFor } from '../../lexicon-service.js';

/** Languages whose cartridge has `capability`, for "allowed" lists. */
export function languagesWith(morphology: MorphologyService, capability: string): string[] {
  return morphology
    .languages()
    .filter((l) => l.capabilities.includes(capability))
    .map((l) => l.iso);
}

/** The note a summary line carries when its best analysis rests on a root outside the lexicon (a guess). */
export function guessNote(inLexicon: boolean | undefined): string {
  return inLexicon === false ? ' [guess: root not in the lexicon]' : '';
}
