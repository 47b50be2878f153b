import type { FastifyInstance } from 'fastify';
import secureJsonParse from 'secure-json-parse';

// The ingestion routes' own JSON body parser, so the plugin answers the same whatever server it is
// registered in: exactly as the API server's envelope parser (daemon/api/envelope.ts) does, an empty
// body is no body, invalid JSON and keys that would poison a prototype (__proto__,
// constructor.prototype) are a 400 SyntaxError with one message.
// Tried and dropped: skipping secure-json-parse's two regex scans when the text cannot hold such a
// key (bench/ingest/parts.mjs): no measurable gain, JSON.parse is the whole cost.

export const INVALID_JSON_MESSAGE = 'the request body is not valid JSON';

export function parseIngestJson(body: string): unknown {
  const text = body.trim();
  if (text === '') return undefined;
  try {
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
