/**
 * The HTML5 tokenizer's states after "<!", "<?" and "<%": comments (ending at "-->", "--!>" or
 * the end), CDATA sections, DOCTYPE, and bogus comments (up to the next '>', or "%>").
 */
import { DATA_TEXT, DOCTYPE, TAG_COMMENT, emit, stateData, stateEof, type H5State } from './html5-tokenizer.js';

const BANG = 0x21;
const DASH = 0x2d;
const GT = 0x3e;
const RIGHTB = 0x5d;

/** "<!": DOCTYPE (any case), "[CDATA[" (upper case only), "--" comment, else a bogus comment. */
export function stateMarkupDeclarationOpen(hs: H5State): boolean {
  const { s, pos } = hs;
  const remaining = hs.len - pos;
  if (remaining >= 7 && s.substring(pos, pos + 7).toUpperCase() === 'DOCTYPE' && isAscii7(s, pos)) {
    return stateDoctype(hs);
  }
  if (remaining >= 7 && s.startsWith('[CDATA[', pos)) {
    hs.pos += 7;
    return stateCdata(hs);
  }
  if (remaining >= 2 && s.charCodeAt(pos) === DASH && s.charCodeAt(pos + 1) === DASH) {
    hs.pos += 2;
    return stateComment(hs);
  }
  return stateBogusComment(hs);
}

/** toUpperCase maps a few non-ASCII letters onto ASCII ones (U+0131 to 'I'): bytes only here. */
function isAscii7(s: string, pos: number): boolean {
  for (let i = pos; i < pos + 7; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** Up to the next '>' (or the end). */
export function stateBogusComment(hs: H5State): boolean {
  const gt = hs.s.indexOf('>', hs.pos);
  if (gt < 0) {
    emit(hs, TAG_COMMENT, hs.pos, hs.len - hs.pos);
    hs.pos = hs.len;
    hs.state = stateEof;
  } else {
    emit(hs, TAG_COMMENT, hs.pos, gt - hs.pos);
    hs.pos = gt + 1;
    hs.state = stateData;
  }
  return true;
}

/** "<% ... %>" (IE <= 9, Safari < 4.0.3): up to "%>" (or the end). */
export function stateBogusComment2(hs: H5State): boolean {
  const end = hs.s.indexOf('%>', hs.pos);
  if (end < 0) {
    emit(hs, TAG_COMMENT, hs.pos, hs.len - hs.pos);
    hs.pos = hs.len;
    hs.state = stateEof;
    return true;
  }
  emit(hs, TAG_COMMENT, hs.pos, end - hs.pos);
  hs.pos = end + 2;
  hs.state = stateData;
  return true;
}

function commentToEnd(hs: H5State): boolean {
  hs.state = stateEof;
  emit(hs, TAG_COMMENT, hs.pos, hs.len - hs.pos);
  return true;
}

/** A comment ends at "-->" or "-!>" (NULs after the first '-' are skipped) or at the end. */
function stateComment(hs: H5State): boolean {
  const { s, len } = hs;
  let pos = hs.pos;
  for (;;) {
    const dash = s.indexOf('-', pos);
    if (dash < 0 || dash > len - 3) return commentToEnd(hs);
    let offset = 1;
    while (dash + offset < len && s.charCodeAt(dash + offset) === 0) offset++;
    if (dash + offset === len) return commentToEnd(hs);
    const c = s.charCodeAt(dash + offset);
    if (c !== DASH && c !== BANG) {
      pos = dash + 1;
      continue;
    }
    offset++;
    if (dash + offset === len) return commentToEnd(hs);
    if (s.charCodeAt(dash + offset) !== GT) {
      pos = dash + 1;
      continue;
    }
    offset++;
    emit(hs, TAG_COMMENT, hs.pos, dash - hs.pos);
    hs.pos = dash + offset;
    hs.state = stateData;
    return true;
  }
}

/** "<![CDATA[ ... ]]>" is text. */
function stateCdata(hs: H5State): boolean {
  const { s, len } = hs;
  let pos = hs.pos;
  for (;;) {
    const rb = s.indexOf(']', pos);
    if (rb < 0 || rb > len - 3) {
      hs.state = stateEof;
      emit(hs, DATA_TEXT, hs.pos, len - hs.pos);
      return true;
    }
    if (s.charCodeAt(rb + 1) === RIGHTB && s.charCodeAt(rb + 2) === GT) {
      hs.state = stateData;
      emit(hs, DATA_TEXT, hs.pos, rb - hs.pos);
      hs.pos = rb + 3;
      return true;
    }
    pos = rb + 1;
  }
}

/** "<!DOCTYPE ...>": up to the next '>' (or the end). */
function stateDoctype(hs: H5State): boolean {
  const gt = hs.s.indexOf('>', hs.pos);
  if (gt < 0) {
    hs.state = stateEof;
    emit(hs, DOCTYPE, hs.pos, hs.len - hs.pos);
  } else {
    hs.state = stateData;
    emit(hs, DOCTYPE, hs.pos, gt - hs.pos);
    hs.pos = gt + 1;
  }
  return true;
}
