// The parsed form of a PCRE pattern: just what the JS emitter needs, with every inline flag already
// resolved onto the nodes it affects (a literal knows whether it is caseless, a dot whether it is DOTALL).
import type { Range } from './char-set.js';

export type Node =
  | { t: 'char'; code: number; caseless: boolean }
  | { t: 'set'; ranges: Range[]; negated: boolean; caseless: boolean }
  | { t: 'dot'; dotall: boolean }
  | { t: 'assert'; kind: 'start' | 'end' | 'wordb' | 'nonwordb' | 'absstart' | 'absend' | 'endnl'; multiline: boolean }
  | { t: 'backref'; group: number; caseless: boolean }
  | { t: 'group'; kind: 'capture' | 'plain' | 'atomic' | 'ahead' | 'nahead' | 'behind' | 'nbehind'; index: number; body: Alternation }
  | { t: 'repeat'; node: Node; min: number; max: number; mode: 'greedy' | 'lazy' | 'possessive' }
  | { t: 'raw'; source: string };

/** Alternatives, each a sequence of nodes. */
export type Alternation = Node[][];
