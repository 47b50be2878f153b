// Regex syntax tree -> a necessary literal condition (see condition.ts), in the manner of RE2's
// prefilter: each node yields either an EXACT set (every string the node can match, ASCII-folded,
// when that set is small) or a COND (something every match contains). Sequences multiply exact
// sets while they stay small; alternations unite them; anything optional contributes nothing.
// Soundness is the only hard requirement: whenever unsure, the answer is TRUE ("no filter").
import type { Alternation, Node } from '../regex/ast.js';
import { addAsciiCaseFold, complement, normalize, type Range } from '../regex/char-set.js';
import { and, atom, foldAscii, or, FALSE, TRUE, type Cond } from './condition.js';

/** Largest exact set kept; beyond it the set becomes an OR of its strings. */
const MAX_EXACT = 16;
/** A class of at most this many (folded) bytes is an exact set of one-byte strings. */
const MAX_CLASS_BYTES = 4;
/** A fixed repeat x{n} is expanded only up to this count. */
const MAX_REPEAT_EXPANSION = 8;

type Exact = { exact: ReadonlySet<string> };
type Info = Exact | { cond: Cond };

const isExact = (info: Info): info is Exact => 'exact' in info;

const EMPTY: ReadonlySet<string> = new Set(['']);
const EMPTY_STRING: Info = { exact: EMPTY };
const UNKNOWN: Info = { cond: TRUE };

/** The necessary condition for `ast` to match somewhere in a byte string. */
export function literalCondition(ast: Alternation): Cond {
  return toCond(alternation(ast));
}

function toCond(info: Info): Cond {
  if ('cond' in info) return info.cond;
  if (info.exact.size === 0) return FALSE;
  if (info.exact.has('')) return TRUE;
  // A string containing another string of the set adds nothing to the OR.
  const strings = [...info.exact].sort((a, b) => a.length - b.length);
  const kept: string[] = [];
  for (const s of strings) if (!kept.some((k) => s.includes(k))) kept.push(s);
  return or(kept.map(atom));
}

function alternation(alts: Alternation): Info {
  const infos = alts.map(sequence);
  if (infos.every(isExact)) {
    const union = new Set<string>();
    for (const i of infos) for (const s of i.exact) union.add(s);
    if (union.size <= MAX_EXACT) return { exact: union };
  }
  return { cond: or(infos.map(toCond)) };
}

function sequence(seq: readonly Node[]): Info {
  const required: Cond[] = [];
  let run: ReadonlySet<string> = EMPTY;
  for (const node of seq) {
    const info = item(node);
    if (isExact(info)) {
      const product = cross(run, info.exact);
      if (product !== undefined) run = product;
      else {
        required.push(toCond({ exact: run }));
        run = info.exact;
      }
    } else {
      required.push(toCond({ exact: run }), info.cond);
      run = EMPTY;
    }
  }
  if (required.length === 0) return { exact: run };
  required.push(toCond({ exact: run }));
  return { cond: and(required) };
}

/** a x b when the result stays small, else undefined. */
function cross(a: ReadonlySet<string>, b: ReadonlySet<string>): ReadonlySet<string> | undefined {
  if (a.size * b.size > MAX_EXACT) return undefined;
  const out = new Set<string>();
  for (const x of a) for (const y of b) out.add(x + y);
  return out;
}

function item(node: Node): Info {
  switch (node.t) {
    case 'char':
      return node.code > 0xff ? { exact: new Set() } : { exact: new Set([foldAscii(String.fromCharCode(node.code))]) };
    case 'set':
      return charClass(node.ranges, node.negated, node.caseless);
    case 'dot':
    case 'backref':
    case 'raw':
      return UNKNOWN;
    case 'assert':
      return EMPTY_STRING;
    case 'group':
      switch (node.kind) {
        case 'capture':
        case 'plain':
        case 'atomic':
          return alternation(node.body);
        case 'ahead':
        case 'behind':
          // Zero-width, but what it looks at is in the input too.
          return { cond: toCond(alternation(node.body)) };
        case 'nahead':
        case 'nbehind':
          return EMPTY_STRING;
      }
      return UNKNOWN;
    case 'repeat':
      return repeat(node.node, node.min, node.max);
  }
}

function repeat(inner: Node, min: number, max: number): Info {
  if (max === 0) return EMPTY_STRING;
  const info = item(inner);
  if (min === 0) {
    if (max === 1 && isExact(info) && info.exact.size < MAX_EXACT) return { exact: new Set([...info.exact, '']) };
    return UNKNOWN;
  }
  if (!isExact(info)) return info;
  // min >= 1 copies are always there: expand them while the set stays small.
  let run: ReadonlySet<string> = info.exact;
  let copies = 1;
  while (copies < Math.min(min, MAX_REPEAT_EXPANSION)) {
    const next = cross(run, info.exact);
    if (next === undefined) break;
    run = next;
    copies++;
  }
  if (copies === min && max === min) return { exact: run };
  return { cond: toCond({ exact: run }) };
}

/** The bytes a class can match, folded; a small set is exact, a large one tells nothing. */
function charClass(ranges: readonly Range[], negated: boolean, caseless: boolean): Info {
  let set = caseless ? addAsciiCaseFold(ranges) : normalize(ranges);
  if (negated) set = complement(set);
  const folded = new Set<string>();
  for (const [lo, hi] of set) {
    for (let c = lo; c <= Math.min(hi, 0xff); c++) {
      folded.add(foldAscii(String.fromCharCode(c)));
      if (folded.size > MAX_CLASS_BYTES) return UNKNOWN;
    }
  }
  return { exact: folded };
}
