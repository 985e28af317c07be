/**
 * Morphophonological rules at morph boundaries, applied in the cartridge's order.
 * A rule looks at the end of one morph and the start of the next non-empty morph
 * and rewrites the matched parts in place, so every morph keeps its slot and the
 * slot-by-slot breakdown stays true to the surface form.
 */
import type { Rule } from '../cartridge/cartridge.js';

/** One morph of a word form, in its template slot. */
export interface Morph {
  slot: string;
  form: string;
  /** Agreement id or morph name it realises (c7, 1sg, applicative, ...). */
  id?: string;
}

/** What the rules may condition on besides the morphs. */
export interface RuleContext {
  wordClass: string;
  tense?: string;
  polarity: 'positive' | 'negative';
}

interface CompiledRule {
  rule: Rule;
  left: RegExp;
  right: RegExp;
  leftSlots?: Set<string>;
  rightSlots?: Set<string>;
}

const asSet = (v: string | string[] | undefined) => (v === undefined ? undefined : new Set(Array.isArray(v) ? v : [v]));

/** Compiles a cartridge's rules once; throws naming a rule whose pattern is not a valid regex. */
export function compileRules(rules: readonly Rule[]): CompiledRule[] {
  return rules.map((rule) => {
    try {
      return {
        rule,
        left: new RegExp(`(?:${rule.left})$`, 'u'),
        right: new RegExp(`^(?:${rule.right})`, 'u'),
        leftSlots: asSet(rule.left_slot),
        rightSlots: asSet(rule.right_slot),
      };
    } catch (error) {
      throw new Error(`rule ${rule.id}: ${(error as Error).message}`);
    }
  });
}

function applies(c: CompiledRule, left: Morph, right: Morph, context: RuleContext): boolean {
  if (c.leftSlots && !c.leftSlots.has(left.slot)) return false;
  if (c.rightSlots && !c.rightSlots.has(right.slot)) return false;
  const when = c.rule.when;
  if (!when) return true;
  if (when.word_class && !when.word_class.includes(context.wordClass)) return false;
  if (when.tense && (!context.tense || !when.tense.includes(context.tense))) return false;
  if (when.not_tense && context.tense && when.not_tense.includes(context.tense)) return false;
  if (when.polarity && when.polarity !== context.polarity) return false;
  if (when.left_id && (!left.id || !when.left_id.includes(left.id))) return false;
  if (when.right_id && (!right.id || !when.right_id.includes(right.id))) return false;
  return true;
}

/** Applies every rule in order to `morphs` (mutated) and returns the ids of the rules that changed something. */
export function applyRules(rules: readonly CompiledRule[], morphs: Morph[], context: RuleContext): string[] {
  const applied: string[] = [];
  for (const c of rules) {
    for (let i = 0; i < morphs.length; i++) {
      const left = morphs[i]!;
      if (left.form === '') continue;
      let j = i + 1;
      while (j < morphs.length && morphs[j]!.form === '') j++;
      if (j >= morphs.length) break;
      const right = morphs[j]!;
      if (!applies(c, left, right, context)) continue;
      const l = c.left.exec(left.form);
      const r = c.right.exec(right.form);
      if (!l || !r) continue;
      const newLeft = left.form.slice(0, l.index) + (c.rule.left_to === undefined ? l[0] : expand(c.rule.left_to, l));
      const newRight = (c.rule.right_to === undefined ? r[0] : expand(c.rule.right_to, r)) + right.form.slice(r[0].length);
      if (newLeft === left.form && newRight === right.form) continue;
      left.form = newLeft;
      right.form = newRight;
      if (!applied.includes(c.rule.id)) applied.push(c.rule.id);
    }
  }
  return applied;
}

/** A replacement with $1..$9 taken from the match's groups (the match keeps its context, e.g. lookbehind). */
function expand(template: string, match: RegExpExecArray): string {
  return template.replace(/\$(\d)/g, (_, n: string) => match[Number(n)] ?? '');
}

export type { CompiledRule };
