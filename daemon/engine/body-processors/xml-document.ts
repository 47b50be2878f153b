// A small, strict XML reader for request bodies: checks well-formedness the way libxml2 would reject
// a document (one root, matched tags, quoted attributes, known entities, valid UTF-8) and keeps just
// what XML:<xpath> needs: each element's text content and every attribute value, in document order.
// DTDs are skipped, never fetched or expanded (ModSecurity runs libxml2 without external entities).
// Cost stays linear in the body: the document's text is kept once, in order, and an element's text
// content (its descendants' too) is the run of pieces between its tags, joined only when a rule asks
// (an element per nesting level copying its descendants' text was quadratic). Nesting is limited as
// libxml2 limits it without XML_PARSE_HUGE (256 levels), and the parse runs on the time budget.

export interface XmlElement {
  name: string;
  attributes: string[];
  /** The element's text content is pieces[textStart .. textEnd) of its document. */
  textStart: number;
  textEnd: number;
}

export interface XmlDocument {
  elements: XmlElement[];
  /** Text and CDATA, in document order. */
  pieces: string[];
}

/** Text and CDATA of the element and its descendants, as libxml2's xmlNodeGetContent(). */
export function textContent(doc: XmlDocument, el: XmlElement): string {
  return doc.pieces.slice(el.textStart, el.textEnd).join('');
}

/** libxml2's xmlParserMaxDepth without XML_PARSE_HUGE (ModSecurity does not set it). */
export const XML_MAX_DEPTH = 256;

export class XmlSyntaxError extends Error {}

const NAME = /[A-Za-z_:\x80-\xff][-A-Za-z0-9_:.\x80-\xff]*/y;
const LATIN1_ENCODINGS = /^(iso-8859-1|latin1|l1|iso_8859-1|us-ascii|ascii)$/i;
const UTF8 = new TextDecoder('utf-8', { fatal: true });

