/**
 * Rules read as literal text, for the analyzer to undo them (src/morphology/analyzer.ts): the
 * literal strings a rule's pattern matches, the rewrites at a morph's edges, and the stem
 * beginnings a prefix reacts to. Candidates only: the analyzer verifies each by generation.
 */
import type { Rule } from '../cartridge/cartridge.js';

export interface Literal {
  text: string;
  groups: string[];
  anchored: boolean;
}

export interface StemRewrite {
  left: string;
  leftTo: string;
  right: string;
  rightTo: string;
  anchored: boolean;
  /** The rule rewrites the end of an extension (the passive perfect -iwe), not of the root. */
  extension: boolean;
}

/** A rule with literal patterns rewriting a morph's first (start) or last (end) letters; `when`, a lookahead it needs. */
export interface LiteralRewrite {
  from: string;
  to: string;
  edge: 'start' | 'end';
  when?: RegExp;
  /** For an end rewrite, the text the rule needs right after the morph (its right pattern, anchored at the start). */
  before?: RegExp;
  /** The rule's left pattern starts at the morph's start (^letters): the rewrite is the whole morph. */
  anchored?: boolean;
}

/**
 * The literal strings a simple pattern matches: letters, letter classes `[rg]` (ranges `[b-d]`
 * included) and one level of capture groups, each optionally repeated with `+` (read as one or
 * two of it: `f+` is f or ff), after an optional `^` and optional leading lookarounds (conditions
 * that generation checks again). Anything else gives undefined.
 */
