/**
 * Completion values for the arguments prompts and resource templates share:
 * `language`, `tense`, `subject`, `root` (and `name` of a doc). Each completer
 * reads the installed cartridges, matches by prefix without case, and never
 * fails: an unknown language in the context completes nothing. The SDK caps a
 * completion at 100 values and reports the total.
 */
import type { MorphologyService } from '../morphology/service.js';

/** What a completer is given besides the typed prefix: the other arguments already chosen. */
export type CompletionContext = { arguments?: Record<string, string> } | undefined;

export type Completer = (value: string, context?: CompletionContext) => string[];

function byPrefix(values: Iterable<string>, prefix: string): string[] {
  const wanted = prefix.trim().toLowerCase();
  const seen = new Set<string>();
  for (const v of values) if (v.toLowerCase().startsWith(wanted)) seen.add(v);
  return [...seen];
}

/**
 * Completers over the installed cartridges; `morphology` is asked for on the first completion, so
 * registering them (every MCP server built) does not load the cartridges.
 */
export function completers(morphology: () => MorphologyService) {
  const engineOf = (context: CompletionContext) => {
    const language = context?.arguments?.language;
    if (!language) return undefined;
    const found = morphology().engine(language);
    return found.ok ? found.value : undefined;
  };
  return {
    /** ISO 639-3 codes of the installed languages, then their ISO 639-1 codes, matched by prefix; a name prefix finds its code too. */
    language: ((value) => {
      const wanted = value.trim().toLowerCase();
      const languages = morphology().languages();
      const codes = byPrefix(
        languages.map((l) => l.iso),
        wanted,
      );
      const short = byPrefix(
        languages.flatMap((l) => (l.iso639_1 ? [l.iso639_1] : [])),
        wanted,
      );
      const named = wanted.length >= 2 ? languages.filter((l) => l.name.toLowerCase().startsWith(wanted)).map((l) => l.iso) : [];
      return [...new Set([...codes, ...named, ...short])];
    }) satisfies Completer,
    /** Tense ids of the language chosen in `language`. */
    tense: ((value, context) =>
      byPrefix(
        engineOf(context)
          ?.summary()
          .tenses.map((t) => t.id) ?? [],
        value,
      )) satisfies Completer,
    /** Subject agreement ids (1sg … 3pl, c1 …) of the language chosen in `language`. */
    subject: ((value, context) => byPrefix(engineOf(context)?.summary().subjects ?? [], value)) satisfies Completer,
    /** Verb lemmas of the lexicon of the language chosen in `language` (hyphens ignored). */
    root: ((value, context) => {
      const engine = engineOf(context);
      if (!engine) return [];
      return byPrefix(
        engine.cartridge.lexicon.filter((e) => e.word_class === 'verb').map((e) => e.lemma),
        value.replace(/-/g, ''),
      ).sort((a, b) => a.length - b.length || a.localeCompare(b));
    }) satisfies Completer,
  };
}
