/**
 * Text that names one written word or root, as every edge (REST, MCP, CLI) accepts it:
 * no control characters (tab, newline, NUL, ...), no line or paragraph separators and no
 * UTF-16 surrogate without its pair. Such characters are never part of a written word;
 * rejecting them at the edge keeps them out of logs, summaries and the engines.
 */
import { z } from 'zod';

const notWordText = /[\p{Cc}\u2028\u2029]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/u;

/** The message of a rejected word, shared by every edge so clients see one explanation. */
export const notWordTextMessage = 'a word has no control characters (tab, newline, NUL, ...) or unpaired surrogates; send the word alone';

/** True when `text` holds a character that no written word contains. */
export function hasNonWordText(text: string): boolean {
  return notWordText.test(text);
}

/** A string of 1..max characters of word text. */
export function wordText(max: number) {
  return z
    .string()
    .min(1)
    .max(max)
    .refine((v) => !notWordText.test(v), { message: notWordTextMessage });
}
