/** Pieces the tool declarations share: the language argument and the engine lookup. */
import { z } from 'zod';
import { languageCode } from '../../morphology-api.js';
import { wordText } from '../../word-text.js';
import type { LanguageEngine, MorphologyService } from '../../morphology/service.js';
import { failure, success, type ToolOutcome } from '../tool.js';

/** The `language` argument of a tool. */
export const languageArgument = languageCode.describe('Language code: ISO 639-3 (swh, zul, sna, ...), 639-1 (sw, zu) or a macrolanguage code (swa). list_languages gives the installed ones.');

/** A word form argument (`form`, `word`): 1..100 characters of text, no control characters. */
export function wordArgument(description: string) {
  return wordText(100).describe(description);
}

/** The engine for `language`, or a failure listing the installed languages. */
export function engineFor(morphology: MorphologyService, language: string): ToolOutcome<LanguageEngine> {
  const found = morphology.engine(language);
  if (found.ok) return success(found.value);
  return failure(found.code, found.message, { parameter: 'language', allowed: morphology.languages().map((l) => l.iso) });
}

/** Languages whose cartridge has `capability`, for "allowed" lists. */
export function languagesWith(morphology: MorphologyService, capability: string): string[] {
  return morphology.languages().filter((l) => l.capabilities.includes(capability)).map((l) => l.iso);
}

export const morphemeSchema = z.object({
  slot: z.string().describe('Slot of the verb template: pre_initial, subject, negation, tam, object, root, extensions, fv, ...'),
  form: z.string(),
  id: z.string().optional().describe('What the morph realises: 1sg, c7, a tense id, negative, refl, ...'),
});

/** The note a summary line carries when its best analysis rests on a root outside the lexicon (a guess). */
export function guessNote(inLexicon: boolean | undefined): string {
  return inLexicon === false ? ' [guess: root not in the lexicon]' : '';
}
