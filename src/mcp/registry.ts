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
import { getSyllableInventory } from './tools/get-syllable-inventory.js';
import { listLanguages } from './tools/list-languages.js';
import { searchRoots } from './tools/search-roots.js';
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
  // Data Access
  getLanguageInfo,
  listLanguages,
  getSyllableInventory,
  getNounClasses,
  // Utility
  searchRoots,
  getCartridgeInfo,
  validateForm,
];
