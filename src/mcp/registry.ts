/**
 * The tool registry: every MCP tool Lugha serves, declared once in its own file
 * under tools/ and listed here. Adding a tool is one file plus one line below.
 */
import type { AnyTool } from './tool.js';
import { analyzeForm } from './tools/analyze-form.js';
import { batchConjugate } from './tools/batch-conjugate.js';
import { conjugateVerb } from './tools/conjugate-verb.js';
import { decomposeMorphemes } from './tools/decompose-morphemes.js';
import { getCartridgeInfo } from './tools/get-cartridge-info.js';
import { getLanguageInfo } from './tools/get-language-info.js';
import { getNounClasses } from './tools/get-noun-classes.js';
import { getParadigm } from './tools/get-paradigm.js';
import { getMinimalPairs } from './tools/get-minimal-pairs.js';
import { getSyllableInventory } from './tools/get-syllable-inventory.js';
import { getTonalAnalysis } from './tools/get-tonal-analysis.js';
import { getTonalPairs } from './tools/get-tonal-pairs.js';
import { hfstAnalyze } from './tools/hfst-analyze.js';
import { hfstGenerate } from './tools/hfst-generate.js';
import { hfstListModels } from './tools/hfst-list-models.js';
import { listLanguages } from './tools/list-languages.js';
import { predictTones } from './tools/predict-tones.js';
import { searchRoots } from './tools/search-roots.js';
import { spellNumber } from './tools/spell-number.js';
import { syllabifyTool } from './tools/syllabify.js';
import { validateForm } from './tools/validate-form.js';

/** Every tool, grouped as the interface contract lists them. */
export const tools: readonly AnyTool[] = [
  // Conjugation
  conjugateVerb,
  batchConjugate,
  getParadigm,
  // Analysis
  analyzeForm,
  decomposeMorphemes,
  syllabifyTool,
  getTonalAnalysis,
  // Data Access
  getLanguageInfo,
  listLanguages,
  getSyllableInventory,
  getNounClasses,
  // Tonal
  getTonalPairs,
  predictTones,
  getMinimalPairs,
  // HFST
  hfstAnalyze,
  hfstGenerate,
  hfstListModels,
  // Utility
  searchRoots,
  getCartridgeInfo,
  validateForm,
  spellNumber,
];
