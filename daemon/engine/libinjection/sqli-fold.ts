/**
 * libinjection_sqli_fold: tokenizes the input and folds the tokens in place until at most five
 * remain; their types are the fingerprint. Leading comments, '(' , SQL types and unary
 * operators are skipped; a trailing comment is kept when there is room for it.
 */
import { RESTART, STOP, foldThree, foldTwo, type FoldCursor } from './sqli-fold-rules.js';
import { MAX_TOKENS, type SqliState } from './sqli-state.js';
import {
  Token, TYPE_BAREWORD, TYPE_COMMA, TYPE_COMMENT, TYPE_LEFTPARENS, TYPE_NONE, TYPE_NUMBER,
  TYPE_OPERATOR, TYPE_RIGHTPARENS, TYPE_SQLTYPE, isUnaryOp,
} from './sqli-token.js';
import { tokenize } from './sqli-tokenizer.js';

const lastComment = new Token();
const cursor: FoldCursor = { pos: 0, left: 0 };

/** Five-token shapes that are a complete expression: "1,(1)" etc. fold to their first token. */
function isFoldableFive(sf: SqliState): boolean {
  const t0 = sf.tokenvec[0].type;
  const t1 = sf.tokenvec[1].type;
  const t2 = sf.tokenvec[2].type;
  const t3 = sf.tokenvec[3].type;
  const t4 = sf.tokenvec[4].type;
  return (
    (t0 === TYPE_NUMBER && (t1 === TYPE_OPERATOR || t1 === TYPE_COMMA) && t2 === TYPE_LEFTPARENS && t3 === TYPE_NUMBER && t4 === TYPE_RIGHTPARENS) ||
    (t0 === TYPE_BAREWORD && t1 === TYPE_OPERATOR && t2 === TYPE_LEFTPARENS && (t3 === TYPE_BAREWORD || t3 === TYPE_NUMBER) && t4 === TYPE_RIGHTPARENS) ||
    (t0 === TYPE_NUMBER && t1 === TYPE_RIGHTPARENS && t2 === TYPE_COMMA && t3 === TYPE_LEFTPARENS && t4 === TYPE_NUMBER) ||
    (t0 === TYPE_BAREWORD && t1 === TYPE_RIGHTPARENS && t2 === TYPE_OPERATOR && t3 === TYPE_LEFTPARENS && t4 === TYPE_BAREWORD)
  );
}

/** Tokenizes into tokenvec[cur.pos] until `want` unfolded tokens are at hand; comments are set aside. */
function fetch(sf: SqliState, cur: FoldCursor, more: boolean, want: number): boolean {
  while (more && cur.pos <= MAX_TOKENS && cur.pos - cur.left < want) {
    sf.current = sf.tokenvec[cur.pos];
    more = tokenize(sf);
    if (more) {
      if (sf.current.type === TYPE_COMMENT) {
        lastComment.copyFrom(sf.current);
      } else {
        lastComment.type = TYPE_NONE;
        cur.pos += 1;
      }
    }
  }
  return more;
}

/** Folds sf's input (already init'ed with its flags); returns the number of tokens kept. */
export function fold(sf: SqliState): number {
  const cur = cursor;
  cur.pos = 0;
  cur.left = 0;
  lastComment.clear();

  sf.current = sf.tokenvec[0];
  let more = true;
  while (more) {
    more = tokenize(sf);
    const t = sf.current;
    if (!(t.type === TYPE_COMMENT || t.type === TYPE_LEFTPARENS || t.type === TYPE_SQLTYPE || isUnaryOp(t))) break;
  }
  if (!more) return 0;
  cur.pos = 1;

  for (;;) {
    if (cur.pos >= MAX_TOKENS && isFoldableFive(sf)) {
      if (cur.pos > MAX_TOKENS) {
        sf.tokenvec[1].copyFrom(sf.tokenvec[MAX_TOKENS]);
        cur.pos = 2;
      } else {
        cur.pos = 1;
      }
      cur.left = 0;
    }

    if (!more || cur.left >= MAX_TOKENS) {
      cur.left = cur.pos;
      break;
    }

    more = fetch(sf, cur, more, 2);
    if (cur.pos - cur.left < 2) {
      cur.left = cur.pos;
      continue;
    }
    const step = foldTwo(sf, cur);
    if (step === STOP) return cur.left;
    if (step === RESTART) continue;
    // step === TRY_THREE
    more = fetch(sf, cur, more, 3);
    if (cur.pos - cur.left < 3) {
      cur.left = cur.pos;
      continue;
    }
    if (foldThree(sf, cur)) continue;
    // nothing folds: the leftmost token is final
    cur.left += 1;
  }

  if (cur.left < MAX_TOKENS && lastComment.type === TYPE_COMMENT) {
    sf.tokenvec[cur.left].copyFrom(lastComment);
    cur.left += 1;
  }
  // a sixth token may have been read to settle the fifth
  return cur.left > MAX_TOKENS ? MAX_TOKENS : cur.left;
}
