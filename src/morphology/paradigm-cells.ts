/** The paradigm the analyzer matches against: every cell of the verb paradigm and of the other word classes. */
import { formationUsesHead, type Cell, type Generator } from './generator.js';
import { grammarNounForms } from './nouns.js';

/** Every cell of the verb paradigm and of the other word classes. */
export function enumerateCells(generator: Generator): Cell[] {
  const cells: Cell[] = [];
  const verbs = generator.cartridge.verbs;
  const rows = generator.agreementIds;
  if (verbs) {
    for (const tense of verbs.tenses) {
      for (const polarity of ['positive', 'negative'] as const) {
        for (const variant of [undefined, ...Object.keys(tense.variants)]) {
          const formation = variant ? { ...tense[polarity], ...(tense.variants[variant]?.[polarity] ?? {}) } : tense[polarity];
          if (formation.absent || formation.not_modelled || (variant && !tense.variants[variant]?.[polarity])) continue;
          // A form without a subject concord but with plural marking (the imperative) addresses the 2nd person only.
          const addressees = rows.filter((r) => generator.row(r)?.person === 2);
          const persons = formation.persons;
          const subjects = (!formation.no_subject ? rows : formation.plural_suffix || formation.plural_prefix || formation.fv_plural ? addressees : [undefined]).filter(
            (r) => !persons || r === undefined || persons.includes(generator.row(r)?.person as 1 | 2 | 3),
          );
          for (const subject of subjects) {
            for (const object of [undefined, ...(verbs.reflexive ? ['refl'] : []), ...rows]) {
              cells.push({ word_class: 'verb', tense: tense.id, polarity, ...(subject ? { subject } : {}), ...(object ? { object } : {}), ...(variant ? { variant } : {}) });
            }
            // A relative of object or place agrees with a head other than the subject; its object marker,
            // if any, is the head's (kitabu nilichokisoma, mahali walipofika).
            if (!formationUsesHead(formation)) continue;
            for (const head of rows) {
              // A person's relative concord is its class's (mimi niliye-: -ye- of class 1), so heads are noun classes.
              if (head === subject || generator.row(head)?.class === undefined) continue;
              for (const object of [undefined, head]) {
                cells.push({ word_class: 'verb', tense: tense.id, polarity, ...(subject ? { subject } : {}), ...(object ? { object } : {}), head, ...(variant ? { variant } : {}) });
              }
            }
          }
        }
      }
    }
  }
  for (const wordClass of generator.cartridge.words?.classes ?? []) {
    for (const subject of rows) cells.push({ word_class: wordClass.id, polarity: 'positive', subject });
  }
  const nounClasses = generator.cartridge.nouns?.classes ?? [];
  for (const cls of nounClasses) {
    // A class that is another's plural can be a lemma's own number (amafutha).
    const isPlural = nounClasses.some((c) => c.plural === cls.id);
    for (const number of cls.plural || isPlural ? (['sg', 'pl'] as const) : (['sg'] as const)) {
      for (const form of grammarNounForms(generator.cartridge.nouns)) {
        const possessees = form === 'possessive' || form === 'relative_possessive' ? rows.filter((r) => r.startsWith('c')) : [undefined];
        for (const possessee of possessees) {
          cells.push({ word_class: 'noun', noun_class: cls.id, number, form, polarity: 'positive', ...(possessee ? { possessee } : {}) });
        }
      }
    }
  }
  return cells;
}
