/** syllabify: a word split into syllables by the language's phonology (Analysis, read-only). */
import { fail } from '../../result.js';
import { z } from 'zod';
import type { MorphologyService } from '../../morphology/service.js';
import { defineTool, fromService } from '../tool.js';
import { engineFor, languageArgument, languagesWith, wordArgument } from './common.js';

/** Apostrophe spellings a cartridge's graphemes may use (ng'ombe). */
const APOSTROPHES = ["'", '\u2019', '\u02bc'];

/**
 * The distinct characters of `word` that no grapheme of the language's phonology contains
 * (compared without case and without diacritics, so tone marks pass).
 */
function charactersOutsideOrthography(morphology: MorphologyService, language: string, word: string): string[] {
  const inventory = morphology.syllables(language);
  if (!inventory.ok) return [];
  const bare = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  const { onsets, nuclei, syllabic_nasals, codas } = inventory.value;
  const known = new Set<string>(APOSTROPHES);
  for (const grapheme of [...onsets, ...nuclei, ...syllabic_nasals].map((g) => g.grapheme).concat(codas.graphemes)) {
    for (const c of Array.from(bare(grapheme))) known.add(c);
  }
  const outside = new Set<string>();
  for (const c of Array.from(word.normalize('NFC'))) {
    const b = bare(c);
    if (b === '' || !Array.from(b).every((x) => known.has(x))) outside.add(c);
  }
  return [...outside];
}

export const syllabifyTool = defineTool({
  name: 'syllabify',
  group: 'Analysis',
  title: 'Syllabify a word',
  description:
    "Split a word into syllables using the language's phonology (onsets, nuclei, syllabic nasals, codas). Only languages whose cartridge has a phonology " +
    "can be syllabified; get_language_info lists 'syllables' among their capabilities. A word with characters outside the language's orthography (digits, " +
    'punctuation, spaces, letters it does not use) is refused, naming them.',
  input: z
    .object({
      language: languageArgument,
      word: wordArgument('One word in the standard orthography, e.g. ninapenda.'),
    })
    .strict(),
  output: z.object({ language: z.string(), word: z.string(), syllables: z.array(z.string()), count: z.number().int() }),
  generative: false,
  handler: ({ language, word }, { services }) => {
    const engine = engineFor(services.morphology, language);
    if (!engine.ok) return engine;
    if (!engine.value.phonology) {
      return fail('invalid_parameter', `${engine.value.cartridge.metadata.name} has no phonology yet, so it cannot be syllabified; use a language listed in \`allowed\``, {
        parameter: 'language',
        allowed: languagesWith(services.morphology, 'syllables'),
      });
    }
    // The syllabifier skips what it does not know ('str8 up!' -> str.up): refuse instead, naming the characters.
    const outside = charactersOutsideOrthography(services.morphology, engine.value.iso, word.trim());
    if (outside.length > 0) {
      return fail(
        'invalid_parameter',
        `${JSON.stringify(word.trim())} has ${outside.length === 1 ? 'a character' : 'characters'} outside the ${engine.value.cartridge.metadata.name} orthography (${outside.map((c) => JSON.stringify(c)).join(', ')}); give one word written in its letters`,
        { parameter: 'word' },
      );
    }
    return fromService(services.morphology.syllabify(engine.value.iso, word.trim()), (syllables) => ({ language: engine.value.iso, word: word.trim(), syllables, count: syllables.length }));
  },
  summary: (r) => `${r.word} = ${r.syllables.join('.')}`,
});
