/**
 * The HTML5 tokenizer's states inside a tag after its name: attribute names, '=', quoted and
 * unquoted values, "/>" (HTML5 spec 12.2.4.34-43, as libinjection reduces them).
 */
import { DOUBLE, EOF, EQUALS, GT, SINGLE, SLASH, TICK, isWhite } from './html5-bytes.js';
import {
  ATTR_NAME, ATTR_VALUE, TAG_NAME_CLOSE, TAG_NAME_SELFCLOSE, emit, stateData, stateEof, stateTagNameClose,
  type H5State,
} from './html5-tokenizer.js';

/** Skips white space (NUL included) and returns the next byte, or EOF. */
function skipWhite(hs: H5State): number {
  while (hs.pos < hs.len) {
    const c = hs.s.charCodeAt(hs.pos);
    if (!isWhite(c)) return c === 0xff ? EOF : c; // a signed char in C: byte 0xFF reads as -1, EOF
    hs.pos += 1;
  }
  return EOF;
}

export function stateBeforeAttributeName(hs: H5State): boolean {
  const c = skipWhite(hs);
  if (c === EOF) return false;
  if (c === SLASH) {
    hs.pos += 1;
    return stateSelfClosingStartTag(hs);
  }
  if (c === GT) {
    hs.state = stateData;
    emit(hs, TAG_NAME_CLOSE, hs.pos, 1);
    hs.pos += 1;
    return true;
  }
  return stateAttributeName(hs);
}

function stateAttributeName(hs: H5State): boolean {
  const { s, len } = hs;
  let pos = hs.pos + 1;
  while (pos < len) {
    const c = s.charCodeAt(pos);
    if (isWhite(c)) {
      emit(hs, ATTR_NAME, hs.pos, pos - hs.pos);
      hs.state = stateAfterAttributeName;
      hs.pos = pos + 1;
      return true;
    }
    if (c === SLASH) {
      emit(hs, ATTR_NAME, hs.pos, pos - hs.pos);
      hs.state = stateSelfClosingStartTag;
      hs.pos = pos + 1;
      return true;
    }
    if (c === EQUALS) {
      emit(hs, ATTR_NAME, hs.pos, pos - hs.pos);
      hs.state = stateBeforeAttributeValue;
      hs.pos = pos + 1;
      return true;
    }
    if (c === GT) {
      emit(hs, ATTR_NAME, hs.pos, pos - hs.pos);
      hs.state = stateTagNameClose;
      hs.pos = pos;
      return true;
    }
    pos += 1;
  }
  emit(hs, ATTR_NAME, hs.pos, len - hs.pos);
  hs.state = stateEof;
  hs.pos = len;
  return true;
}

function stateAfterAttributeName(hs: H5State): boolean {
  const c = skipWhite(hs);
  if (c === EOF) return false;
  if (c === SLASH) {
    hs.pos += 1;
    return stateSelfClosingStartTag(hs);
  }
  if (c === EQUALS) {
    hs.pos += 1;
    return stateBeforeAttributeValue(hs);
  }
  if (c === GT) return stateTagNameClose(hs);
  return stateAttributeName(hs);
}

function stateBeforeAttributeValue(hs: H5State): boolean {
  const c = skipWhite(hs);
  if (c === EOF) {
    hs.state = stateEof;
    return false;
  }
  if (c === DOUBLE) return stateAttributeValueDoubleQuote(hs);
  if (c === SINGLE) return stateAttributeValueSingleQuote(hs);
  if (c === TICK) return stateAttributeValueBackQuote(hs); // IE
  return stateAttributeValueNoQuote(hs);
}

function stateAttributeValueQuote(hs: H5State, quote: string): boolean {
  // skip the opening quote, unless tokenizing started inside the value (pos 0): then "'><foo"
  // gives an empty value first
  if (hs.pos > 0) hs.pos += 1;
  const end = hs.s.indexOf(quote, hs.pos);
  if (end < 0) {
    emit(hs, ATTR_VALUE, hs.pos, hs.len - hs.pos);
    hs.state = stateEof;
  } else {
    emit(hs, ATTR_VALUE, hs.pos, end - hs.pos);
    hs.state = stateAfterAttributeValueQuoted;
    hs.pos += hs.tokenLen + 1;
  }
  return true;
}

// function declarations, not arrow consts: html5-tokenizer.ts lists them at load, and a
// cyclic import must find them initialised
export function stateAttributeValueDoubleQuote(hs: H5State): boolean {
  return stateAttributeValueQuote(hs, '"');
}
export function stateAttributeValueSingleQuote(hs: H5State): boolean {
  return stateAttributeValueQuote(hs, "'");
}
export function stateAttributeValueBackQuote(hs: H5State): boolean {
  return stateAttributeValueQuote(hs, '`');
}

function stateAttributeValueNoQuote(hs: H5State): boolean {
  const { s, len } = hs;
  let pos = hs.pos;
  while (pos < len) {
    const c = s.charCodeAt(pos);
    if (isWhite(c)) {
      emit(hs, ATTR_VALUE, hs.pos, pos - hs.pos);
      hs.pos = pos + 1;
      hs.state = stateBeforeAttributeName;
      return true;
    }
    if (c === GT) {
      emit(hs, ATTR_VALUE, hs.pos, pos - hs.pos);
      hs.pos = pos;
      hs.state = stateTagNameClose;
      return true;
    }
    pos += 1;
  }
  hs.state = stateEof;
  emit(hs, ATTR_VALUE, hs.pos, len - hs.pos);
  return true;
}

function stateAfterAttributeValueQuoted(hs: H5State): boolean {
  if (hs.pos >= hs.len) return false;
  const c = hs.s.charCodeAt(hs.pos);
  if (isWhite(c)) {
    hs.pos += 1;
    return stateBeforeAttributeName(hs);
  }
  if (c === SLASH) {
    hs.pos += 1;
    return stateSelfClosingStartTag(hs);
  }
  if (c === GT) {
    emit(hs, TAG_NAME_CLOSE, hs.pos, 1);
    hs.pos += 1;
    hs.state = stateData;
    return true;
  }
  return stateBeforeAttributeName(hs);
}

export function stateSelfClosingStartTag(hs: H5State): boolean {
  if (hs.pos >= hs.len) return false;
  if (hs.s.charCodeAt(hs.pos) === GT) {
    // always entered after a '/', so pos > 0 (the C code reports an error otherwise)
    if (hs.pos <= 0) return false;
    emit(hs, TAG_NAME_SELFCLOSE, hs.pos - 1, 2);
    hs.state = stateData;
    hs.pos += 1;
    return true;
  }
  return stateBeforeAttributeName(hs);
}
