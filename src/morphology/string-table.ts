/**
 * Strings packed as one text and a table of start offsets (string `id` is
 * `text.slice(starts[id], starts[id + 1])`), used by the lexical index.
 */

/** String `id` of the table. */
export function stringAt(text: string, starts: Uint32Array, id: number): string {
  return text.slice(starts[id]!, starts[id + 1]!);
}

/** `key` against string `id` of the table in code-unit order (negative, 0 or positive, as a comparator). */
export function compareAt(key: string, text: string, starts: Uint32Array, id: number): number {
  const start = starts[id]!;
  const length = starts[id + 1]! - start;
  const n = Math.min(key.length, length);
  for (let k = 0; k < n; k++) {
    const d = key.charCodeAt(k) - text.charCodeAt(start + k);
    if (d !== 0) return d;
  }
  return key.length - length;
}
