/**
 * Translates the regular expressions of a cartridge's boundary rules (a subset of JavaScript
 * regex syntax: literals, `.`, character classes with ranges and negation, groups, `|`,
 * `*`, `+`, `?`, `^`, `$`, and lookarounds at the edges of a pattern) into xfst regular
 * expressions over the cartridge's letters, as hfst-regexp2fst reads them. A pattern outside
 * the subset is reported as unsupported, never guessed at.
 */

type Node =
  | { kind: 'char'; value: string }
  | { kind: 'class'; chars: string[]; negated: boolean }
  | { kind: 'any' }
  | { kind: 'group'; index: number | null; body: Node[][] }
  | { kind: 'look'; ahead: boolean; negative: boolean; body: Node[][] }
  | { kind: 'start' }
  | { kind: 'end' }
  | { kind: 'backref'; index: number }
  | { kind: 'repeat'; node: Node; min: number; max: number | null };

/** A parsed pattern: alternatives of sequences. */
export type Pattern = Node[][];

export class UnsupportedPattern extends Error {}

/** Parses a pattern of the supported subset; throws UnsupportedPattern otherwise. */
export function parsePattern(source: string): Pattern {
  let i = 0;
  let groups = 0;
  const chars = [...source];
  const peek = () => chars[i];
  const alternatives = (): Node[][] => {
    const out: Node[][] = [sequence()];
    while (peek() === '|') {
      i++;
      out.push(sequence());
    }
    return out;
  };
  const sequence = (): Node[] => {
    const seq: Node[] = [];
    while (i < chars.length && peek() !== '|' && peek() !== ')') {
      let node = atom();
      const q = peek();
      if (q === '*' || q === '+' || q === '?') {
        i++;
        if (peek() === '?') throw new UnsupportedPattern(`lazy quantifier in ${source}`);
        node = { kind: 'repeat', node, min: q === '+' ? 1 : 0, max: q === '?' ? 1 : null };
      } else if (q === '{') {
        const m = /^\{(\d+)(,(\d*))?\}/u.exec(chars.slice(i).join(''));
        if (!m) throw new UnsupportedPattern(`bad repetition in ${source}`);
        i += [...m[0]].length;
        const min = Number(m[1]);
        node = { kind: 'repeat', node, min, max: m[2] === undefined ? min : m[3] ? Number(m[3]) : null };
      }
      seq.push(node);
    }
    return seq;
  };
  const atom = (): Node => {
    const c = chars[i++]!;
    if (c === '.') return { kind: 'any' };
    if (c === '^') return { kind: 'start' };
    if (c === '$') return { kind: 'end' };
    if (c === '\\' && /[1-9]/u.test(peek() ?? '')) return { kind: 'backref', index: Number(chars[i++]) };
    if (c === '\\') return { kind: 'char', value: escaped() };
    if (c === '[') return charClass();
    if (c === '(') {
      let index: number | null = null;
      let look: { ahead: boolean; negative: boolean } | undefined;
      const rest = chars.slice(i, i + 3).join('');
      if (rest.startsWith('?:')) i += 2;
      else if (rest.startsWith('?=')) {
        look = { ahead: true, negative: false };
        i += 2;
      } else if (rest.startsWith('?!')) {
        look = { ahead: true, negative: true };
        i += 2;
      } else if (rest.startsWith('?<=')) {
        look = { ahead: false, negative: false };
        i += 3;
      } else if (rest.startsWith('?<!')) {
        look = { ahead: false, negative: true };
        i += 3;
      } else if (rest.startsWith('?')) throw new UnsupportedPattern(`group syntax in ${source}`);
      else index = ++groups;
      const body = alternatives();
      if (chars[i++] !== ')') throw new UnsupportedPattern(`unbalanced parenthesis in ${source}`);
      return look ? { kind: 'look', ...look, body } : { kind: 'group', index, body };
    }
    if ('*+?{}|)'.includes(c)) throw new UnsupportedPattern(`unexpected "${c}" in ${source}`);
    return { kind: 'char', value: c };
  };
  const escaped = (): string => {
    const c = chars[i++];
    if (c === undefined || /[a-zA-Z0-9]/u.test(c)) throw new UnsupportedPattern(`escape \\${c ?? ''} in ${source}`);
    return c;
  };
  const charClass = (): Node => {
    const negated = peek() === '^';
    if (negated) i++;
    const set: string[] = [];
    while (i < chars.length && peek() !== ']') {
      let c = chars[i++]!;
      if (c === '\\') c = escaped();
      if (peek() === '-' && chars[i + 1] !== undefined && chars[i + 1] !== ']') {
        const to = chars[i + 1]!;
        i += 2;
        for (let code = c.codePointAt(0)!; code <= to.codePointAt(0)!; code++) set.push(String.fromCodePoint(code));
      } else set.push(c);
    }
    if (chars[i++] !== ']') throw new UnsupportedPattern(`unclosed class in ${source}`);
    return { kind: 'class', chars: set, negated };
  };
  const out = alternatives();
  if (i !== chars.length) throw new UnsupportedPattern(`unbalanced parenthesis in ${source}`);
  return out;
}

