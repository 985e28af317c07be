/** `lugha conjugate`: one verb form with its slots and English gloss, from the same service as GET /conjugate. */
import { Option, type Command } from 'commander';
import type { ConjugationResult, WordView } from '../morphology/service.js';
import { morphologyFor, valueOrUsage, type LanguageOptions } from './languages.js';
import { printJson, table } from './output.js';

interface ConjugateOptions extends LanguageOptions {
  root: string;
  subject?: string;
  tense?: string;
  polarity?: 'positive' | 'negative';
  object?: string;
  head?: string;
  mood?: string;
  variant?: string;
  extensions?: string;
  features?: string;
  includeTones?: boolean;
}

export function registerConjugateCommand(program: Command): void {
  program
    .command('conjugate')
    .description('conjugate a verb: surface form, slots of the verb template and English gloss')
    .requiredOption('--language <iso>', 'language code (swh, sw, ...)')
    .requiredOption('--root <root>', 'verb root: penda, -pend- or kupenda')
    .option('--subject <id>', 'subject: 1sg..3pl or a noun class c1..c18')
    .option('--tense <id>', 'tense id (see GET /api/v1/languages)')
    .addOption(new Option('--polarity <polarity>', 'positive or negative').choices(['positive', 'negative']))
    .option('--object <id>', 'object marker: 1sg..3pl, c1..c18 or refl')
    .option('--head <id>', 'relatives: the class of the noun qualified when it is not the subject (c7 for kitabu nilichokisoma)')
    .option('--mood <mood>', 'mood, when no tense is given')
    .option('--variant <id>', 'an alternative formation of the tense')
    .option('--extensions <list>', 'comma-separated verb extensions (applicative, passive, ...)')
    .option('--features <bundle>', 'a UniMorph feature bundle instead of tense/subject/object/polarity')
    .option('--include-tones', 'add the tonal analysis (tones per syllable, from the cartridge tone data)')
    .option('--languages-dir <dir>', 'folder of language cartridges')
    .option('--json', 'print the conjugation result as JSON')
    .action((options: ConjugateOptions) => {
      const { json, languagesDir, extensions, includeTones, ...input } = options;
      const result = valueOrUsage(
        morphologyFor({ languagesDir }).conjugate({
          ...input,
          ...(extensions
            ? {
                extensions: extensions
                  .split(',')
                  .map((e) => e.trim())
                  .filter(Boolean),
              }
            : {}),
          ...(includeTones ? { include_tones: true } : {}),
        }),
      );
      if (json) printJson(result);
      else process.stdout.write(formatConjugation(result));
    });
}

/** The surface form, the gloss, then each word's slots as a table. */
export function formatConjugation(result: ConjugationResult): string {
  const lines = [result.surface_form, result.english, ''];
  for (const word of result.words) {
    if (result.words.length > 1) lines.push(`${word.surface}:`);
    lines.push(slotTable(word), '');
  }
  if (result.rules_applied.length > 0) lines.push(`rules applied: ${result.rules_applied.join(', ')}`);
  const tones = result.tonal_analysis;
  if (tones.status === 'analysed' && tones.words) {
    lines.push('', `tones: ${tones.transcription_high}`);
    for (const word of tones.words) {
      lines.push(
        table(word.units.map((u) => ({ UNIT: u.text, MORPH: u.morph, UNDERLYING: u.underlying, FROM: u.underlying_from ?? '', SURFACE: u.surface + (u.downstep ? ' (downstep)' : ''), RULES: u.rules.join(', ') }))),
      );
    }
  } else if (tones.status !== 'not_requested') {
    lines.push('', `tones: ${tones.note}`);
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

function slotTable(word: WordView): string {
  return table(Object.entries(word.slots).map(([slot, morph]) => ({ SLOT: slot, FORM: morph.form, MEANS: morph.id ?? '' })));
}
