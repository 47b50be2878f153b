// AST -> JavaScript RegExp source (no `u` flag: a char code is a byte). PCRE features V8 lacks are
// rewritten: atomic groups and possessive quantifiers become (?=(X))\n, which cannot be backtracked
// into; scoped case-insensitivity becomes [xX] classes; PCRE's \s, \h, \v, \R become explicit sets.
// Emitting every non-alphanumeric character as \xNN keeps JS's own escape rules out of the picture.
import type { Alternation, Node } from './ast.js';
import { addAsciiCaseFold, type Range } from './char-set.js';
import { PcreSyntaxError } from './escapes.js';

export interface Emitted {
  source: string;
  flags: string;
  /** captureMap[n] = the JS group holding PCRE group n (index 0 is the whole match). */
  captureMap: number[];
}

export function emitJs(ast: Alternation, groupCount: number): Emitted {
  const caseMode = chooseCaseMode(ast);
  const captureMap = new Array<number>(groupCount + 1).fill(0);
  const wrappers = new Map<Node, number>();
  let next = 0;
  // First pass: number groups in the order their '(' will appear in the output.
  const number = (alts: Alternation): void => {
    for (const seq of alts) for (const node of seq) numberNode(node);
  };
  const numberNode = (node: Node): void => {
    if (node.t === 'group') {
      if (node.kind === 'capture') captureMap[node.index] = ++next;
      else if (node.kind === 'atomic') wrappers.set(node, ++next);
      number(node.body);
    } else if (node.t === 'repeat') {
      if (node.mode === 'possessive') wrappers.set(node, ++next);
      numberNode(node.node);
    }
  };
  number(ast);

  const expand = caseMode === 'expand';
  const alternation = (alts: Alternation): string => alts.map((seq) => seq.map(emitNode).join('')).join('|');
  const emitNode = (node: Node): string => {
    switch (node.t) {
      case 'char':
        if (expand && node.caseless && isAsciiLetter(node.code)) {
          return `[${String.fromCharCode(node.code & ~0x20)}${String.fromCharCode(node.code | 0x20)}]`;
        }
        return escapeCode(node.code);
      case 'set': {
        const ranges = expand && node.caseless ? addAsciiCaseFold(node.ranges) : node.ranges;
        return `[${node.negated ? '^' : ''}${ranges.map(emitRange).join('')}]`;
      }
      case 'dot':
        return node.dotall ? '[\\s\\S]' : '[^\\n]';
      case 'assert':
        return emitAssert(node);
      case 'backref':
        if (expand && node.caseless) throw new PcreSyntaxError('a caseless back reference inside a pattern that mixes case modes is not supported');
        return `(?:\\${captureMap[node.group]})`;
      case 'group': {
        const body = alternation(node.body);
        switch (node.kind) {
          case 'capture': return `(${body})`;
          case 'plain': return `(?:${body})`;
          case 'ahead': return `(?=${body})`;
          case 'nahead': return `(?!${body})`;
          case 'behind': return `(?<=${body})`;
          case 'nbehind': return `(?<!${body})`;
          case 'atomic': return `(?:(?=(${body}))\\${wrappers.get(node)})`;
        }
        break;
      }
      case 'repeat': {
        const inner = node.node;
        const atom = isAtom(inner) ? emitNode(inner) : `(?:${emitNode(inner)})`;
        const q = quantifier(node.min, node.max);
        if (node.mode === 'possessive') return `(?:(?=(${atom}${q}))\\${wrappers.get(node)})`;
        return atom + q + (node.mode === 'lazy' ? '?' : '');
      }
      case 'raw':
        return node.source;
    }
    throw new Error('unreachable');
  };
  return { source: alternation(ast), flags: caseMode === 'flag' ? 'si' : 's', captureMap };
}

function isAtom(node: Node): boolean {
  if (node.t === 'char' || node.t === 'set' || node.t === 'dot' || node.t === 'backref') return true;
  return node.t === 'group' && (node.kind === 'capture' || node.kind === 'plain' || node.kind === 'atomic');
}

function quantifier(min: number, max: number): string {
  if (min === 0 && max === Infinity) return '*';
  if (min === 1 && max === Infinity) return '+';
  if (min === 0 && max === 1) return '?';
  if (min === max) return `{${min}}`;
  return max === Infinity ? `{${min},}` : `{${min},${max}}`;
}