/** Quotes one symbol for hfst-regexp2fst. */
export function xfstSymbol(symbol: string): string {
  return `"${symbol.replace(/["\\]/gu, (c) => `\\${c}`)}"`;
}

/** A literal string as a concatenation of its code points (lexc splits text the same way). */
export function xfstString(text: string): string {
  if (text === '') return '0';
  return `[${[...text].map(xfstSymbol).join(' ')}]`;
}

/** The letters a pattern ranges over (`.` and negated classes are taken within them). */
export interface Alphabet {
  letters: readonly string[];
}

export function xfstUnion(symbols: readonly string[]): string {
  return symbols.length === 0 ? '\\?' /* nothing: the complement of any symbol within one symbol */ : `[${symbols.map(xfstSymbol).join(' | ')}]`;
}

function nodeToXfst(node: Node, alphabet: Alphabet): string {
  switch (node.kind) {
    case 'char':
      return xfstSymbol(node.value);
    case 'any':
      return xfstUnion(alphabet.letters);
    case 'class': {
      const set = node.negated ? alphabet.letters.filter((l) => !node.chars.includes(l)) : node.chars;
      return set.length === 0 ? '[0 - 0]' : xfstUnion(set);
    }
    case 'group':
      return patternToXfst(node.body, alphabet);
    case 'repeat': {
      const inner = nodeToXfst(node.node, alphabet);
      if (node.max === null) return node.min === 0 ? `[${inner}]*` : node.min === 1 ? `[${inner}]+` : `[${inner}]^{${node.min},}`;
      if (node.min === 0 && node.max === 1) return `([${inner}])`;
      return `[${inner}]^{${node.min},${node.max}}`;
    }
    default:
      throw new UnsupportedPattern(`${node.kind} inside a pattern`);
  }
}

/** A pattern without anchors or lookarounds as xfst. */
export function patternToXfst(pattern: Pattern, alphabet: Alphabet): string {
  const alts = pattern.map((seq) => (seq.length === 0 ? '0' : seq.map((n) => nodeToXfst(n, alphabet)).join(' ')));
  return alts.length === 1 ? `[${alts[0]}]` : `[${alts.map((a) => `[${a}]`).join(' | ')}]`;
}

/**
 * A rule side split for translation: the part the replacement rewrites (`core`), and what
 * must stand around it (`before`/`after`, as xfst, within the morph), plus the morph-edge
 * anchors. Capturing groups at the edges of the core whose text the replacement copies
 * (`$1…` at the same edge) become context; other references are unsupported.
 */
export interface RuleSide {
  core: string;
  /** The replacement of the core, or undefined when the rule leaves this side alone. */
  to: string | undefined;
  before: string;
  after: string;
  /** `^`: the match starts at the start of the morph. */
  atStart: boolean;
  /** `$`: the match ends at the end of the morph. */
  atEnd: boolean;
  /** The whole matched text (before core after) as xfst, for the rule's context. */
  whole: string;
  /** A negative lookbehind at the start `(?<!X)`: X as xfst (the text before must not end in it). */
  notBefore?: string;
  /** A negative lookahead at the end `(?!X)`: X as xfst (the text after must not start with it). */
  notAfter?: string;
}

/**
 * Replaces each back-reference `\k` whose group `k` (in the same sequence) matches one letter
 * by one alternative per letter: `([aeiou])\1` → `(a)a|(e)e|…`. Returns undefined when the
 * pattern has none; throws UnsupportedPattern for one it cannot expand.
 */
function expandBackrefs(pattern: Pattern, alphabet: Alphabet): { pattern: Pattern; expanded: boolean } {
  let expanded = false;
  const inner = (node: Node): Node => {
    if (node.kind === 'group' || node.kind === 'look') {
      const r = expandBackrefs(node.body, alphabet);
      expanded ||= r.expanded;
      return { ...node, body: r.pattern };
    }
    if (node.kind === 'repeat') return { ...node, node: inner(node.node) };
    return node;
  };
  const out: Node[][] = [];
  for (const original of pattern) {
    const seq = original.map(inner);
    const ref = seq.find((n): n is Extract<Node, { kind: 'backref' }> => n.kind === 'backref');
    if (!ref) {
      out.push(seq);
      continue;
    }
    const at = seq.findIndex((n) => n.kind === 'group' && n.index === ref.index);
    const group = seq[at];
    const only = group?.kind === 'group' && group.body.length === 1 && group.body[0]!.length === 1 ? group.body[0]![0]! : undefined;
    const letters = only?.kind === 'char' ? [only.value] : only?.kind === 'class' ? (only.negated ? alphabet.letters.filter((l) => !only.chars.includes(l)) : only.chars) : undefined;
    if (!letters || seq.filter((n) => n.kind === 'backref').length > 1) throw new UnsupportedPattern('a back-reference to a group of more than one letter');
    expanded = true;
    for (const letter of letters) {
      out.push(seq.map((n, j) => (j === at ? { kind: 'group', index: ref.index, body: [[{ kind: 'char', value: letter }]] } : n.kind === 'backref' ? { kind: 'char', value: letter } : n)));
    }
  }
  return { pattern: out, expanded };
}

