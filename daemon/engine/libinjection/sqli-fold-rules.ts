/**
 * The folding rules of libinjection_sqli_fold: rewrites of two and three adjacent tokens that
 * reduce SQL to the few tokens a fingerprint keeps ("1 + 2" -> "1", "UNION ALL" -> 'U', ...).
 * Each rule reads tokens at `left` in the token vector and moves `pos` (where the next token
 * goes) and `left` (how many tokens are final) exactly as the C code does.
 */
import { lookupPhrase } from './sqli-keywords.js';
import type { SqliState } from './sqli-state.js';
import {
  TOKEN_VALUE_MAX, TYPE_BACKSLASH, TYPE_BAREWORD, TYPE_COLLATE, TYPE_COMMA, TYPE_DOT, TYPE_EVIL,
  TYPE_EXPRESSION, TYPE_FUNCTION, TYPE_GROUP, TYPE_KEYWORD, TYPE_LEFTBRACE, TYPE_LEFTPARENS,
  TYPE_LOGIC_OPERATOR, TYPE_NUMBER, TYPE_OPERATOR, TYPE_RIGHTBRACE, TYPE_RIGHTPARENS, TYPE_SEMICOLON,
  TYPE_SQLTYPE, TYPE_STRING, TYPE_TSQL, TYPE_UNION, TYPE_VARIABLE, type Token, isArithmeticOp,
  isUnaryOp,
} from './sqli-token.js';

/** The fold loop's two counters, shared with the rules. */
export interface FoldCursor {
  pos: number;
  left: number;
}

/** What the fold loop does after a rule: re-examine, go on to three tokens, or stop with a count. */
export const RESTART = 0;
export const TRY_THREE = 1;
export const STOP = 2;

/** Membership tables over token types (char codes < 128): a load-time Set, an indexed read per check. */
function typeTable(...types: number[]): Uint8Array {
  const table = new Uint8Array(128);
  for (const t of types) table[t] = 1;
  return table;
}

const MERGEABLE = typeTable(TYPE_KEYWORD, TYPE_BAREWORD, TYPE_OPERATOR, TYPE_UNION, TYPE_FUNCTION, TYPE_EXPRESSION, TYPE_TSQL, TYPE_SQLTYPE);

/** "UNION" + "ALL" -> "UNION ALL" when the pair is itself a keyword; a gets its type. */
function mergeWords(a: Token, b: Token): boolean {
  if (MERGEABLE[a.type] !== 1) return false;
  if (MERGEABLE[b.type] !== 1 && b.type !== TYPE_LOGIC_OPERATOR) return false;
  if (a.len + b.len + 1 > TOKEN_VALUE_MAX) return false;
  const type = lookupPhrase(a, b);
  if (type === 0) return false;
  a.type = type;
  a.setText(`${a.val} ${b.val}`);
  return true;
}

/** Words that are column names unless a '(' follows (then they are functions). */
const FUNCTION_IF_CALLED = [
  'USER_ID', 'USER_NAME', 'DATABASE', 'PASSWORD', 'USER', 'CURRENT_USER', 'CURRENT_DATE',
  'CURRENT_TIME', 'CURRENT_TIMESTAMP', 'LOCALTIME', 'LOCALTIMESTAMP',
];

function isFunctionIfCalled(t: Token): boolean {
  for (const word of FUNCTION_IF_CALLED) if (t.equalsUpper(word)) return true;
  return false;
}

const SQLTYPE_OPERANDS = typeTable(TYPE_BAREWORD, TYPE_NUMBER, TYPE_SQLTYPE, TYPE_LEFTPARENS, TYPE_FUNCTION, TYPE_VARIABLE, TYPE_STRING);

/** strchr(val, '_'): the C string ends at the first NUL. */
function hasUnderscore(t: Token): boolean {
  for (let i = 0; i < t.len; i++) {
    const c = t.byte(i);
    if (c === 0x5f) return true;
    if (c === 0) return false;
  }
  return false;
}

