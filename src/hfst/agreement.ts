/**
 * Checks a built verb transducer against the template engine on the golden paradigms (every
 * cell tense × polarity × subject of every golden verb lemma, and the golden cells
 * themselves): the analyser must give the engine's analysis of each form, the generator must
 * give exactly the engine's form, and every analysis the analyser returns must generate back
 * to the same word in the engine (guesses about a lemma the lexicon lists are left out: the
 * open root class does not know the lexicon's flags). Generic: nothing here names a language.
 */
import type { Cartridge } from '../cartridge/cartridge.js';
import { goldenCases } from '../cartridge/golden.js';
import type { Generator } from '../morphology/generator.js';
import { writtenSpelling } from '../morphology/lexicon-readings.js';
import { cellOfAnalysis, exportVerbLexc } from './cartridge-export.js';
import type { Transducer } from './transducer.js';

export interface Disagreement {
  analysis: string;
  /** The engine's form. */
  engine: string;
  /** What the transducer gives (generator outputs, or the analyser's analyses of the form). */
  transducer: string[];
  problem: 'not_analysed' | 'generated_otherwise' | 'analysis_generates_otherwise';
}

export interface AgreementReport {
  forms: number;
  /** Forms whose analysis the analyser gives. */
  analysed: number;
  /** Forms checked in generation (every form), and those the generator gives exactly. */
  generationChecked: number;
  generated: number;
  /** Forms that pass every check that ran on them. */
  agreed: number;
  /** Analyses returned by the analyser that the engine generates differently. */
  roundTripFailures: number;
  disagreements: Disagreement[];
}

export interface AgreementOptions {
  cartridge: Cartridge;
  generator: Generator;
  analyser: Transducer;
  /** The built generator: every form's analysis is generated through it (`Transducer.outputsOfAll`). */
  generatorModel: Transducer;
  /** Keep at most this many disagreements (default 50). */
  keep?: number;
}

/** The verb lemmas of a cartridge's golden tests. */
export function goldenVerbLemmas(cartridge: Cartridge): string[] {
  return [
    ...new Set(
      goldenCases(cartridge.golden)
        .filter((t) => t.cell.word_class === 'verb')
        .map((t) => t.lemma),
    ),
  ];
}

/** The golden paradigms' forms, as the agreement check reads them. */
function goldenForms(cartridge: Cartridge, generator: Generator) {
  return exportVerbLexc(cartridge, generator, { lemmas: goldenVerbLemmas(cartridge) })?.forms ?? [];
}

/** Runs the three checks over the golden paradigms. */
export function checkAgreement(options: AgreementOptions): AgreementReport {
  const { cartridge, generator, analyser } = options;
  const written = writtenSpelling(generator);
  const forms = goldenForms(cartridge, generator);
  // Generated together: the generator's paths that read no input (the prefixes) are walked once for all forms.
  const generated = options.generatorModel.outputsOfAll(forms.map((f) => f.analysis));
  const keep = options.keep ?? 50;
  const report: AgreementReport = { forms: forms.length, analysed: 0, generationChecked: forms.length, generated: 0, agreed: 0, roundTripFailures: 0, disagreements: [] };
  const note = (d: Disagreement) => {
    if (report.disagreements.length < keep) report.disagreements.push(d);
  };
  for (const form of forms) {
    let ok = true;
    const analyses = analyser.lookup(form.surface).results.map((r) => r.output);
    if (analyses.includes(form.analysis)) report.analysed++;
    else {
      ok = false;
      note({ analysis: form.analysis, engine: form.surface, transducer: analyses.slice(0, 10), problem: 'not_analysed' });
    }
    const outputs = generated.get(form.analysis) ?? [];
    if (outputs.length === 1 && outputs[0] === form.surface) report.generated++;
    else {
      ok = false;
      note({ analysis: form.analysis, engine: form.surface, transducer: outputs, problem: 'generated_otherwise' });
    }
    for (const analysis of new Set(analyses)) {
      const guess = analysis.endsWith('+Guess');
      const parsed = cellOfAnalysis(guess ? analysis.slice(0, -'+Guess'.length) : analysis);
      if (parsed && guess && generator.lexeme(parsed.lemma).inLexicon) continue;
      let surface: string | undefined;
      try {
        surface = parsed ? generator.generate(parsed.lemma, parsed.cell).surface : undefined;
      } catch {
        surface = undefined;
      }
      if (surface === undefined || written(surface) !== form.surface) {
        ok = false;
        report.roundTripFailures++;
        note({ analysis, engine: surface ?? '(no form)', transducer: [form.surface], problem: 'analysis_generates_otherwise' });
      }
    }
    if (ok) report.agreed++;
  }
  return report;
}
