/**
 * `lugha search-roots`, `lugha noun-classes` and `lugha decompose`: the look-ups of the MCP tools
 * search_roots, get_noun_classes and decompose_morphemes, from the same functions
 * (src/lexicon-service.ts), with the same results (--json prints them as the tools return them).
 */
import type { Command } from 'commander';
import { decompose, lexiconSearchSchema, nounClasses, searchLexicon, type LexiconSearch } from '../lexicon-service.js';
import { fail, ok, type Result } from '../result.js';
import { morphologyFor, valueOrUsage } from './languages.js';
import { CliError, EXIT_USAGE, printJson, table } from './output.js';

interface LookupOptions {
  language: string;
  languagesDir?: string;
  json?: boolean;
}

interface SearchOptions extends LookupOptions {
  wordClass?: string;
  limit?: string;
}

export function registerLexiconCommands(program: Command): void {
  program
    .command('search-roots')
    .description('search a lexicon by the start of a lemma or a word of its English gloss (as the MCP tool search_roots)')
    .argument('<query>', 'the start of a lemma (hyphens are ignored) or an English word of the gloss')
    .requiredOption('--language <iso>', 'language code (swh, sw, zul, ...)')
    .option('--word-class <class>', 'only this word class: verb, noun, adjective, ...')
    .option('--limit <n>', 'most entries to print (default 20, at most 100)')
    .option('--languages-dir <dir>', 'folder of language cartridges')
    .option('--json', 'print the result as JSON')
    .action((query: string, options: SearchOptions) => {
      const search = valueOrUsage(parseSearch(query, options));
      const result = valueOrUsage(searchLexicon(morphologyFor(options), search));
      if (options.json) return printJson(result);
      const rows = result.entries.map((e) => ({ lemma: e.lemma, class: e.word_class, noun_class: e.noun_class ?? '', gloss: e.gloss, match: e.match }));
      process.stdout.write(`${rows.length === 0 ? `no entry of ${result.language} matches "${result.query}"` : table(rows)}\n`);
      if (result.total > rows.length) process.stdout.write(`(${rows.length} of ${result.total}; --limit for more)\n`);
    });

  program
    .command('noun-classes')
    .description("a language's noun classes with their prefixes, concords and sources (as the MCP tool get_noun_classes)")
    .requiredOption('--language <iso>', 'language code (swh, sw, zul, ...)')
    .option('--languages-dir <dir>', 'folder of language cartridges')
    .option('--json', 'print the result as JSON')
    .action((options: LookupOptions) => {
      const result = valueOrUsage(nounClasses(morphologyFor(options), options.language));
      if (options.json) return printJson(result);
      const rows = result.classes.map((c) => ({
        id: c.id,
        number: c.number,
        prefix: c.noun_prefix ?? '',
        concords: Object.entries(c.concords)
          .map(([name, form]) => `${name} ${form}`)
          .join(', '),
      }));
      process.stdout.write(`${table(rows)}\n(source: ${result.source})\n`);
    });

  program
    .command('decompose')
    .description('a word split into its morphemes, one line per analysis, most plausible first (as the MCP tool decompose_morphemes)')
    .argument('<form>', 'the word (or verb with its complement) to decompose')
    .requiredOption('--language <iso>', 'language code (swh, sw, zul, ...)')
    .option('--languages-dir <dir>', 'folder of language cartridges')
    .option('--json', 'print the result as JSON')
    .action((form: string, options: LookupOptions) => {
      const result = valueOrUsage(decompose(morphologyFor(options), form, options.language));
      if (options.json) return printJson(result);
      if (result.decompositions.length === 0) {
        process.stdout.write(`no analysis of "${result.form}" in ${result.language}\n`);
        return;
      }
      // What each morph realises tells apart readings of one segmentation (ku: 2sg or class 15).
      const rows = result.decompositions.map((d) => ({
        segmentation: d.segmentation,
        morphemes: d.words.map((w) => w.morphemes.map((m) => `${m.slot}${m.id ? `=${m.id}` : ''}`).join(' ')).join(' | '),
        lemma: d.lemma,
        gloss: d.gloss ?? '',
        known: d.in_lexicon ? 'lexicon' : 'guess',
      }));
      process.stdout.write(`${table(rows)}\n`);
    });
}

/** The search as the service takes it, checked by its schema; a bad option is a failure naming it. */
function parseSearch(query: string, options: SearchOptions): Result<LexiconSearch> {
  const limit = options.limit === undefined ? undefined : /^\d+$/.test(options.limit) ? Number(options.limit) : NaN;
  const parsed = lexiconSearchSchema.safeParse({
    language: options.language,
    query,
    ...(options.wordClass !== undefined ? { word_class: options.wordClass } : {}),
    ...(limit !== undefined ? { limit } : {}),
  });
  if (parsed.success) return ok(parsed.data);
  const issue = parsed.error.issues[0]!;
  const parameter = String(issue.path[0] ?? 'query');
  // The query is an argument, not an option.
  if (parameter === 'query') throw new CliError(`<query>: ${issue.message}`, EXIT_USAGE);
  return fail('invalid_parameter', issue.message, { parameter });
}
