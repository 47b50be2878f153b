/**
 * libinjection's HTML5 tokenizer: a reduced version of the HTML5 spec's tokenizer state
 * machine, enough to find tag names, attribute names and values, and comments. It can start
 * in the data state or inside an attribute value (how XSS contexts are tried). Each state is a
 * function that emits at most one token and names the next state.
 */
import {
  stateAttributeValueBackQuote, stateAttributeValueDoubleQuote,
  stateAttributeValueSingleQuote, stateBeforeAttributeName, stateSelfClosingStartTag,
} from './html5-attributes.js';
import { BANG, GT, PERCENT, QUESTION, SLASH, isAsciiLetter, isWhite } from './html5-bytes.js';
import { stateBogusComment, stateBogusComment2, stateMarkupDeclarationOpen } from './html5-markup.js';

export const DATA_TEXT = 0;
export const TAG_NAME_OPEN = 1;
export const TAG_NAME_CLOSE = 2;
export const TAG_NAME_SELFCLOSE = 3;
export const TAG_DATA = 4;
export const TAG_CLOSE = 5;
export const ATTR_NAME = 6;
export const ATTR_VALUE = 7;
export const TAG_COMMENT = 8;
export const DOCTYPE = 9;

export const H5_TOKEN_NAMES = [
  'DATA_TEXT', 'TAG_NAME_OPEN', 'TAG_NAME_CLOSE', 'TAG_NAME_SELFCLOSE', 'TAG_DATA', 'TAG_CLOSE',
  'ATTR_NAME', 'ATTR_VALUE', 'TAG_COMMENT', 'DOCTYPE',
] as const;

/** Where tokenizing starts: in text, or inside an attribute value of each quoting. */
export const DATA_STATE = 0;
export const VALUE_NO_QUOTE = 1;
export const VALUE_SINGLE_QUOTE = 2;
export const VALUE_DOUBLE_QUOTE = 3;
export const VALUE_BACK_QUOTE = 4;


export type StateFn = (hs: H5State) => boolean;

export class H5State {
  s = '';
  len = 0;
  pos = 0;
  isClose = false;
  state: StateFn = stateData;
  tokenStart = 0;
  tokenLen = 0;
  tokenType = DATA_TEXT;

  init(s: string, start: number): void {
    this.s = s;
    this.len = s.length;
    this.pos = 0;
    this.isClose = false;
    this.tokenStart = 0;
    this.tokenLen = 0;
    this.tokenType = DATA_TEXT;
    this.state = START_STATES[start];
  }

  /** Reads the next token; false at the end. */
  next(): boolean {
    return this.state(this);
  }

  /** The current token as the reference test driver prints it (text cut at a NUL, as %s). */
  tokenToString(): string {
    let text = this.s.substring(this.tokenStart, this.tokenStart + this.tokenLen);
    const nul = text.indexOf('\0');
    if (nul >= 0) text = text.substring(0, nul);
    return `${H5_TOKEN_NAMES[this.tokenType]},${this.tokenLen},${text}`;
  }
}

export function emit(hs: H5State, type: number, start: number, len: number): true {
  hs.tokenType = type;
  hs.tokenStart = start;
  hs.tokenLen = len;
  return true;
}

export const stateEof: StateFn = () => false;

export function stateData(hs: H5State): boolean {
  const lt = hs.s.indexOf('<', hs.pos);
  if (lt < 0) {
    emit(hs, DATA_TEXT, hs.pos, hs.len - hs.pos);
    hs.state = stateEof;
    return hs.tokenLen !== 0;
  }
  emit(hs, DATA_TEXT, hs.pos, lt - hs.pos);
  hs.pos = lt + 1;
  hs.state = stateTagOpen;
  return hs.tokenLen === 0 ? stateTagOpen(hs) : true;
}

function stateTagOpen(hs: H5State): boolean {
  if (hs.pos >= hs.len) return false;
  const c = hs.s.charCodeAt(hs.pos);
  if (c === BANG) {
    hs.pos += 1;
    return stateMarkupDeclarationOpen(hs);
  }
  if (c === SLASH) {
    hs.pos += 1;
    hs.isClose = true;
    return stateEndTagOpen(hs);
  }
  if (c === QUESTION) {
    hs.pos += 1;
    return stateBogusComment(hs);
  }
  if (c === PERCENT) {
    // "<% ... %>": not in the spec, a comment to IE <= 9 and old Safari
    hs.pos += 1;
    return stateBogusComment2(hs);
  }
  if (isAsciiLetter(c) || c === 0) return stateTagName(hs); // IE ignores NULs
  if (hs.pos === 0) return stateData(hs);
  // "<" then something else: the '<' is text
  emit(hs, DATA_TEXT, hs.pos - 1, 1);
  hs.state = stateData;
  return true;
}

function stateEndTagOpen(hs: H5State): boolean {
  if (hs.pos >= hs.len) return false;
  const c = hs.s.charCodeAt(hs.pos);
  if (c === GT) return stateData(hs);
  if (isAsciiLetter(c)) return stateTagName(hs);
  hs.isClose = false;
  return stateBogusComment(hs);
}

export function stateTagNameClose(hs: H5State): boolean {
  hs.isClose = false;
  emit(hs, TAG_NAME_CLOSE, hs.pos, 1);
  hs.pos += 1;
  hs.state = hs.pos < hs.len ? stateData : stateEof;
  return true;
}

function stateTagName(hs: H5State): boolean {
  const { s, len } = hs;
  let pos = hs.pos;
  while (pos < len) {
    const c = s.charCodeAt(pos);
    if (c === 0) {
      pos += 1; // old browsers ignore NULs in tag names
    } else if (isWhite(c)) {
      emit(hs, TAG_NAME_OPEN, hs.pos, pos - hs.pos);
      hs.pos = pos + 1;
      hs.state = stateBeforeAttributeName;
      return true;
    } else if (c === SLASH) {
      emit(hs, TAG_NAME_OPEN, hs.pos, pos - hs.pos);
      hs.pos = pos + 1;
      hs.state = stateSelfClosingStartTag;
      return true;
    } else if (c === GT) {
      emit(hs, TAG_NAME_OPEN, hs.pos, pos - hs.pos);
      if (hs.isClose) {
        hs.pos = pos + 1;
        hs.isClose = false;
        hs.tokenType = TAG_CLOSE;
        hs.state = stateData;
      } else {
        hs.pos = pos;
        hs.state = stateTagNameClose;
      }
      return true;
    } else {
      pos += 1;
    }
  }
  emit(hs, TAG_NAME_OPEN, hs.pos, len - hs.pos);
  hs.state = stateEof;
  return true;
}

/** Start states by DATA_STATE / VALUE_* (libinjection_h5_init). */
const START_STATES: readonly StateFn[] = [
  stateData,
  stateBeforeAttributeName,
  stateAttributeValueSingleQuote,
  stateAttributeValueDoubleQuote,
  stateAttributeValueBackQuote,
];
