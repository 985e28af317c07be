/**
 * MCP prompts: ready-made requests a user picks from the client's prompt menu.
 * Each fills in one user message that tells the model which Lugha tools to call,
 * with which arguments, and how to present the answer. Arguments are completable
 * (`language`, `root`, `tense`). A prompt only writes text: prompts/get does no
 * linguistic work and is not counted; the tool calls it leads to are.
 *
 * Tiers as for tools: `conjugation_table` leads to get_paradigm, which generates
 * forms, so an Academic key sees it marked "[Not available to this key …]" and
 * prompts/get refuses it (a JSON-RPC error starting `not_in_tier:`).
 */
import { completable, McpServer, ProtocolError, ProtocolErrorCode, type GetPromptResult } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { Principal } from '../access/key-service.js';
import type { MorphologyService } from '../morphology/service.js';
import type { Services } from '../services.js';
import { mcpRefusal, toolRefusal } from './access.js';
import { completers } from './completions.js';
import type { Authorization } from './server.js';
import { getParadigm } from './tools/get-paradigm.js';

export interface PromptOptions {
  services: Services;
  /** The caller as known when the server is built (shapes the prompt list). */
  principal: Principal;
  authorize: () => Promise<Authorization>;
}

function message(text: string): GetPromptResult {
  return { messages: [{ role: 'user', content: { type: 'text', text } }] };
}

/**
 * The prompts' argument schemas with their completers, built once per service set (the
 * completers read its cartridges, loaded on the first completion; completable() marks the schema
 * object itself, so schemas are not shared between service sets). Over HTTP a server is built per request, and building these zod
 * schemas cost more than the rest of a tool call's server.
 */
const argumentSchemas = new WeakMap<Services, ReturnType<typeof buildArgumentSchemas>>();

function buildArgumentSchemas(morphology: () => MorphologyService) {
  const complete = completers(morphology);
  const language = () => completable(z.string().trim().min(2).max(16).describe('Language code: ISO 639-3 (swh, zul), 639-1 (sw) or a macrolanguage code (swa). Example: swh'), (v) => complete.language(v));
  return {
    conjugationTable: z.object({
      language: language(),
      root: completable(z.string().trim().min(1).max(64).describe('The verb lemma (root), as in the lexicon. Example: penda'), (v, c) => complete.root(v, c)),
      tense: completable(z.string().trim().min(1).max(64).describe('One tense id of the language (get_language_info lists them). Example: future'), (v, c) => complete.tense(v, c)).optional(),
      subject: completable(z.string().trim().min(1).max(8).describe('Only this subject (1sg, 3pl, c7, …), every tense. Example: 1pl'), (v, c) => complete.subject(v, c)).optional(),
    }),
    explainWord: z.object({
      language: language(),
      form: z.string().trim().min(1).max(100).describe('The word to explain, as written. Example: hatutawapenda'),
    }),
    numeralDrill: z.object({
      language: language(),
      count: z
        .string()
        .regex(/^(?:[1-9]|1\d|20)$/)
        .optional()
        .describe('How many questions, 1..20. Example: 5'),
      max: z
        .string()
        .regex(/^[1-9]\d{0,11}$/)
        .optional()
        .describe('The largest number to ask, 1..10^12. Example: 100'),
    }),
  };
}

