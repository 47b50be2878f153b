import type { FastifyInstance } from 'fastify';
import secureJsonParse from 'secure-json-parse';

// The ingestion routes' JSON body parser. It answers exactly as the API server's envelope parser
// (daemon/api/envelope.ts) did for these routes: an empty body is no body, invalid JSON and keys
// that would poison a prototype (__proto__, constructor.prototype) are a 400 SyntaxError. It is
// cheaper on the common body: secure-json-parse scans the whole text with two regular expressions
// after parsing it; those keys cannot be spelt without the words themselves or a \u escape, so a
// body with none of the three goes straight to JSON.parse and only the others pay for the scan.

export const INVALID_JSON_MESSAGE = 'the request body is not valid JSON';

const suspect = (text: string): boolean => text.includes('__proto__') || text.includes('constructor') || text.includes('\\u');

export function parseIngestJson(body: string): unknown {
  const text = body.trim();
  if (text === '') return undefined;
  try {
    if (!suspect(text)) return JSON.parse(text);
    return secureJsonParse.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch {
    const error = new SyntaxError(INVALID_JSON_MESSAGE) as SyntaxError & { statusCode: number };
    error.statusCode = 400;
    throw error;
  }
}

/** Installs the parser in this (encapsulated) context: application/json only, anything else 415. */
export function useIngestJsonParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    let value: unknown;
    try {
      value = parseIngestJson(body as string);
    } catch (error) {
      return done(error as Error, undefined);
    }
    done(null, value);
  });
}