function emitAssert(node: Extract<Node, { t: 'assert' }>): string {
  switch (node.kind) {
    case 'start': return node.multiline ? '(?:^|(?<=\\n))' : '^';
    // ModSecurity compiles with PCRE_DOLLAR_ENDONLY; multiline mode overrides it, as in PCRE.
    case 'end': return node.multiline ? '(?=\\n|$)' : '$';
    case 'absstart': return '^';
    case 'absend': return '$';
    case 'endnl': return '(?=\\n?$)';
    case 'wordb': return '\\b';
    case 'nonwordb': return '\\B';
  }
}

function isAsciiLetter(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

const BYTE_ESCAPES = Array.from({ length: 256 }, (_, c) =>
  (c >= 0x30 && c <= 0x39) || isAsciiLetter(c) ? String.fromCharCode(c) : '\\x' + c.toString(16).padStart(2, '0'));

function escapeCode(c: number): string {
  if (c < 0x100) return BYTE_ESCAPES[c];
  return '\\u' + c.toString(16).padStart(4, '0');
}

function emitRange([lo, hi]: Range): string {
  if (lo === hi) return escapeCode(lo);
  return `${escapeCode(lo)}-${escapeCode(hi)}`;
}

/**
 * 'expand' (caseless letters become [xX] classes) whenever the pattern has a caseless part: V8's
 * linear-time engine, the only bound on a backtracking blow-up (../regex-safety.ts), refuses every
 * regex with the `i` flag in Node 20, and expanded classes fold exactly like PCRE's ASCII tables.
 * 'flag' only for a caseless back reference, which no class can fold: then JS's `i` flag is kept if
 * every caseless node folds under it as PCRE folds and every case-sensitive node is unaffected by it
 * (its set is already closed under JS's folding, like \d or \w). 'none' when nothing is caseless.
 */
function chooseCaseMode(ast: Alternation): 'flag' | 'none' | 'expand' {
  let caseless = 0, caselessBackref = false, blocksFlag = false;
  const visit = (node: Node): void => {
    switch (node.t) {
      case 'char':
      case 'set': {
        const ranges: readonly Range[] = node.t === 'char' ? [[node.code, node.code]] : node.ranges;
        if (node.caseless) {
          caseless++;
          if (!iFlagMatches(ranges, true)) blocksFlag = true;
        } else if (!iFlagMatches(ranges, false)) {
          blocksFlag = true;
        }
        return;
      }
      case 'backref':
        if (node.caseless) { caseless++; caselessBackref = true; } else blocksFlag = true;
        return;
      case 'group': for (const seq of node.body) seq.forEach(visit); return;
      case 'repeat': visit(node.node); return;
    }
  };
  for (const seq of ast) seq.forEach(visit);
  if (caseless === 0) return 'none';
  return caselessBackref && !blocksFlag ? 'flag' : 'expand';
}

const foldVerdicts = new Map<string, boolean>();

/**
 * Whether a class under JS's `i` flag matches exactly the bytes PCRE matches: with ASCII case
 * folding when `caseless`, or the class itself when not.
 */
function iFlagMatches(ranges: readonly Range[], caseless: boolean): boolean {
  const letters = ranges.some(([lo, hi]) => (lo <= 0x7a && hi >= 0x41) || (hi >= 0x80 && lo <= 0x3ff));
  if (!letters) return true;
  if (caseless && !ranges.some(([lo, hi]) => hi >= 0x80 && lo <= 0x3ff)) return true; // ASCII: identical folding
  const key = `${caseless ? 'i' : 'c'}${ranges.join(';')}`;
  let verdict = foldVerdicts.get(key);
  if (verdict === undefined) foldVerdicts.set(key, (verdict = checkFolding(ranges, caseless ? addAsciiCaseFold(ranges) : ranges)));
  return verdict;
}

function checkFolding(ranges: readonly Range[], expected: readonly Range[]): boolean {
  const has = (c: number) => ranges.some(([lo, hi]) => c >= lo && c <= hi);
  const expect = (c: number) => expected.some(([lo, hi]) => c >= lo && c <= hi);
  for (let b = 0; b <= 0xff; b++) {
    const canon = jsCanonicalize(b);
    let js = false;
    for (const m of [b, canon, ...sameCanonical(canon)]) if (has(m) && jsCanonicalize(m) === canon) js = true;
    if (js !== expect(b)) return false;
  }
  return true;
}

function jsCanonicalize(c: number): number {
  const up = String.fromCharCode(c).toUpperCase();
  if (up.length !== 1) return c;
  const cu = up.charCodeAt(0);
  return c >= 128 && cu < 128 ? c : cu;
}

function sameCanonical(canon: number): number[] {
  const lower = String.fromCharCode(canon).toLowerCase().charCodeAt(0);
  return canon === 0x39c ? [lower, 0xb5] : [lower];
}