export function parseXml(bytes: string, tick: () => void = () => {}): XmlDocument {
  let text = bytes.startsWith('\xef\xbb\xbf') ? bytes.slice(3) : bytes;
  const decl = /^<\?xml[^>]*?encoding\s*=\s*["']([^"']+)["']/.exec(text);
  const latin1 = decl !== null && LATIN1_ENCODINGS.test(decl[1]);
  if (latin1) {
    // libxml2 hands back UTF-8 whatever the document's encoding: convert up front.
    text = Buffer.from(text, 'utf8').toString('latin1');
  } else {
    try { UTF8.decode(Buffer.from(text, 'latin1')); } catch { throw new XmlSyntaxError('Input is not proper UTF-8'); }
  }
  const elements: XmlElement[] = [];
  const pieces: string[] = [];
  const stack: XmlElement[] = [];
  let pos = 0;
  let rootSeen = false;
  const n = text.length;
  const fail = (what: string): never => { throw new XmlSyntaxError(`${what} at offset ${pos}`); };
  const name = (): string => {
    NAME.lastIndex = pos;
    const m = NAME.exec(text);
    if (!m) fail('name expected');
    pos += m![0].length;
    return m![0];
  };
  const ws = () => { while (pos < n && ' \t\r\n'.includes(text[pos])) pos++; };
  const addText = (s: string) => { if (s.length > 0) pieces.push(s); };

  while (pos < n) {
    tick(); // per construct: a text run, a comment, a tag
    if (text[pos] !== '<') {
      const end = text.indexOf('<', pos);
      const raw = text.slice(pos, end < 0 ? n : end);
      if (stack.length === 0) {
        if (raw.trim().length > 0) fail(rootSeen ? 'extra content at the end of the document' : 'start tag expected');
      } else {
        addText(decodeEntities(raw, fail));
      }
      pos = end < 0 ? n : end;
      continue;
    }
    if (text.startsWith('<!--', pos)) {
      const end = text.indexOf('-->', pos + 4);
      if (end < 0) fail('comment not terminated');
      if (text.slice(pos + 4, end).includes('--')) fail("double hyphen within comment");
      pos = end + 3;
    } else if (text.startsWith('<![CDATA[', pos)) {
      if (stack.length === 0) fail('CDATA outside the root element');
      const end = text.indexOf(']]>', pos + 9);
      if (end < 0) fail('CDATA section not terminated');
      addText(text.slice(pos + 9, end));
      pos = end + 3;
    } else if (text.startsWith('<?', pos)) {
      const end = text.indexOf('?>', pos + 2);
      if (end < 0) fail('processing instruction not terminated');
      pos = end + 2;
    } else if (text.startsWith('<!DOCTYPE', pos)) {
      if (rootSeen || stack.length > 0) fail('DOCTYPE after the root element');
      pos = skipDoctype(text, pos, fail);
    } else if (text[pos + 1] === '/') {
      pos += 2;
      const closing = name();
      ws();
      if (text[pos] !== '>') fail('expected >');
      pos++;
      const el = stack.pop();
      if (!el || el.name !== closing) fail(`opening and ending tag mismatch: ${el?.name ?? ''} and ${closing}`);
      el!.textEnd = pieces.length;
    } else {
      pos++;
      if (stack.length === 0 && rootSeen) fail('extra content at the end of the document');
      if (stack.length >= XML_MAX_DEPTH) fail(`Excessive depth in document: ${XML_MAX_DEPTH} use XML_PARSE_HUGE option`);
      const el: XmlElement = { name: name(), attributes: [], textStart: pieces.length, textEnd: pieces.length };
      elements.push(el);
      const seen = new Set<string>();
      for (;;) {
        const before = pos;
        ws();
        if (text[pos] === '>' || text.startsWith('/>', pos)) break;
        if (pos === before) fail('attributes construct error');
        const attr = name();
        if (seen.has(attr)) fail(`attribute ${attr} redefined`);
        seen.add(attr);
        ws();
        if (text[pos] !== '=') fail('specification mandates value for attribute');
        pos++;
        ws();
        const quote = text[pos];
        if (quote !== '"' && quote !== "'") fail('AttValue: " or \' expected');
        const end = text.indexOf(quote, pos + 1);
        if (end < 0) fail('AttValue: unterminated');
        const raw = text.slice(pos + 1, end);
        if (raw.includes('<')) fail("unescaped '<' not allowed in attributes values");
        el.attributes.push(decodeEntities(raw, fail));
        pos = end + 1;
      }
      rootSeen = true;
      if (text.startsWith('/>', pos)) {
        pos += 2;
      } else {
        pos++;
        stack.push(el);
      }
    }
  }
  if (stack.length > 0) fail('premature end of data');
  if (!rootSeen) fail('start tag expected');
  return { elements, pieces };
}

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decodeEntities(raw: string, fail: (what: string) => never): string {
  if (!raw.includes('&')) return raw;
  return raw.replace(/&([^;&]*);?/g, (whole, ref: string) => {
    if (!whole.endsWith(';')) fail('entity reference not terminated');
    if (ref in PREDEFINED) return PREDEFINED[ref];
    const num = /^#(?:x([0-9a-fA-F]+)|([0-9]+))$/.exec(ref);
    if (!num) return fail(`entity '${ref}' not defined`);
    const cp = num[1] ? parseInt(num[1], 16) : parseInt(num[2], 10);
    if (cp === 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) fail(`invalid character reference ${ref}`);
    return Buffer.from(String.fromCodePoint(cp), 'utf8').toString('latin1');
  });
}

function skipDoctype(text: string, start: number, fail: (what: string) => never): number {
  let depth = 0;
  for (let i = start + 9; i < text.length; i++) {
    const c = text[i];
    if (c === '[') depth++;
    else if (c === ']') depth--;
    else if (c === '>' && depth <= 0) return i + 1;
  }
  return fail('DOCTYPE not terminated');
}
