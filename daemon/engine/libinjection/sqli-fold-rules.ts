/**
 * The folding rules of libinjection_sqli_fold: rewrites of two and three adjacent tokens that
 * reduce SQL to the few tokens a fingerprint keeps ("1 + 2" -> "1", "UNION ALL" -> 'U', ...).
 * Each rule reads tokens at `left` in the token vector and moves `pos` (where the next token
 * goes) and `left` (how many tokens are final) exactly as the C code does.
 */
import { lookupWord } from './sqli-keywords.js';
import type { SqliState } from './sqli-state.js';
import {
  TOKEN_VALUE_MAX, TYPE_BACKSLASH, TYPE_BAREWORD, TYPE_COLLATE, TYPE_COMMA, TYPE_DOT, TYPE_EVIL,
  TYPE_EXPRESSION, TYPE_FUNCTION, TYPE_GROUP, TYPE_KEYWORD, TYPE_LEFTBRACE, TYPE_LEFTPARENS,
  TYPE_LOGIC_OPERATOR, TYPE_NUMBER, TYPE_OPERATOR, TYPE_RIGHTBRACE, TYPE_RIGHTPARENS, TYPE_SEMICOLON,
  TYPE_SQLTYPE, TYPE_STRING, TYPE_TSQL, TYPE_UNION, TYPE_VARIABLE, type Token, isArithmeticOp,
  isUnaryOp, valEqualsUpper,
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

const MERGEABLE = new Set([TYPE_KEYWORD, TYPE_BAREWORD, TYPE_OPERATOR, TYPE_UNION, TYPE_FUNCTION, TYPE_EXPRESSION, TYPE_TSQL, TYPE_SQLTYPE]);

/** "UNION" + "ALL" -> "UNION ALL" when the pair is itself a keyword; a gets its type. */
function mergeWords(a: Token, b: Token): boolean {
  if (!MERGEABLE.has(a.type)) return false;
  if (!MERGEABLE.has(b.type) && b.type !== TYPE_LOGIC_OPERATOR) return false;
  if (a.val.length + b.val.length + 1 > TOKEN_VALUE_MAX) return false;
  const merged = `${a.val} ${b.val}`;
  const type = lookupWord(merged);
  if (type === 0) return false;
  a.type = type;
  a.val = merged;
  return true;
}

/** Words that are column names unless a '(' follows (then they are functions). */
const FUNCTION_IF_CALLED = [
  'USER_ID', 'USER_NAME', 'DATABASE', 'PASSWORD', 'USER', 'CURRENT_USER', 'CURRENT_DATE',
  'CURRENT_TIME', 'CURRENT_TIMESTAMP', 'LOCALTIME', 'LOCALTIMESTAMP',
];

const SQLTYPE_OPERANDS = new Set([TYPE_BAREWORD, TYPE_NUMBER, TYPE_SQLTYPE, TYPE_LEFTPARENS, TYPE_FUNCTION, TYPE_VARIABLE, TYPE_STRING]);

/** strchr(val, '_'): the C string ends at the first NUL. */
function hasUnderscore(val: string): boolean {
  const at = val.indexOf('_');
  if (at < 0) return false;
  const nul = val.indexOf('\0');
  return nul < 0 || at < nul;
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
  if (a.type === TYPE_SEMICOLON && b.type === TYPE_FUNCTION && b.val.length >= 2 && (b.val[0] === 'I' || b.val[0] === 'i') && (b.val[1] === 'F' || b.val[1] === 'f')) {
    // "; IF" opens a T-SQL control statement, not a call of IF()
    b.type = TYPE_TSQL;
    return RESTART;
  }
  if ((a.type === TYPE_BAREWORD || a.type === TYPE_VARIABLE) && b.type === TYPE_LEFTPARENS && FUNCTION_IF_CALLED.some((w) => valEqualsUpper(a.val, w))) {
    a.type = TYPE_FUNCTION;
    return RESTART;
  }
  if (a.type === TYPE_KEYWORD && (valEqualsUpper(a.val, 'IN') || valEqualsUpper(a.val, 'NOT IN'))) {
    // "IN (" compares like an operator; "IN BOOLEAN MODE" is just a word
    a.type = b.type === TYPE_LEFTPARENS ? TYPE_OPERATOR : TYPE_BAREWORD;
    return RESTART;
  }
  if (a.type === TYPE_OPERATOR && (valEqualsUpper(a.val, 'LIKE') || valEqualsUpper(a.val, 'NOT LIKE'))) {
    if (b.type === TYPE_LEFTPARENS) a.type = TYPE_FUNCTION; // "= LIKE(1, 2)"
    return TRY_THREE;
  }
  if (a.type === TYPE_SQLTYPE && SQLTYPE_OPERANDS.has(b.type)) {
    a.copyFrom(b);
    cur.pos -= 1;
    sf.statsFolds += 1;
    cur.left = 0;
    return RESTART;
  }
  if (a.type === TYPE_COLLATE && b.type === TYPE_BAREWORD) {
    // too many collation names to list: one with a '_' is taken as a type
    if (hasUnderscore(b.val)) {
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
    if (b.val.length === 0) {
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

const NUMBER_OR_WORD = (t: number): boolean => t === TYPE_NUMBER || t === TYPE_BAREWORD;
const OPERAND = (t: number): boolean => t === TYPE_BAREWORD || t === TYPE_NUMBER || t === TYPE_VARIABLE || t === TYPE_STRING;

/** Three-token rules. Returns true when one applied (the loop re-examines), else false. */
export function foldThree(sf: SqliState, cur: FoldCursor): boolean {
  const v = sf.tokenvec;
  const a = v[cur.left];
  const b = v[cur.left + 1];
  const c = v[cur.left + 2];

  const dropTwo = (): true => {
    cur.pos -= 2;
    cur.left = 0;
    return true;
  };
  const dropMiddle = (): true => {
    b.copyFrom(c);
    cur.pos -= 1;
    cur.left = 0;
    return true;
  };

  if (a.type === TYPE_NUMBER && b.type === TYPE_OPERATOR && c.type === TYPE_NUMBER) return dropTwo();
  if (a.type === TYPE_OPERATOR && b.type !== TYPE_LEFTPARENS && c.type === TYPE_OPERATOR) return dropTwo();
  if (a.type === TYPE_LOGIC_OPERATOR && c.type === TYPE_LOGIC_OPERATOR) return dropTwo();
  if (a.type === TYPE_VARIABLE && b.type === TYPE_OPERATOR && (c.type === TYPE_VARIABLE || NUMBER_OR_WORD(c.type))) return dropTwo();
  if (NUMBER_OR_WORD(a.type) && b.type === TYPE_OPERATOR && NUMBER_OR_WORD(c.type)) return dropTwo();
  if (OPERAND(a.type) && b.type === TYPE_OPERATOR && b.val === '::' && c.type === TYPE_SQLTYPE) {
    sf.statsFolds += 2;
    return dropTwo();
  }
  if (OPERAND(a.type) && b.type === TYPE_COMMA && OPERAND(c.type)) return dropTwo();
  if ((a.type === TYPE_EXPRESSION || a.type === TYPE_GROUP || a.type === TYPE_COMMA) && isUnaryOp(b) && c.type === TYPE_LEFTPARENS) {
    return dropMiddle(); // "SELECT + (", "LIMIT + ("
  }
  if ((a.type === TYPE_KEYWORD || a.type === TYPE_EXPRESSION || a.type === TYPE_GROUP) && isUnaryOp(b) && (OPERAND(c.type) || c.type === TYPE_FUNCTION)) {
    return dropMiddle(); // "select - 1"
  }
  if (a.type === TYPE_COMMA && isUnaryOp(b) && OPERAND(c.type)) {
    // ", -1" -> ",1", then back up so that "1,-1" folds to "1"
    b.copyFrom(c);
    cur.left = 0;
    cur.pos -= 3;
    return true;
  }
  if (a.type === TYPE_COMMA && isUnaryOp(b) && c.type === TYPE_FUNCTION) return dropMiddle(); // "1,-sin(1)"
  if (a.type === TYPE_BAREWORD && b.type === TYPE_DOT && c.type === TYPE_BAREWORD) return dropTwo(); // db.table
  if (a.type === TYPE_EXPRESSION && b.type === TYPE_DOT && c.type === TYPE_BAREWORD) return dropMiddle(); // "select . `foo`"
  if (a.type === TYPE_FUNCTION && b.type === TYPE_LEFTPARENS && c.type !== TYPE_RIGHTPARENS) {
    // USER() takes no argument: "user(foo)" is not that function
    if (valEqualsUpper(a.val, 'USER')) a.type = TYPE_BAREWORD;
  }
  return false;
}