/** Two-token rules. Returns RESTART, TRY_THREE, or STOP (then cur.left is the token count). */
export function foldTwo(sf: SqliState, cur: FoldCursor): number {
  const v = sf.tokenvec;
  const a = v[cur.left];
  const b = v[cur.left + 1];

  if ((a.type === TYPE_STRING && b.type === TYPE_STRING) || (a.type === TYPE_SEMICOLON && b.type === TYPE_SEMICOLON)) {
    // "foo" "bar" is one string; repeated ';' are one
    cur.pos -= 1;
    sf.statsFolds += 1;
    return RESTART;
  }
  if ((a.type === TYPE_OPERATOR || a.type === TYPE_LOGIC_OPERATOR) && (isUnaryOp(b) || b.type === TYPE_SQLTYPE)) {
    cur.pos -= 1;
    sf.statsFolds += 1;
    cur.left = 0;
    return RESTART;
  }
  if (a.type === TYPE_LEFTPARENS && isUnaryOp(b)) {
    cur.pos -= 1;
    sf.statsFolds += 1;
    if (cur.left > 0) cur.left -= 1;
    return RESTART;
  }
  if (mergeWords(a, b)) {
    cur.pos -= 1;
    sf.statsFolds += 1;
    if (cur.left > 0) cur.left -= 1;
    return RESTART;
  }
  if (a.type === TYPE_SEMICOLON && b.type === TYPE_FUNCTION && (b.byte(0) | 0x20) === 0x69 && (b.byte(1) | 0x20) === 0x66) {
    // "; IF" opens a T-SQL control statement, not a call of IF()
    b.type = TYPE_TSQL;
    return RESTART;
  }
  if ((a.type === TYPE_BAREWORD || a.type === TYPE_VARIABLE) && b.type === TYPE_LEFTPARENS && isFunctionIfCalled(a)) {
    a.type = TYPE_FUNCTION;
    return RESTART;
  }
  if (a.type === TYPE_KEYWORD && (a.equalsUpper('IN') || a.equalsUpper('NOT IN'))) {
    // "IN (" compares like an operator; "IN BOOLEAN MODE" is just a word
    a.type = b.type === TYPE_LEFTPARENS ? TYPE_OPERATOR : TYPE_BAREWORD;
    return RESTART;
  }
  if (a.type === TYPE_OPERATOR && (a.equalsUpper('LIKE') || a.equalsUpper('NOT LIKE'))) {
    if (b.type === TYPE_LEFTPARENS) a.type = TYPE_FUNCTION; // "= LIKE(1, 2)"
    return TRY_THREE;
  }
  if (a.type === TYPE_SQLTYPE && SQLTYPE_OPERANDS[b.type] === 1) {
    a.copyFrom(b);
    cur.pos -= 1;
    sf.statsFolds += 1;
    cur.left = 0;
    return RESTART;
  }
  if (a.type === TYPE_COLLATE && b.type === TYPE_BAREWORD) {
    // too many collation names to list: one with a '_' is taken as a type
    if (hasUnderscore(b)) {
      b.type = TYPE_SQLTYPE;
      cur.left = 0;
    }
    return TRY_THREE;
  }
  if (a.type === TYPE_BACKSLASH) {
    if (isArithmeticOp(b)) {
      a.type = TYPE_NUMBER; // T-SQL reads "\%1" as "0 % 1"
    } else {
      a.copyFrom(b); // and "\1" as "1"
      cur.pos -= 1;
      sf.statsFolds += 1;
    }
    cur.left = 0;
    return RESTART;
  }
  if ((a.type === TYPE_LEFTPARENS && b.type === TYPE_LEFTPARENS) || (a.type === TYPE_RIGHTPARENS && b.type === TYPE_RIGHTPARENS)) {
    cur.pos -= 1;
    cur.left = 0;
    sf.statsFolds += 1;
    return RESTART;
  }
  if (a.type === TYPE_LEFTBRACE && b.type === TYPE_BAREWORD) {
    if (b.len === 0) {
      // MySQL's "{ ``.``.id }" cannot be folded with three tokens of look-ahead: banned
      b.type = TYPE_EVIL;
      cur.left += 2;
      return STOP;
    }
    // ODBC "{foo expr}" is expr
    cur.left = 0;
    cur.pos -= 2;
    sf.statsFolds += 2;
    return RESTART;
  }
  if (b.type === TYPE_RIGHTBRACE) {
    cur.pos -= 1;
    cur.left = 0;
    sf.statsFolds += 1;
    return RESTART;
  }
  return TRY_THREE;
}

