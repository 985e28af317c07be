/**
 * The tone rule types, each implemented once over an autosegmental representation: a word's TBUs,
 * the H tones linked to spans of them, and TBUs specified L. A cartridge lists which rules its
 * language has, in order, with their parameters (src/cartridge/tone.ts); nothing here names a language.
 */
import type { Position, ToneCondition, ToneRule } from '../cartridge/tone.js';
import type { Tbu } from './units.js';

/** An H tone linked to TBUs start..end (inclusive), and where it came from. */
export interface HighTone {
  start: number;
  end: number;
  /** The slot (root, tam, object, ...) or melody that brought it: `root`, `tam`, `melody:<id>`. */
  origin: string;
  /** The slot of the origin, for rule conditions (`melody` for melodies). */
  originSlot: string;
  source: string;
  deleted: boolean;
}

/** The tones of one word while rules apply. */
export interface ToneState {
  units: Tbu[];
  highs: HighTone[];
  /** TBUs specified L, by index. */
  lows: Set<number>;
  /** TBUs realised downstepped. */
  downsteps: Set<number>;
  /** Rule ids that touched each TBU, in order. */
  touched: string[][];
}

export interface RuleContext {
  tense?: string;
  polarity: 'positive' | 'negative';
  wordClass: string;
  depressor?: RegExp;
  /** The TBU index of a position of the word (for rules that place a tone), or undefined when it has none. */
  position?: (position: Position) => number | undefined;
}

/** Whether a condition holds for the word (and, with `high`, for one of its H tones). */
export function conditionHolds(when: ToneCondition | undefined, context: RuleContext, high?: HighTone): boolean {
  if (!when) return true;
  if (when.tense && (!context.tense || !when.tense.includes(context.tense))) return false;
  if (when.not_tense && context.tense && when.not_tense.includes(context.tense)) return false;
  if (when.polarity && when.polarity !== context.polarity) return false;
  if (when.word_class && !when.word_class.includes(context.wordClass)) return false;
  if (when.origin && high && !when.origin.includes(high.originSlot)) return false;
  return true;
}

const active = (state: ToneState) => state.highs.filter((h) => !h.deleted).sort((a, b) => a.start - b.start);

function highAt(state: ToneState, index: number, except?: HighTone): HighTone | undefined {
  return state.highs.find((h) => h !== except && !h.deleted && h.start <= index && index <= h.end);
}

function depressed(state: ToneState, index: number, context: RuleContext): boolean {
  const unit = state.units[index];
  return Boolean(unit && context.depressor && context.depressor.test(unit.onset));
}

/** The last TBU index a rightward movement may reach (or the first a leftward one may). */
function limit(state: ToneState, rule: { reach: number | string; not_final: boolean; direction: 'right' | 'left' }, from: number): number {
  const last = state.units.length - 1;
  if (rule.direction === 'left') return typeof rule.reach === 'number' ? Math.max(0, from - rule.reach) : 0;
  let bound = typeof rule.reach === 'number' ? from + rule.reach : rule.reach === 'penult' ? last - 1 : rule.reach === 'antepenult' ? last - 2 : last;
  if (rule.not_final) bound = Math.min(bound, last - 1);
  return Math.min(bound, last);
}

/** Whether TBU `i` is free for H `high` to move onto. */
function free(state: ToneState, i: number, high: HighTone, context: RuleContext, rule: { blocked_by_depressor: boolean }): boolean {
  if (i < 0 || i >= state.units.length) return false;
  if (state.lows.has(i) || highAt(state, i, high)) return false;
  if (rule.blocked_by_depressor && depressed(state, i, context)) return false;
  return true;
}

function touch(state: ToneState, index: number, id: string): void {
  const list = state.touched[index];
  if (list && list[list.length - 1] !== id) list.push(id);
}

