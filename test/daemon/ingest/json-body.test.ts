import fc from 'fast-check';
import secureJsonParse from 'secure-json-parse';
import { describe, expect, it } from 'vitest';
import { INVALID_JSON_MESSAGE, parseIngestJson } from '../../../daemon/ingest/json-body.js';

// The ingestion body parser must answer as the envelope's secure-json-parse parser did: same
// values, same refusals (invalid JSON, prototype-poisoning keys however they are spelt).

function envelopeParse(body: string): { value: unknown } | 'refused' {
  const text = body.trim();
  if (text === '') return { value: undefined };
  try {
    return { value: secureJsonParse.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }) };
  } catch {
    return 'refused';
  }
}

function ours(body: string): { value: unknown } | 'refused' {
  try {
    return { value: parseIngestJson(body) };
  } catch (error) {
    expect(error).toBeInstanceOf(SyntaxError);
    expect((error as Error).message).toBe(INVALID_JSON_MESSAGE);
    expect((error as { statusCode?: number }).statusCode).toBe(400);
    return 'refused';
  }
}

describe('parseIngestJson', () => {
  it.each([
    ['an empty body', '', { value: undefined }],
    ['blank space', ' \n\t', { value: undefined }],
    ['a BOM and an object', '\ufeff{"a":1}', { value: { a: 1 } }],
    ['an array', ' [{"a":1},{"b":"x"}] ', { value: [{ a: 1 }, { b: 'x' }] }],
    ['__proto__ in a value', '{"uri":"/?__proto__[x]=1","msg":"constructor"}', { value: { uri: '/?__proto__[x]=1', msg: 'constructor' } }],
    ['a constructor key without prototype', '{"constructor":{"name":"x"}}', { value: { constructor: { name: 'x' } } }],
    ['a __proto__ key', '[{"__proto__":{"polluted":true}}]', 'refused'],
    ['an escaped __proto__ key', '{"\\u005f_proto__":{}}', 'refused'],
    ['a fully escaped __proto__ key', '{"\\u005f\\u005f\\u0070\\u0072\\u006f\\u0074\\u006f\\u005f\\u005f" : 1}', 'refused'],
    ['constructor.prototype', '{"a":{"constructor":{"prototype":{"x":1}}}}', 'refused'],
    ['an escaped constructor.prototype', '{"a":{"\\u0063onstructor":{"prototype":{"x":1}}}}', 'refused'],
    ['an escape elsewhere and no such key', '{"msg":"caf\\u00e9","uri":"/"}', { value: { msg: 'café', uri: '/' } }],
    ['no escape and no such word', '[{"uri":"/wp-login.php?a=1","client_ip":"203.0.113.9"}]', { value: [{ uri: '/wp-login.php?a=1', client_ip: '203.0.113.9' }] }],
    ['malformed JSON', '{"timestamp_ms": ', 'refused'],
    ['two values', '{} {}', 'refused'],
  ])('%s', (_name, body, expected) => {
    expect(ours(body)).toEqual(expected);
    expect(envelopeParse(body)).toEqual(expected);
  });

  it('agrees with the envelope parser on arbitrary JSON text and its corruptions', () => {
    const key = fc.constantFrom('__proto__', 'constructor', 'prototype', 'a', '\\u005f_proto__', 'host');
    const text = fc.oneof(
      fc.json({ maxDepth: 3 }),
      fc.tuple(key, fc.json({ maxDepth: 2 }), key).map(([k1, v, k2]) => `{"${k1}":{"${k2}":${v}}}`),
      fc.tuple(fc.json({ maxDepth: 2 }), fc.nat(), fc.string({ maxLength: 3 })).map(([t, at, junk]) => t.slice(0, at % (t.length + 1)) + junk),
    );
    fc.assert(fc.property(text, (body) => {
      expect(ours(body)).toEqual(envelopeParse(body));
    }), { numRuns: 2000 });
  });
});
