// PCRE (8.x / 10.x without UTF mode) pattern -> AST. Inline options ((?i), (?i:...), (?-s), (?x), (?m))
// are resolved here onto each node, so the emitter never has to know about option scopes.
// Constructs JavaScript cannot express faithfully (recursion, conditionals, \K, \G, verbs) are
// rejected with a message that names them: a rule that uses one fails at load, not per request.
import type { Alternation, Node } from './ast.js';
import { escapeClass, type Range } from './char-set.js';
import { censusGroups, type GroupCensus } from './prescan.js';
import { parseClass } from './parse-class.js';
import { readCharEscape, PcreSyntaxError } from './escapes.js';

export interface Options {
  caseless: boolean;
  dotall: boolean;
  multiline: boolean;
  extended: boolean;
}

export interface ParsedPattern {
  ast: Alternation;
  groupCount: number;
}

export function parsePcre(src: string, initial: Options): ParsedPattern {
  const parser = new Parser(src, censusGroups(src));
  const ast = parser.alternation({ ...initial });
  if (parser.pos < src.length) throw new PcreSyntaxError(`unmatched ')' at offset ${parser.pos}`);
  return { ast, groupCount: parser.groups };
}

const QUANTIFIER = /\{(\d+)(?:(,)(\d*))?\}/y;
const DIGITS = /\d+/y;
const GROUP_REF = /\\([gk])(?:\{(-?\d+|[A-Za-z_]\w*)\}|<([A-Za-z_]\w*)>|'([A-Za-z_]\w*)'|(-?\d+))/y;
const NAMED_GROUP = /\(\?(?:P?<[A-Za-z_]\w*>|'[A-Za-z_]\w*')/y;
const NAMED_BACKREF = /\(\?P=([A-Za-z_]\w*)\)/y;
const OPTION_SETTING = /\(\?([imsxJX]*)(?:-([imsxJX]*))?([:)])/y;

class Parser {
  pos = 0;
  groups = 0;

  constructor(readonly src: string, readonly census: GroupCensus) {}

  alternation(opts: Options): Alternation {
    const alts: Node[][] = [[]];
    const src = this.src;
    while (this.pos < src.length) {
      const c = src[this.pos];
      if (c === ')') break;
      if (c === '|') {
        this.pos++;
        alts.push([]);
        continue;
      }
      if (this.skipExtended(opts)) continue;
      const seq = alts[alts.length - 1];
      const start = this.pos;
      const atom = this.atom(opts, seq);
      if (atom === null) {
        // A comment is invisible to PCRE, so a quantifier after it applies to the item before it.
        const last = seq[seq.length - 1];
        if (src.startsWith('(?#', start) && last !== undefined && last.t !== 'repeat') seq[seq.length - 1] = this.quantified(last, opts);
        continue;
      }
      seq.push(this.quantified(atom, opts));
    }
    return alts;
  }

  /** In (?x) mode whitespace and #-comments outside classes are not part of the pattern. */
  private skipExtended(opts: Options): boolean {
    if (!opts.extended) return false;
    const c = this.src[this.pos];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v') {
      this.pos++;
      return true;
    }
    if (c === '#') {
      const nl = this.src.indexOf('\n', this.pos);
      this.pos = nl < 0 ? this.src.length : nl + 1;
      return true;
    }
    return false;
  }

  private quantified(atom: Node, opts: Options): Node {
    while (this.skipExtended(opts));
    const src = this.src;
    const c = src[this.pos];
    let min: number, max: number;
    if (c === '*') [min, max] = [0, Infinity];
    else if (c === '+') [min, max] = [1, Infinity];
    else if (c === '?') [min, max] = [0, 1];
    else if (c === '{') {
      QUANTIFIER.lastIndex = this.pos;
      const m = QUANTIFIER.exec(src);
      if (!m) return atom;
      min = Number(m[1]);
      max = m[2] ? (m[3] ? Number(m[3]) : Infinity) : min;
      if (max < min) throw new PcreSyntaxError(`numbers out of order in {} quantifier at offset ${this.pos}`);
      if (max !== Infinity && max > 65535) throw new PcreSyntaxError(`number too big in {} quantifier at offset ${this.pos}`);
      this.pos += m[0].length - 1;
    } else {
      return atom;
    }
    this.pos++;
    let mode: 'greedy' | 'lazy' | 'possessive' = 'greedy';
    if (src[this.pos] === '?') { mode = 'lazy'; this.pos++; }
    else if (src[this.pos] === '+') { mode = 'possessive'; this.pos++; }
    if (atom.t === 'assert') atom = { t: 'group', kind: 'plain', index: 0, body: [[atom]] };
    return { t: 'repeat', node: atom, min, max, mode };
  }

  /** One atom, or null for items that only change state (option settings, comments, \E). */
  private atom(opts: Options, seq: Node[]): Node | null {
    const src = this.src;
    const c = src[this.pos];
    switch (c) {
      case '(': return this.group(opts);
      case '[': {
        const cls = parseClass(src, this.pos); // PCRE: (?x) does not apply inside classes
        this.pos = cls.end;
        return { t: 'set', ranges: cls.ranges, negated: cls.negated, caseless: opts.caseless };
      }
      case '.': this.pos++; return { t: 'dot', dotall: opts.dotall };
      case '^': this.pos++; return { t: 'assert', kind: 'start', multiline: opts.multiline };
      case '$': this.pos++; return { t: 'assert', kind: 'end', multiline: opts.multiline };
      case '\\': return this.escape(opts, seq);
      case '*': case '+': case '?':
        throw new PcreSyntaxError(`quantifier does not follow a repeatable item at offset ${this.pos}`);
      case '{':
        QUANTIFIER.lastIndex = this.pos;
        if (QUANTIFIER.test(src)) throw new PcreSyntaxError(`quantifier does not follow a repeatable item at offset ${this.pos}`);
        break;
    }
    this.pos++;
    return { t: 'char', code: src.charCodeAt(this.pos - 1), caseless: opts.caseless };
  }

  private escape(opts: Options, seq: Node[]): Node | null {
    const src = this.src;
    const start = this.pos;
    const letter = src[this.pos + 1];
    if (letter === undefined) throw new PcreSyntaxError('\\ at end of pattern');
    const multiline = opts.multiline;
    const assertion = ({ b: 'wordb', B: 'nonwordb', A: 'absstart', z: 'absend', Z: 'endnl' } as const)[letter as 'b'];
    if (assertion) {
      this.pos += 2;
      return { t: 'assert', kind: assertion, multiline };
    }
    const set = escapeClass(letter);
    if (set) {
      this.pos += 2;
      return { t: 'set', ranges: set as Range[], negated: false, caseless: opts.caseless };
    }
    switch (letter) {
      case 'R':
        this.pos += 2;
        return { t: 'raw', source: '(?:\\r\\n|[\\n\\x0b\\f\\r\\x85])' };
      case 'Q': {
        const end = src.indexOf('\\E', start + 2);
        const text = src.slice(start + 2, end < 0 ? src.length : end);
        this.pos = end < 0 ? src.length : end + 2;
        if (text.length === 0) return null;
        for (let k = 0; k < text.length - 1; k++) seq.push({ t: 'char', code: text.charCodeAt(k), caseless: opts.caseless });
        return { t: 'char', code: text.charCodeAt(text.length - 1), caseless: opts.caseless };
      }
      case 'E':
        this.pos += 2;
        return null;
      case 'g': case 'k':
        return this.namedOrRelativeBackref(opts);
      case 'G': case 'K': case 'X': case 'C': case 'p': case 'P':
        throw new PcreSyntaxError(`\\${letter} at offset ${start} has no JavaScript equivalent in byte mode`);
    }
    if (letter >= '1' && letter <= '9') {
      const digits = DIGITS;
      digits.lastIndex = start + 1;
      const n = Number(digits.exec(src)![0]);
      if (n < 10 || n <= this.census.count) {
        if (n > this.census.count) throw new PcreSyntaxError(`reference to non-existent subpattern ${n} at offset ${start}`);
        this.pos = digits.lastIndex;
        return { t: 'backref', group: n, caseless: opts.caseless };
      }
    }
    const ch = readCharEscape(src, start, false);
    this.pos = ch.end;
    return { t: 'char', code: ch.code, caseless: opts.caseless };
  }

  private namedOrRelativeBackref(opts: Options): Node {
    const src = this.src;
    const m = GROUP_REF;
    m.lastIndex = this.pos;
    const r = m.exec(src);
    if (!r) throw new PcreSyntaxError(`malformed \\g or \\k reference at offset ${this.pos}`);
    if (r[1] === 'g' && (r[3] || r[4])) throw new PcreSyntaxError(`subroutine call at offset ${this.pos} is not supported`);
    const ref = r[2] ?? r[3] ?? r[4] ?? r[5];
    let group: number;
    if (/^-?\d+$/.test(ref)) {
      const n = Number(ref);
      group = n < 0 ? this.groups + 1 + n : n;
    } else {
      const named = this.census.names.get(ref);
      if (named === undefined) throw new PcreSyntaxError(`reference to non-existent subpattern '${ref}'`);
      group = named;
    }
    if (group < 1 || group > this.census.count) throw new PcreSyntaxError(`reference to non-existent subpattern at offset ${this.pos}`);
    this.pos = m.lastIndex;
    return { t: 'backref', group, caseless: opts.caseless };
  }

  private group(opts: Options): Node | null {
    const src = this.src;
    const start = this.pos;
    const body = (kind: Extract<Node, { t: 'group' }>['kind'], skip: number, inner: Options = { ...opts }): Node => {
      this.pos += skip;
      const index = kind === 'capture' ? ++this.groups : 0;
      const alts = this.alternation(inner);
      if (src[this.pos] !== ')') throw new PcreSyntaxError(`missing ) for the group at offset ${start}`);
      this.pos++;
      return { t: 'group', kind, index, body: alts };
    };
    if (src[start + 1] === '*') throw new PcreSyntaxError(`backtracking verb at offset ${start} is not supported`);
    if (src[start + 1] !== '?') return body('capture', 1);
    const rest = src.slice(start + 2, start + 4);
    if (rest.startsWith('#')) {
      const end = src.indexOf(')', start);
      if (end < 0) throw new PcreSyntaxError(`missing ) after comment at offset ${start}`);
      this.pos = end + 1;
      return null;
    }
    if (rest.startsWith(':')) return body('plain', 3);
    if (rest.startsWith('=')) return body('ahead', 3);
    if (rest.startsWith('!')) return body('nahead', 3);
    if (rest.startsWith('>')) return body('atomic', 3);
    if (rest === '<=') return body('behind', 4);
    if (rest === '<!') return body('nbehind', 4);
    const named = NAMED_GROUP;
    named.lastIndex = start;
    if (named.test(src)) return body('capture', named.lastIndex - start);
    const backref = NAMED_BACKREF;
    backref.lastIndex = start;
    const br = backref.exec(src);
    if (br) {
      const group = this.census.names.get(br[1]);
      if (group === undefined) throw new PcreSyntaxError(`reference to non-existent subpattern '${br[1]}'`);
      this.pos = backref.lastIndex;
      return { t: 'backref', group, caseless: opts.caseless };
    }
    const setting = OPTION_SETTING;
    setting.lastIndex = start;
    const s = setting.exec(src);
    if (!s) {
      throw new PcreSyntaxError(`unsupported group syntax '${src.slice(start, start + 4)}' at offset ${start} (recursion, conditionals, branch reset and callouts have no JavaScript equivalent)`);
    }
    const changed = applyOptions(opts, s[1], s[2] ?? '');
    if (s[3] === ')') {
      Object.assign(opts, changed);
      this.pos = setting.lastIndex;
      return null;
    }
    return body('plain', setting.lastIndex - start, changed);
  }
}

function applyOptions(opts: Options, on: string, off: string): Options {
  const next = { ...opts };
  const set = (letters: string, value: boolean) => {
    for (const l of letters) {
      if (l === 'i') next.caseless = value;
      else if (l === 's') next.dotall = value;
      else if (l === 'm') next.multiline = value;
      else if (l === 'x') next.extended = value;
    }
  };
  set(on, true);
  set(off, false);
  return next;
}

export { PcreSyntaxError };
