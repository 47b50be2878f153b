// Test helper: random strings that a parsed regex matches, made by walking its syntax tree
// (a random branch of each alternation, a random count within each repeat, a random member of
// each class, a random case for caseless letters). Assertions, lookarounds and back references
// are only approximated, so callers keep the strings the compiled regex really matches.
import type { Alternation, Node } from '../../../../daemon/engine/regex/ast.js';
import { addAsciiCaseFold, complement, normalize } from '../../../../daemon/engine/regex/char-set.js';

export type Random = (n: number) => number;

/** A small deterministic generator: random(n) is in 0..n-1. */
export function seededRandom(seed: number): Random {
  let s = seed >>> 0 || 1;
  return (n) => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) % n;
  };
}

/** A string built to match `ast`, or undefined when the walk hit a class with no byte. */
export function generateMatch(ast: Alternation, random: Random): string | undefined {
  const groups: string[] = [];
  try {
    return alternation(ast, random, groups);
  } catch (err) {
    if (err instanceof EmptyClass) return undefined;
    throw err;
  }
}

class EmptyClass extends Error {}

function alternation(alts: Alternation, random: Random, groups: string[]): string {
  return sequence(alts[random(alts.length)], random, groups);
}

function sequence(seq: readonly Node[], random: Random, groups: string[]): string {
  let out = '';
  for (const node of seq) out += item(node, random, groups);
  return out;
}

function item(node: Node, random: Random, groups: string[]): string {
  switch (node.t) {
    case 'char':
      return caseOf(node.code, node.caseless, random);
    case 'set': {
      let set = node.caseless ? addAsciiCaseFold(node.ranges) : normalize(node.ranges);
      if (node.negated) set = complement(set);
      const bytes: number[] = [];
      for (const [lo, hi] of set) for (let c = lo; c <= Math.min(hi, 0xff); c++) bytes.push(c);
      if (bytes.length === 0) throw new EmptyClass();
      return String.fromCharCode(bytes[random(bytes.length)]);
    }
    case 'dot': {
      const c = random(256);
      return String.fromCharCode(!node.dotall && c === 0x0a ? 0x41 : c);
    }
    case 'assert':
      return '';
    case 'backref':
      return groups[node.group] ?? '';
    case 'raw':
      return '\n';
    case 'group': {
      if (node.kind === 'ahead' || node.kind === 'behind' || node.kind === 'nahead' || node.kind === 'nbehind') return '';
      const text = alternation(node.body, random, groups);
      if (node.kind === 'capture') groups[node.index] = text;
      return text;
    }
    case 'repeat': {
      const spread = Math.min(node.max - node.min, 3);
      const count = node.min + random(spread + 1);
      let out = '';
      for (let i = 0; i < count; i++) out += item(node.node, random, groups);
      return out;
    }
  }
}

function caseOf(code: number, caseless: boolean, random: Random): string {
  const isLetter = (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
  if (!caseless || !isLetter || random(2) === 0) return String.fromCharCode(code);
  return String.fromCharCode(code ^ 0x20);
}
