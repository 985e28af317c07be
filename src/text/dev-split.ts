/**
 * The development split of an annotated text: a paragraph belongs to the dev part when the FNV-1a
 * hash of its id is 0 modulo 10 (about 10% of the paragraphs, the same on every machine and for
 * every file order). The learn script leaves it out with `--holdout dev`; `lugha eval text
 * --part dev` scores only it.
 */
export function isDevParagraph(id: string): boolean {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    hash ^= id.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % 10 === 0;
}
