// Possessive quantifiers cost a lookahead and a back reference in JavaScript, and a back reference
// keeps V8's linear-time fallback engine away from the whole regex. Where giving characters back
// could never help, a possessive repeat is the same as a greedy one: a single-character item X{n,m}+
// directly followed by a mandatory single character that X cannot match (e.g. \s*+; or \s*+=).
// This pass rewrites those in place, before emission.
import type { Alternation, Node } from './ast.js';
import { addAsciiCaseFold, complement, type Range } from './char-set.js';

export function relaxPossessives(alts: Alternation): void {
  for (const seq of alts) {
    for (let i = 0; i < seq.length; i++) {
      const node = seq[i];
      if (node.t === 'group') relaxPossessives(node.body);
      if (node.t === 'repeat') {
        if (node.node.t === 'group') relaxPossessives(node.node.body);
        if (node.mode === 'possessive') {
          const own = charSet(node.node);
          const next = mandatoryFirst(seq[i + 1]);
          if (own && next && disjoint(own, next)) node.mode = 'greedy';
        }
      }
    }
  }
}

/** The set of characters a single-character node matches, or null if it is not one. */
function charSet(node: Node): Range[] | null {
  switch (node.t) {
    case 'char': {
      const r: Range[] = [[node.code, node.code]];
      return node.caseless ? addAsciiCaseFold(r) : r;
    }
    case 'set': {
      const r = node.caseless ? addAsciiCaseFold(node.ranges) : node.ranges;
      return node.negated ? complement(r) : r;
    }
    case 'dot':
      return node.dotall ? [[0, 0xffff]] : complement([[0x0a, 0x0a]]);
    default:
      return null;
  }
}

/** The set the next node must start with, when it must consume a character right there. */
function mandatoryFirst(node: Node | undefined): Range[] | null {
  if (!node) return null;
  if (node.t === 'repeat') return node.min >= 1 ? charSet(node.node) : null;
  return charSet(node);
}

function disjoint(a: Range[], b: Range[]): boolean {
  return !a.some(([lo, hi]) => b.some(([blo, bhi]) => lo <= bhi && blo <= hi));
}
