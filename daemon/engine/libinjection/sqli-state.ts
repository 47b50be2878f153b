/**
 * The state of one libinjection SQLi pass over an input: the input, the parsing flags, the
 * tokenizer position, the token vector the folder works in, and the statistics the
 * false-positive checks read. One instance is reused across calls (JS runs them one at a time).
 */
import { Token } from './sqli-token.js';

/** Parsing flags (libinjection's FLAG_*): a quote context plus an SQL comment dialect. */
export const FLAG_NONE = 0;
export const FLAG_QUOTE_NONE = 1;
export const FLAG_QUOTE_SINGLE = 2;
export const FLAG_QUOTE_DOUBLE = 4;
export const FLAG_SQL_ANSI = 8;
export const FLAG_SQL_MYSQL = 16;

/** The fingerprint holds at most five tokens; the folder looks up to three beyond. */
export const MAX_TOKENS = 5;

export class SqliState {
  s = '';
  slen = 0;
  flags = FLAG_QUOTE_NONE | FLAG_SQL_ANSI;
  pos = 0;
  readonly tokenvec: Token[] = Array.from({ length: MAX_TOKENS + 3 }, () => new Token());
  /** The token the tokenizer fills next (one of tokenvec, or a scratch token). */
  current: Token;
  /** Token types of a listed fingerprint (set only once the list matched). */
  fingerprint = '';
  statsTokens = 0;
  statsFolds = 0;
  statsCommentDdx = 0;
  statsCommentHash = 0;

  constructor() {
    this.current = this.tokenvec[0];
  }

  /** libinjection_sqli_init / _reset: flags 0 means "no quote context, ANSI comments". */
  init(s: string, flags: number): void {
    this.s = s;
    this.slen = s.length;
    this.flags = flags === FLAG_NONE ? FLAG_QUOTE_NONE | FLAG_SQL_ANSI : flags;
    this.pos = 0;
    for (const t of this.tokenvec) t.clear();
    this.current = this.tokenvec[0];
    this.fingerprint = '';
    this.statsTokens = 0;
    this.statsFolds = 0;
    this.statsCommentDdx = 0;
    this.statsCommentHash = 0;
  }
}