/** Registers Lugha's prompts on `server`. */
export function registerPrompts(server: McpServer, options: PromptOptions): void {
  const { services } = options;
  let schemas = argumentSchemas.get(services);
  if (!schemas) argumentSchemas.set(services, (schemas = buildArgumentSchemas(() => services.morphology)));
  const installed = (code: string) => {
    const found = services.morphology.engine(code);
    if (!found.ok) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `language_not_found: "${code.slice(0, 40)}" is not an installed language; installed: ${services.morphology
          .languages()
          .map((l) => l.iso)
          .join(', ')}`,
      );
    }
    return found.value;
  };
  /** Key and tier at get time; `generates` names the generative tool the prompt leads to. */
  const admit = async (generates?: typeof getParadigm) => {
    const auth = await options.authorize();
    if (!auth.ok) throw new ProtocolError(ProtocolErrorCode.InvalidRequest, `${auth.code}: ${auth.message}`);
    const refusal = generates ? toolRefusal(auth.principal, generates) : mcpRefusal(auth.principal);
    if (refusal) throw new ProtocolError(ProtocolErrorCode.InvalidRequest, `${refusal.code}: ${refusal.message}`);
  };
  const listedRefusal = toolRefusal(options.principal, getParadigm);

  const tableDescription =
    "A verb's conjugation table in one language: its forms by subject and tense, positive and negative, with English glosses, from get_paradigm. " +
    'Arguments: language (swh), root (the verb lemma, e.g. penda), tense (optional, one tense id, e.g. future), subject (optional, one subject, e.g. 1pl).';
  server.registerPrompt(
    'conjugation_table',
    {
      title: 'Conjugation table for a verb',
      description: listedRefusal ? `[Not available to this key: ${listedRefusal.message}.] ${tableDescription}` : tableDescription,
      argsSchema: schemas.conjugationTable,
      _meta: { 'dev.lugha/generative': true },
    },
    async ({ language: code, root, tense, subject }) => {
      await admit(getParadigm);
      const engine = installed(code);
      const tenses = engine.summary().tenses.map((t) => t.id);
      if (tense && !tenses.includes(tense)) {
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `invalid_parameter: unknown tense "${tense.slice(0, 40)}" for ${engine.iso}; tenses: ${tenses.join(', ')}`);
      }
      const subjects = engine.summary().subjects;
      if (subject && !subjects.includes(subject)) {
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `invalid_parameter: unknown subject "${subject.slice(0, 40)}" for ${engine.iso}; subjects: ${subjects.join(', ')}`);
      }
      const args = JSON.stringify({ language: engine.iso, root, ...(tense ? { tenses: [tense] } : {}), ...(subject ? { subjects: [subject] } : {}), polarity: ['positive', 'negative'] });
      return message(
        `Make a conjugation table of the ${engine.cartridge.metadata.name} verb "${root}"${tense ? ` in the ${tense} tense` : ''}${subject ? ` for the subject ${subject}` : ''}.\n\n` +
          `1. Call get_paradigm with ${args}. If it says the root is not in the lexicon, say the forms are the engine's guesses. If it answers batch_too_large, call it once per tense (get_language_info lists the tense ids).\n` +
          '2. Show one table per tense: rows are the subjects (1sg, 2sg, 3sg, 1pl, 2pl, 3pl, then noun classes), columns positive and negative, each cell the form and its English gloss.\n' +
          '3. Below the table, point out any irregular or surprising form, and name the source the tool gives.\n' +
          'Use only forms the tool returned; never invent one.',
      );
    },
  );

  server.registerPrompt(
    'explain_word',
    {
      title: "Explain a word's morphemes",
      description:
        'Explain a word of a Bantu language morpheme by morpheme: its readings (analyze_form) and the slot-by-slot split of the best one (decompose_morphemes), with what each morpheme means. ' +
        'Arguments: language (swh), form (the word, e.g. hatutawapenda).',
      argsSchema: schemas.explainWord,
      _meta: { 'dev.lugha/generative': false },
    },
    async ({ language: code, form }) => {
      await admit();
      const engine = installed(code);
      const word = JSON.stringify(form);
      return message(
        `Explain the ${engine.cartridge.metadata.name} word ${word} to a learner.\n\n` +
          `1. Call analyze_form with {"language":"${engine.iso}","form":${word}} for its readings, most probable first.\n` +
          `2. Call decompose_morphemes with {"language":"${engine.iso}","form":${word}} for the morphemes of the best reading.\n` +
          '3. Write the word split by hyphens, then one line per morpheme: its form, its slot (subject, negation, tense, object, root, extension, final vowel, …) and what it means. ' +
          'Give the English translation of the whole word. If there are other readings, list them briefly. If the tool marks the root as a guess, say so.\n' +
          `For tense and class names, the grammar summary resource lugha://languages/${engine.iso}/grammar has the ids and labels.`,
      );
    },
  );

  server.registerPrompt(
    'numeral_drill',
    {
      title: 'Numeral drill',
      description:
        'A short quiz on numbers in words in one language: the model picks numbers, you write them in words, and it checks your answers with spell_number. ' +
        'Arguments: language (swh), count (optional, questions, 1..20, default 5), max (optional, largest number, default 100).',
      argsSchema: schemas.numeralDrill,
      _meta: { 'dev.lugha/generative': false },
    },
    async ({ language: code, count, max }) => {
      await admit();
      const engine = installed(code);
      const n = count ?? '5';
      const top = max ?? '100';
      return message(
        `Give me a drill of ${n} numbers in ${engine.cartridge.metadata.name} (${engine.iso}).\n\n` +
          `Pick ${n} different whole numbers from 1 to ${top}, mixing easy and harder ones. Ask them one at a time, as digits; wait for my answer in words.\n` +
          `Check each answer by calling spell_number with {"language":"${engine.iso}","number":"<the number as digits>"}; compare my answer with its \`text\` ` +
          '(ignore capitals and extra spaces), tell me if I was right, and show the correct form with how it is built (units, tens, the connective). ' +
          'At the end give my score. Use only the forms spell_number returns.',
      );
    },
  );
}
