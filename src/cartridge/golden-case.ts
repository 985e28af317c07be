/**
 * golden.yaml: a cartridge's golden cases, `lemma + cell -> form`, each with its source. The cell
 * is typed and takes its defaults here (word_class verb, polarity positive), so every reader (the
 * runner in golden.ts, the HFST export, coverage) sees the same case.
 */
import { z } from 'zod';

const name = z.string().min(1);

/** The cell of a golden case: the fields of the API's cells (docs/cartridges.md, features.yaml). */
export const goldenCellSchema = z
  .object({
    word_class: name.default('verb'),
    tense: name.optional(),
    polarity: z.enum(['positive', 'negative']).default('positive'),
    /** Agreement id of the subject (1sg .. 3pl, c1 .. c18); of the head noun for other word classes. */
    subject: name.optional(),
    /** Agreement id of the object, or refl. */
    object: name.optional(),
    /** Agreement id of the noun a relative qualifies when it is not the subject (object and place relatives). */
    head: name.optional(),
    variant: name.optional(),
    /** Verb extensions, in the order they apply. */
    extensions: z.array(name).optional(),
    noun_class: name.optional(),
    number: z.enum(['sg', 'pl']).optional(),
    /** A noun's derived form (full, bare, locative, possessive, ...). */
    form: name.optional(),
    /** The possessee's agreement id (possessive forms). */
    possessee: name.optional(),
  })
  .strict();
export type GoldenCell = z.infer<typeof goldenCellSchema>;

/** One case as written. */
export const goldenCaseSchema = z
  .object({
    lemma: name,
    cell: goldenCellSchema,
    form: name,
    /**
     * The English gloss of the form as the source translates it (`they love each other`, `I know`): when
     * given, generation passes only if the engine's gloss (GET /conjugate's `english`) is this one too.
     */
    gloss: name.optional(),
    /** The source of this form (chapter, page); the file's `source` when absent. */
    source: name.optional(),
    /**
     * Why the analyzer does not read this form back yet (an engine gap, named): the case is still
     * generated; its analysis is run and reported `open`, and fails once it passes, so the mark goes.
     */
    analysis_open: name.optional(),
    /**
     * Why the engine's English gloss is not yet the source's (a gap named, e.g. a sense only the sentence decides):
     * the form is still checked; a gloss that differs is reported `open`, and one that matches fails, so the mark goes.
     */
    gloss_open: name.optional(),
  })
  .strict();

/** The file. */
export const goldenSchema = z.object({ source: name, tests: z.array(goldenCaseSchema) }).strict();
export type GoldenTests = z.infer<typeof goldenSchema>;

/** A golden case with its defaults applied: the cell complete, the source its own or the file's. */
export interface GoldenCase {
  lemma: string;
  cell: GoldenCell;
  form: string;
  /** The English gloss the case expects (golden.yaml `gloss`), when it gives one. */
  gloss?: string;
  source: string;
  /** Why the analyzer does not read it back yet (golden.yaml `analysis_open`). */
  analysisOpen?: string;
  /** Why the engine's gloss is not the source's yet (golden.yaml `gloss_open`). */
  glossOpen?: string;
  /** Its position in golden.yaml's `tests` (from 0). */
  index: number;
}

/** The golden cases of a cartridge's golden.yaml (none without one). */
export function goldenCases(golden: GoldenTests | undefined): GoldenCase[] {
  return (golden?.tests ?? []).map((t, index) => ({
    lemma: t.lemma,
    cell: t.cell,
    form: t.form,
    ...(t.gloss ? { gloss: t.gloss } : {}),
    source: t.source ?? golden!.source,
    ...(t.analysis_open ? { analysisOpen: t.analysis_open } : {}),
    ...(t.gloss_open ? { glossOpen: t.gloss_open } : {}),
    index,
  }));
}
