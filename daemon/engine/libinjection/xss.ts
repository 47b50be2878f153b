/**
 * libinjection_xss: tokenizes the input as HTML5 from five starting points (as text, and as the
 * inside of an unquoted, single-, double- and back-quoted attribute value) and reports XSS when
 * any pass meets a DOCTYPE, a dangerous tag, an event handler or other dangerous attribute, a
 * javascript:/vbscript:/data: URL, or a comment that is really IE markup.
 */
import {
  ATTR_NAME, ATTR_VALUE, DATA_STATE, DOCTYPE, H5State, TAG_COMMENT, TAG_NAME_OPEN, VALUE_BACK_QUOTE,
} from './html5-tokenizer.js';
import { ATTR_BLACK, ATTR_INDIRECT, ATTR_NONE, ATTR_STYLE, ATTR_URL } from './xss-blacklists.js';
import { blackAttrKind, equalsIgnoringNul, isBlackTag, isBlackUrl } from './xss-checks.js';

/** Reused for every call: detection is synchronous, so calls never overlap. */
const h5 = new H5State();

/** libinjection_is_xss for one starting state (DATA_STATE or a VALUE_* context). */
export function isXssInContext(s: string, context: number): boolean {
  h5.init(s, context);
  let attr = ATTR_NONE;
  while (h5.next()) {
    const type = h5.tokenType;
    const start = h5.tokenStart;
    const len = h5.tokenLen;
    if (type !== ATTR_VALUE) attr = ATTR_NONE;

    if (type === DOCTYPE) return true;
    if (type === TAG_NAME_OPEN) {
      if (isBlackTag(s, start, len)) return true;
    } else if (type === ATTR_NAME) {
      attr = blackAttrKind(s, start, len);
    } else if (type === ATTR_VALUE) {
      if (attr === ATTR_BLACK || attr === ATTR_STYLE) return true;
      if (attr === ATTR_URL && isBlackUrl(s, start, len)) return true;
      if (attr === ATTR_INDIRECT && blackAttrKind(s, start, len) !== ATTR_NONE) return true;
      attr = ATTR_NONE;
    } else if (type === TAG_COMMENT && isBlackComment(s, start, len)) {
      return true;
    }
  }
  return false;
}

function isBlackComment(s: string, start: number, len: number): boolean {
  // IE ends tags at '`'
  for (let i = start; i < start + len; i++) if (s.charCodeAt(i) === 0x60) return true;
  if (len > 3) {
    const c0 = s.charCodeAt(start);
    const c1 = s.charCodeAt(start + 1) | 0x20;
    const c2 = s.charCodeAt(start + 2) | 0x20;
    if (c0 === 0x5b && c1 === 0x69 && c2 === 0x66) return true; // IE conditional comment "[if"
    if ((c0 | 0x20) === 0x78 && c1 === 0x6d && c2 === 0x6c) return true; // "xml"
  }
  // IE's <?import pseudo-tag and XML entity definitions
  return len > 5 && (equalsIgnoringNul('IMPORT', s, start, 6) || equalsIgnoringNul('ENTITY', s, start, 6));
}

export function detectXSS(input: string): boolean {
  // Exact shortcut: every verdict comes from a tag, comment or DOCTYPE token (which needs a
  // '<') or from an attribute value that follows a flagged attribute name (which needs a '=').
  // The value a quote context starts with follows no name, so it never counts.
  if (input.indexOf('<') < 0 && input.indexOf('=') < 0) return false;
  for (let context = DATA_STATE; context <= VALUE_BACK_QUOTE; context++) {
    if (isXssInContext(input, context)) return true;
  }
  return false;
}