/** Three-token rules. Returns true when one applied (the loop re-examines), else false. */
export function foldThree(sf: SqliState, cur: FoldCursor): boolean {
  const v = sf.tokenvec;
  const a = v[cur.left];
  const b = v[cur.left + 1];
  const c = v[cur.left + 2];
  const action = threeTokenAction(a, b, c);
  if (action === DROP_TWO || action === DROP_TWO_COUNTED) {
    if (action === DROP_TWO_COUNTED) sf.statsFolds += 2;
    cur.pos -= 2;
    cur.left = 0;
    return true;
  }
  if (action === DROP_MIDDLE || action === DROP_MIDDLE_BACK_UP) {
    b.copyFrom(c);
    cur.pos -= action === DROP_MIDDLE ? 1 : 3;
    cur.left = 0;
    return true;
  }
  if (a.type === TYPE_FUNCTION && b.type === TYPE_LEFTPARENS && c.type !== TYPE_RIGHTPARENS) {
    // USER() takes no argument: "user(foo)" is not that function
    if (a.equalsUpper('USER')) a.type = TYPE_BAREWORD;
  }
  return false;
}

const KEEP = 0;
/** a b c -> a */
const DROP_TWO = 1;
/** a b c -> a, counted as two folds */
const DROP_TWO_COUNTED = 2;
/** a b c -> a c */
const DROP_MIDDLE = 3;
/** a b c -> a c, then back up three tokens so that the result can fold with what precedes */
const DROP_MIDDLE_BACK_UP = 4;

function threeTokenAction(a: Token, b: Token, c: Token): number {
  const ta = a.type;
  const tb = b.type;
  const tc = c.type;
  if (ta === TYPE_NUMBER && tb === TYPE_OPERATOR && tc === TYPE_NUMBER) return DROP_TWO;
  if (ta === TYPE_OPERATOR && tb !== TYPE_LEFTPARENS && tc === TYPE_OPERATOR) return DROP_TWO;
  if (ta === TYPE_LOGIC_OPERATOR && tc === TYPE_LOGIC_OPERATOR) return DROP_TWO;
  if (ta === TYPE_VARIABLE && tb === TYPE_OPERATOR && (tc === TYPE_VARIABLE || isNumberOrWord(tc))) return DROP_TWO;
  if (isNumberOrWord(ta) && tb === TYPE_OPERATOR && isNumberOrWord(tc)) return DROP_TWO;
  if (isOperand(ta) && tb === TYPE_OPERATOR && b.len === 2 && b.byte(0) === 0x3a && b.byte(1) === 0x3a && tc === TYPE_SQLTYPE) return DROP_TWO_COUNTED; // 1::int
  if (isOperand(ta) && tb === TYPE_COMMA && isOperand(tc)) return DROP_TWO;
  const unary = isUnaryOp(b);
  if ((ta === TYPE_EXPRESSION || ta === TYPE_GROUP || ta === TYPE_COMMA) && unary && tc === TYPE_LEFTPARENS) {
    return DROP_MIDDLE; // "SELECT + (", "LIMIT + ("
  }
  if ((ta === TYPE_KEYWORD || ta === TYPE_EXPRESSION || ta === TYPE_GROUP) && unary && (isOperand(tc) || tc === TYPE_FUNCTION)) {
    return DROP_MIDDLE; // "select - 1"
  }
  if (ta === TYPE_COMMA && unary && isOperand(tc)) return DROP_MIDDLE_BACK_UP; // "1,-1" -> "1,1" -> "1"
  if (ta === TYPE_COMMA && unary && tc === TYPE_FUNCTION) return DROP_MIDDLE; // "1,-sin(1)"
  if (ta === TYPE_BAREWORD && tb === TYPE_DOT && tc === TYPE_BAREWORD) return DROP_TWO; // db.table
  if (ta === TYPE_EXPRESSION && tb === TYPE_DOT && tc === TYPE_BAREWORD) return DROP_MIDDLE; // "select . `foo`"
  return KEEP;
}

function isNumberOrWord(t: number): boolean {
  return t === TYPE_NUMBER || t === TYPE_BAREWORD;
}

function isOperand(t: number): boolean {
  return t === TYPE_BAREWORD || t === TYPE_NUMBER || t === TYPE_VARIABLE || t === TYPE_STRING;
}