/** Applies one rule; returns whether it changed anything. */
export function applyRule(state: ToneState, rule: ToneRule, context: RuleContext): boolean {
  if (!conditionHolds({ ...rule.when, origin: undefined }, context)) return false;
  const eligible = (h: HighTone) => conditionHolds(rule.when, context, h);
  let changed = false;
  switch (rule.type) {
    case 'spread':
    case 'shift': {
      for (const high of active(state).filter(eligible)) {
        const step = rule.direction === 'right' ? 1 : -1;
        const from = rule.direction === 'right' ? high.end : high.start;
        const bound = limit(state, rule, from);
        let reached = from;
        for (let i = from + step; rule.direction === 'right' ? i <= bound : i >= bound; i += step) {
          if (!free(state, i, high, context, rule)) break;
          if (rule.type === 'spread' && rule.stop_before_h && highAt(state, i + step, high) !== undefined) break;
          reached = i;
        }
        if (reached === from) continue;
        changed = true;
        if (rule.type === 'spread') {
          for (let i = Math.min(from, reached); i <= Math.max(from, reached); i++) if (i !== from) touch(state, i, rule.id);
          if (rule.direction === 'right') high.end = reached;
          else high.start = reached;
        } else {
          for (let i = high.start; i <= high.end; i++) touch(state, i, rule.id);
          touch(state, reached, rule.id);
          high.start = reached;
          high.end = reached;
        }
      }
      break;
    }
    case 'meeussen': {
      let previous: HighTone | undefined;
      for (const high of active(state)) {
        // `underlying` compares with the H just before as it was before this rule (a deleted one too).
        const before = previous;
        if (rule.scope === 'underlying') previous = { ...high };
        if (before && high.start === before.end + 1 && eligible(high)) {
          changed = true;
          touch(state, high.start, rule.id);
          if (rule.effect === 'delete' || high.start === high.end) {
            for (let i = high.start; i <= high.end; i++) touch(state, i, rule.id);
            high.deleted = true;
            continue;
          }
          high.start += 1;
        }
        previous = high;
      }
      break;
    }
    case 'insert': {
      const index = context.position?.(rule.position);
      if (index === undefined || highAt(state, index) || state.lows.has(index)) break;
      if (rule.only_if_toneless && active(state).length > 0) break;
      state.highs.push({ start: index, end: index, origin: `rule:${rule.id}`, originSlot: 'rule', source: rule.source, deleted: false });
      touch(state, index, rule.id);
      changed = true;
      break;
    }
    case 'downstep': {
      let previous: HighTone | undefined;
      for (const high of active(state)) {
        if (previous && high.start === previous.end + 1 && eligible(high) && !state.downsteps.has(high.start)) {
          state.downsteps.add(high.start);
          touch(state, high.start, rule.id);
          changed = true;
        }
        previous = high;
      }
      break;
    }
    case 'depressor': {
      for (const high of active(state).filter(eligible)) {
        if (rule.effect === 'shift') {
          if (high.start === high.end && depressed(state, high.start, context) && free(state, high.start + 1, high, context, { blocked_by_depressor: false })) {
            touch(state, high.start, rule.id);
            high.start += 1;
            high.end += 1;
            touch(state, high.start, rule.id);
            changed = true;
          }
          continue;
        }
        while (!high.deleted && depressed(state, high.start, context)) {
          touch(state, high.start, rule.id);
          changed = true;
          if (high.start === high.end) high.deleted = true;
          else high.start += 1;
        }
        while (!high.deleted && depressed(state, high.end, context)) {
          touch(state, high.end, rule.id);
          changed = true;
          if (high.start === high.end) high.deleted = true;
          else high.end -= 1;
        }
      }
      break;
    }
    case 'final_lowering': {
      const last = state.units.length - 1;
      for (const high of active(state).filter(eligible)) {
        if (high.end !== last) continue;
        if (rule.only_multiply_linked && high.start === high.end) continue;
        touch(state, last, rule.id);
        changed = true;
        if (high.start === high.end) high.deleted = true;
        else high.end -= 1;
      }
      break;
    }
  }
  return changed;
}