/**
 * The sides a rule side becomes: one, or one per letter where a back-reference was expanded at
 * the top level and the replacement copies a group (each letter is then its own rule).
 */
export function ruleSides(source: string, to: string | undefined, alphabet: Alphabet): RuleSide[] {
  const { pattern, expanded } = expandBackrefs(parsePattern(source), alphabet);
  if (expanded && pattern.length > 1 && to !== undefined && /\$\d/u.test(to)) return pattern.map((alt) => sideOf([alt], source, to, alphabet));
  return [sideOf(pattern, source, to, alphabet)];
}

/** Splits `source` (with replacement `to`) into a RuleSide; throws UnsupportedPattern when it cannot. */
export function ruleSide(source: string, to: string | undefined, alphabet: Alphabet): RuleSide {
  return sideOf(parsePattern(source), source, to, alphabet);
}

function sideOf(pattern: Pattern, source: string, to: string | undefined, alphabet: Alphabet): RuleSide {
  let seq: Node[];
  if (pattern.length === 1) seq = [...pattern[0]!];
  else seq = [{ kind: 'group', index: null, body: pattern }];
  let atStart = false;
  let atEnd = false;
  const beforeParts: string[] = [];
  const afterParts: string[] = [];
  let notBefore: string | undefined;
  let notAfter: string | undefined;
  let notWhole: string | undefined;
  // Edge anchors and lookarounds.
  for (;;) {
    const first = seq[0];
    if (first?.kind === 'start') {
      atStart = true;
      seq.shift();
    } else if (first?.kind === 'look' && !first.ahead && !first.negative && !notBefore) {
      beforeParts.push(patternToXfst(first.body, alphabet));
      seq.shift();
    } else if (first?.kind === 'look' && first.ahead && first.negative && atStart && !notWhole && beforeParts.length === 0) {
      // `^(?!X)`: the morph does not start with X (or is not X, where X ends in `$`).
      notWhole = `[${first.body.map((alt) => (alt[alt.length - 1]?.kind === 'end' ? `[${patternToXfst([alt.slice(0, -1)], alphabet)}]` : `[${patternToXfst([alt], alphabet)} ?*]`)).join(' | ')}]`;
      seq.shift();
    } else if (first?.kind === 'look' && !first.ahead && first.negative && !notBefore && beforeParts.length === 0) {
      notBefore = patternToXfst(first.body, alphabet);
      seq.shift();
    } else break;
  }
  for (;;) {
    const last = seq[seq.length - 1];
    if (last?.kind === 'end') {
      atEnd = true;
      seq.pop();
    } else if (last?.kind === 'look' && last.ahead && !last.negative && !notAfter) {
      afterParts.unshift(patternToXfst(last.body, alphabet));
      seq.pop();
    } else if (last?.kind === 'look' && last.ahead && last.negative && !notAfter && afterParts.length === 0) {
      notAfter = patternToXfst(last.body, alphabet);
      seq.pop();
    } else break;
  }
  if (seq.some((n) => n.kind === 'look' || n.kind === 'start' || n.kind === 'end')) throw new UnsupportedPattern(`lookaround or anchor inside ${source}`);
  let replacement = to;
  // Edge groups copied by the replacement become context.
  if (replacement !== undefined) {
    for (;;) {
      const first = seq[0];
      const ref = first?.kind === 'group' && first.index !== null ? `$${first.index}` : undefined;
      if (ref && replacement.startsWith(ref) && replacement.split(ref).length === 2) {
        beforeParts.push(nodeToXfst(first!, alphabet));
        seq.shift();
        replacement = replacement.slice(ref.length);
      } else break;
    }
    for (;;) {
      const last = seq[seq.length - 1];
      const ref = last?.kind === 'group' && last.index !== null ? `$${last.index}` : undefined;
      if (ref && replacement.endsWith(ref) && replacement.split(ref).length === 2) {
        afterParts.unshift(nodeToXfst(last!, alphabet));
        seq.pop();
        replacement = replacement.slice(0, -ref.length);
      } else break;
    }
    if (/\$\d/u.test(replacement)) throw new UnsupportedPattern(`replacement ${to} copies a group from inside ${source}`);
  }
  const core = seq.length === 0 ? '0' : seq.map((n) => nodeToXfst(n, alphabet)).join(' ');
  const before = beforeParts.join(' ');
  const after = afterParts.join(' ');
  return {
    core: `[${core}]`,
    to: replacement,
    before,
    after,
    atStart,
    atEnd,
    whole: notWhole ? `[[${[before, `[${core}]`, after].filter(Boolean).join(' ')}] - ${notWhole}]` : [before, `[${core}]`, after].filter(Boolean).join(' '),
    ...(notBefore ? { notBefore } : {}),
    ...(notAfter ? { notAfter } : {}),
  };
}
