// XML: the document is checked for well-formedness (an error sets REQBODY_ERROR) and answers
// XML:<xpath> for the expressions rule sets use: "/*" (the root element's text content, which is all
// the document's text), "//*" (every element's text content) and "//@*" (every attribute value).
// Other XPath expressions select nothing (documented in README.md). No ARGS come from XML bodies.
import type { BodyProcessor } from './types.js';
import { parseXml, textContent, XmlSyntaxError, type XmlDocument } from './xml-document.js';
import { ParseClock } from './parse-clock.js';

export const xml: BodyProcessor = (body, _contentType, limits) => {
  let doc: XmlDocument;
  const clock = new ParseClock(limits);
  try {
    doc = parseXml(body.toString('latin1'), () => clock.tick());
  } catch (err) {
    if (!(err instanceof XmlSyntaxError)) throw err;
    return { args: [], files: [], error: `XML parser error: ${err.message}` };
  }
  const selected = new Map<string, string[]>();
  return {
    args: [],
    files: [],
    xml: {
      select(xpath: string): string[] {
        // Text is joined on first use (xml-document.ts) and kept: rules ask for the same few paths.
        const key = xpath.trim();
        let values = selected.get(key);
        if (values === undefined) {
          values = selectFrom(doc, key);
          selected.set(key, values);
        }
        return values;
      },
    },
  };
};

function selectFrom(doc: XmlDocument, xpath: string): string[] {
  switch (xpath) {
    case '/*': return doc.elements.length > 0 ? [textContent(doc, doc.elements[0])] : [];
    case '//*': return doc.elements.map((el) => textContent(doc, el));
    case '//@*': return doc.elements.flatMap((el) => el.attributes);
    default: return [];
  }
}
