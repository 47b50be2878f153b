// For a PCRE syntax tree: a set of bytes such that every match contains at least one of them
// (`(?i)union\s+select` needs one of u/U, ...; `<script` needs '<'), or null when no such set
// is known (the pattern may match the empty string, or only through `.`, back references,
// lookarounds). The rule loop uses it to skip the regex on values that hold none of those
// bytes (rules/byte-gate.ts).
//
// Soundness is the only hard requirement; null is always a correct answer:
// - a literal needs itself (both cases when caseless); a class needs one of its bytes;
// - a sequence needs what any one of its items needs: the most selective item is chosen;
// - an alternation needs the union of what each branch needs (null if one needs nothing);
// - a repeat with min >= 1 needs what its item needs; min 0 needs nothing;
// - assertions, lookarounds, back references, `.` and `\R` contribute nothing.
import type { Alternation, Node } from '../regex/ast.js';
import { addAsciiCaseFold, complement, normalize } from '../regex/char-set.js';

export type ByteSet = ReadonlySet<number>;

/** The bytes of which every match of `ast` contains one, or null. */
export function requiredBytes(ast: Alternation): ByteSet | null {
  return alternation(ast);
}

function alternation(alts: Alternation): ByteSet | null {
  const union = new Set<number>();
  for (const seq of alts) {
    const needs = sequence(seq);
    if (needs === null) return null;
    for (const b of needs) union.add(b);
  }
  return union;
}

function sequence(seq: readonly Node[]): ByteSet | null {
  let best: ByteSet | null = null;
  let bestCost = Infinity;
  for (const node of seq) {
    const needs = item(node);
    if (needs === null) continue;
    const c = cost(needs);
    if (c < bestCost) {
      best = needs;
      bestCost = c;
    }
  }
  return best;
}

function item(node: Node): ByteSet | null {
  switch (node.t) {
    case 'char':
      if (node.code > 0xff) return null;
      return new Set(node.caseless ? withOtherCase(node.code) : [node.code]);
    case 'set':
      return classBytes(node.ranges, node.negated, node.caseless);
    case 'group':
      return node.kind === 'capture' || node.kind === 'plain' || node.kind === 'atomic' ? alternation(node.body) : null;
    case 'repeat':
      return node.min >= 1 && node.max !== 0 ? item(node.node) : null;
    default:
      return null;
  }
}

/** PCRE without UTF mode folds ASCII letters only. */
function withOtherCase(code: number): number[] {
  if (code >= 0x41 && code <= 0x5a) return [code, code + 0x20];
  if (code >= 0x61 && code <= 0x7a) return [code, code - 0x20];
  return [code];
}

/** The bytes a class matches. Code units above 0xff are left out: values holding one are never
 *  gated (byte-gate.ts), so a set of bytes is all a gate needs. */
function classBytes(ranges: Parameters<typeof normalize>[0], negated: boolean, caseless: boolean): ByteSet {
  let set = caseless ? addAsciiCaseFold(ranges) : normalize(ranges);
  if (negated) set = complement(set);
  const bytes = new Set<number>();
  for (const [lo, hi] of set) for (let c = lo; c <= Math.min(hi, 0xff); c++) bytes.add(c);
  return bytes;
}

/** How often a set's bytes turn up in ordinary text (lower = rejects more values): letters,
 *  digits and space are everywhere, common punctuation often, the rest (quotes, brackets,
 *  operators: what attack patterns need) seldom. */
function cost(bytes: ByteSet): number {
  let c = 0;
  for (const b of bytes) c += byteCost(b);
  return c;
}

function byteCost(b: number): number {
  if ((b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a)) return 8;
  if ((b >= 0x30 && b <= 0x39) || b === 0x20) return 10;
  if (b === 0x2e || b === 0x2d || b === 0x5f || b === 0x2c || b === 0x3a || b === 0x2f || b === 0x40) return 4;
  return 1;
}
