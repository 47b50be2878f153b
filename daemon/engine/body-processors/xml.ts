// XML: the document is checked for well-formedness (an error sets REQBODY_ERROR) and answers
// XML:<xpath> for the expressions rule sets use: "/*" (the root element's text content, which is all
// the document's text), "//*" (every element's text content) and "//@*" (every attribute value).
// Other XPath expressions select nothing (documented in README.md). No ARGS come from XML bodies.
import type { BodyProcessor } from './types.js';
import { parseXml, XmlSyntaxError, type XmlElement } from './xml-document.js';

export const xml: BodyProcessor = (body) => {
  let elements: XmlElement[];
  try {
    elements = parseXml(body.toString('latin1'));
  } catch (err) {
    if (!(err instanceof XmlSyntaxError)) throw err;
    return { args: [], files: [], error: `XML parser error: ${err.message}` };
  }
  return {
    args: [],
    files: [],
    xml: {
      select(xpath: string): string[] {
        switch (xpath.trim()) {
          case '/*': return elements.length > 0 ? [elements[0].text] : [];
          case '//*': return elements.map((el) => el.text);
          case '//@*': return elements.flatMap((el) => el.attributes);
          default: return [];
        }
      },
    },
  };
};
