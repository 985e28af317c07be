/**
 * Which letters of a written word each canonical morpheme accounts for. The annotated text gives
 * canonical morphemes (`u-mu-phakathi`); the word shows `mphakathi`. A minimum-edit alignment of
 * the word against the concatenated canonical forms assigns each written letter to a morpheme;
 * letters with no canonical counterpart (the `tsh` of `setshenz` for `sebenz`) go with the morpheme
 * before them.
 */

/** The surface string of each morpheme, in order; their concatenation is `word`. */
export function alignSurfaces(word: string, canonicals: readonly string[]): string[] {
  const w = word.toLowerCase();
  const owner: number[] = [];
  let c = '';
  canonicals.forEach((m, i) => {
    const lower = m.toLowerCase();
    c += lower;
    for (let k = 0; k < lower.length; k++) owner.push(i);
  });
  const n = w.length;
  const m = c.length;
  if (canonicals.length === 1) return [word];
  if (w === c) {
    let at = 0;
    return canonicals.map((x) => word.slice(at, (at += x.length)));
  }
  // cost[i][j]: aligning w[0..i) with c[0..j).
  const width = m + 1;
  const cost = new Float64Array((n + 1) * width);
  for (let i = 0; i <= n; i++) cost[i * width] = i;
  for (let j = 0; j <= m; j++) cost[j] = j;
  for (let i = 1; i <= n; i++) {
    for (let j = 1; j <= m; j++) {
      const same = w[i - 1] === c[j - 1];
      const sub = cost[(i - 1) * width + j - 1]! + (same ? 0 : vowel(w[i - 1]!) === vowel(c[j - 1]!) ? 0.9 : 1.4);
      const del = cost[i * width + j - 1]! + 1; // canonical letter not written
      const ins = cost[(i - 1) * width + j]! + 1; // written letter with no canonical counterpart
      cost[i * width + j] = Math.min(sub, del, ins);
    }
  }
  // Trace back: the morpheme of each written letter (-1 = inserted, decided below).
  const letterOwner = new Array<number>(n).fill(-1);
  let i = n;
  let j = m;
  while (i > 0 || j > 0) {
    const here = cost[i * width + j]!;
    if (i > 0 && j > 0) {
      const same = w[i - 1] === c[j - 1];
      const sub = cost[(i - 1) * width + j - 1]! + (same ? 0 : vowel(w[i - 1]!) === vowel(c[j - 1]!) ? 0.9 : 1.4);
      if (Math.abs(sub - here) < 1e-9) {
        letterOwner[i - 1] = owner[j - 1]!;
        i--;
        j--;
        continue;
      }
    }
    if (j > 0 && Math.abs(cost[i * width + j - 1]! + 1 - here) < 1e-9) {
      j--;
      continue;
    }
    // inserted letter: belongs to the morpheme of the canonical letter before it
    letterOwner[i - 1] = j > 0 ? owner[j - 1]! : -1;
    i--;
  }
  // Leading inserted letters go to the first morpheme that owns a letter after them.
  let next = 0;
  for (let k = n - 1; k >= 0; k--) {
    if (letterOwner[k]! >= 0) next = letterOwner[k]!;
    else letterOwner[k] = next;
  }
  // Keep owners monotonic so every morpheme's surface is one contiguous slice.
  for (let k = 1; k < n; k++) if (letterOwner[k]! < letterOwner[k - 1]!) letterOwner[k] = letterOwner[k - 1]!;
  const surfaces = canonicals.map(() => '');
  for (let k = 0; k < n; k++) surfaces[letterOwner[k]!] += word[k]!;
  return surfaces;
}

function vowel(ch: string): boolean {
  return 'aeiou'.includes(ch);
}