export function literalAlternatives(pattern: string, limit = 256): Literal[] | undefined {
  let rest = pattern;
  const anchored = rest.startsWith('^');
  if (anchored) rest = rest.slice(1);
  while (/^\(\?(?:<=|<!|=|!)/u.test(rest)) {
    let depth = 0;
    let end = -1;
    for (let k = 0; k < rest.length; k++) {
      if (rest[k] === '(') depth++;
      else if (rest[k] === ')' && --depth === 0) {
        end = k;
        break;
      }
    }
    if (end < 0) return undefined;
    rest = rest.slice(end + 1);
  }
  // A closing $ (the end of the word) adds no letters: generation checks it again.
  if (rest.endsWith('$') && !rest.endsWith('\\$')) rest = rest.slice(0, -1);
  let alternatives: Literal[] = [{ text: '', groups: [], anchored }];
  const token = /^(?:([\p{L}'])|\[([\p{L}-]+)\]|\(((?:[\p{L}]|\[[\p{L}-]+\])\+?(?:(?:[\p{L}]|\[[\p{L}-]+\])\+?|\|)*)\))([+?]?)/u;
  while (rest.length > 0) {
    const m = token.exec(rest);
    if (!m) return undefined;
    // A group holds letters and classes, each possibly with + (([b-d]+[aeiou]): one captured text each),
    // or alternatives of them ((ile|ē)).
    const inner = m[3] !== undefined ? m[3].split('|').map((alt) => literalAlternatives(alt, limit)?.map((l) => l.text)) : undefined;
    if (inner?.some((alt) => !alt)) return undefined;
    const single = m[1] ? [m[1]] : m[2] ? expandClass(m[2]) : (inner!.flat() as string[]);
    if (single.length === 0) return undefined;
    // x+ is one or two of it, x? none or one.
    const options = m[4] === '+' ? [...single, ...single.map((o) => o + o)] : m[4] === '?' ? ['', ...single] : single;
    const captured = m[3] !== undefined;
    alternatives = alternatives.flatMap((a) => options.map((o) => ({ text: a.text + o, groups: captured ? [...a.groups, o] : a.groups, anchored })));
    if (alternatives.length > limit) return undefined;
    rest = rest.slice(m[0].length);
  }
  return alternatives[0]!.text === '' ? undefined : alternatives;
}

/** The letters of a class body: `rg`, or ranges `b-df-h` (b c d f g h). */
function expandClass(body: string): string[] {
  const out: string[] = [];
  const chars = [...body];
  for (let k = 0; k < chars.length; k++) {
    if (chars[k] === '-') return [];
    if (chars[k + 1] === '-' && chars[k + 2] !== undefined) {
      const from = chars[k]!.codePointAt(0)!;
      const to = chars[k + 2]!.codePointAt(0)!;
      if (to < from || to - from > 26) return [];
      for (let c = from; c <= to; c++) out.push(String.fromCodePoint(c));
      k += 2;
    } else out.push(chars[k]!);
  }
  return out;
}

/** A replacement template with $1..$9 from a literal's groups. */
function fill(template: string, groups: string[]): string {
  return template.replace(/\$(\d)/g, (_, n: string) => groups[Number(n) - 1] ?? '');
}

/**
 * The text itself and what it was before a rule with literal patterns rewrote its
 * edges (ndefu <- ndefu, refu): candidates only, every one is verified by generation.
 */
export function undo(text: string, rewrites: LiteralRewrite[]): string[] {
  const out = new Set([text]);
  for (const { from, to, edge, when, anchored } of rewrites) {
    // A rule with a lookahead (l(?=[aeiou]+[mn]) -> n) is undone where its condition holds, even to nothing.
    if (edge === 'start' && when && text.startsWith(to) && when.test(text.slice(to.length))) out.add(from + text.slice(to.length));
    else if (edge === 'start' && !when && to !== '' && text.startsWith(to)) out.add(from + text.slice(to.length));
    if (edge === 'end' && to !== '' && text.endsWith(to) && (!anchored || text === to)) out.add(text.slice(0, text.length - to.length) + from);
  }
  return [...out];
}

/** Rules rewriting a root's end and the suffix after it, spelled out as literal pairs (see literalAlternatives). */
export function stemRewrites(rules: Rule[]): StemRewrite[] {
  const out: StemRewrite[] = [];
  for (const rule of rules) {
    const leftSlots = [rule.left_slot ?? []].flat();
    if (!(leftSlots.includes('root') || leftSlots.includes('extensions')) || (!rule.right && rule.left_to === undefined)) continue;
    const lefts = literalAlternatives(rule.left);
    // A rule that rewrites the root alone before the final vowel (beer -> badd: abadde) has no right pattern.
    // A closing lookahead on the right (il(?=w?e)) is a condition that generation checks again: its letters are read without it.
    const rights = rule.right ? literalAlternatives(rule.right.replace(/\(\?[=!][^()]*\)$/u, '')) : [{ text: '', groups: [], anchored: false }];
    if (!lefts || !rights) continue;
    for (const l of lefts) {
      for (const r of rights) {
        out.push({
          left: l.text,
          leftTo: rule.left_to === undefined ? l.text : fill(rule.left_to, l.groups),
          right: r.text,
          rightTo: rule.right_to === undefined ? r.text : fill(rule.right_to, r.groups),
          anchored: l.anchored,
          extension: !leftSlots.includes('root'),
        });
      }
    }
  }
  return out;
}

/** Rules with literal patterns (or letters and a lookahead) at a morph's edge, as rewrites that can be undone. */
export function literalRewrites(rules: Rule[]): LiteralRewrite[] {
  const literal = /^[\p{L}']+$/u;
  const rewrites: LiteralRewrite[] = [];
  for (const rule of rules) {
    // A rule rewriting the start of the right morph changes a stem's first letters; one rewriting
    // the end of the left morph can change a root's last letters.
    if (rule.right_to !== undefined && literal.test(rule.right) && literal.test(rule.right_to || 'x')) {
      rewrites.push({ from: rule.right, to: rule.right_to, edge: 'start' });
    }
    // Letters + a lookahead (the Ganda law's l(?=[aeiou]+[mn]), y(?=o|aa)): the lookahead is kept as a condition.
    const conditioned = /^([\p{L}]+)(\(\?[=!].*\))$/u.exec(rule.right ?? '');
    if (conditioned && rule.right_to !== undefined && literal.test(rule.right_to || 'x')) {
      rewrites.push({ from: conditioned[1]!, to: rule.right_to, edge: 'start', when: new RegExp(`^${conditioned[2]!}`, 'u') });
    }
    // Letters that are the whole right morph (z$: a one-consonant root rewritten after a prefix): undone
    // only where nothing follows them in the stem.
    const whole = /^([\p{L}']+)\$$/u.exec(rule.right ?? '');
    if (whole && rule.right_to !== undefined && literal.test(rule.right_to || 'x')) {
      rewrites.push({ from: whole[1]!, to: rule.right_to, edge: 'start', when: /^$/u });
    }
    // ([tkp])h -> $1 (a letter dropped after one of a set): undone once per letter of the set.
    const dropped = /^\(\[([\p{L}]+)\]\)([\p{L}]+)$/u.exec(rule.right);
    if (dropped && rule.right_to === '$1') {
      for (const letter of dropped[1]!) rewrites.push({ from: letter + dropped[2]!, to: letter, edge: 'start' });
    }
    // Letters at the start of the morph (^sebenz: one root's letters a rule rewrites) are undone only where they are the whole text.
    const anchoredLeft = /^\^([\p{L}']+)$/u.exec(rule.left);
    if (rule.left_to !== undefined && (literal.test(rule.left) || anchoredLeft) && literal.test(rule.left_to || 'x')) {
      rewrites.push({ from: anchoredLeft ? anchoredLeft[1]! : rule.left, to: rule.left_to, edge: 'end', before: beforePattern(rule.right), ...(anchoredLeft ? { anchored: true } : {}) });
    }
  }
  return rewrites;
}

/** A rule's right pattern as a test of the text that follows, or undefined when it does not compile. */
function beforePattern(right: string | undefined): RegExp | undefined {
  if (!right) return undefined;
  try {
    return new RegExp(`^(?:${right})`, 'u');
  } catch {
    return undefined;
  }
}

/**
 * A suffix as it reads after a rule rewrote its start (ile > ē): the text itself, and the text
 * as a rule rewriting the end of that rewritten part before what follows rewrites it again
 * (ē + yo > eyo). Candidates only, verified by generation.
 */
export function rewrittenAgain(rewritten: string, rest: string, rewrites: LiteralRewrite[]): string[] {
  const out = new Set([rewritten + rest]);
  for (const { from, to, edge, before } of rewrites) {
    if (edge !== 'end' || !before || rest === '' || !rewritten.endsWith(from) || !before.test(rest)) continue;
    out.add(rewritten.slice(0, rewritten.length - from.length) + to + rest);
  }
  return [...out];
}

/** The consonants (and letter + h, and doubled consonants) at a stem's start that some rule applying by `applies` reacts to. */
export function reactingInitials(rules: Rule[], applies: (rule: Rule) => boolean): string[] {
  const letters = [...'abcdefghijklmnopqrstuvwxyz'];
  const candidates = [...letters, ...letters.map((l) => `${l}h`)];
  const patterns = rules.filter((r) => r.right && applies(r)).map((r) => new RegExp(`^(?:${r.right})`, 'u'));
  // A doubled consonant counts when a rule reacts to it but not to the single letter (a long
  // vowel written short before a geminate: naa + jja > najja).
  const doubled = letters
    .filter((l) => !/[aeiou]/u.test(l))
    .map((l) => `${l}${l}`)
    .filter((c) => patterns.some((p) => p.test(`${c}a`) && !p.test(`${c[0]}a`)));
  return [...new Set([...candidates, ...doubled].filter((c) => patterns.some((p) => p.test(`${c}a`))))];
}
