// fast-check arbitraries for what a hostile client sends: values of the wrong type, huge values,
// deep nesting, invalid UTF-8, prototype-pollution keys, wrong content types, odd headers and query
// strings. Bodies are bytes (not values), so malformed JSON and broken encodings reach the server.
import fc from 'fast-check';

/**
 * The fuzz seed: fixed in the suite, so CI is reproducible; WAFCTL_FUZZ_SEED=random (npm run
 * reliability) or a number explores further. A failure prints its seed and path to replay it.
 */
export const FUZZ_SEED = process.env.WAFCTL_FUZZ_SEED === 'random' ? Date.now() % 2 ** 31 : Number(process.env.WAFCTL_FUZZ_SEED ?? 20_261_122);

/** A short string from the nastier corners: controls, NUL, lone surrogates, RTL, SQL and path tricks. */
export const nastyString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '', ' ', '\u0000', '\uD800', '\uDFFF\uD800', '\u202E', '\r\n', '%00', '%', '%zz', '..', '../../etc/passwd',
    "' OR 1=1--", '<script>alert(1)</script>', '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty',
    'NaN', 'Infinity', '-0', '1e309', 'null', 'true', '0x10', '10.0.0.256', '::ffff:1.2.3.4', '1.2.3.4/33', '1.2.3.4/-1',
    'fe80::1%eth0', '0.0.0.0/0', '::/0', '255.255.255.255', 'ZZ', 'us', 'XX', 'EU', '\u0130', 'ß',
  ),
);

/** Long runs: near and over the documented bounds (100-character descriptions, 8 KiB URIs, 1 MiB bodies). */
export const longString: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom(99, 100, 101, 255, 4097, 8193, 65_537, 300_000), fc.constantFrom('a', '9', 'é', '\u{1F600}', '%', '\\', '"'))
  .map(([n, c]) => c.repeat(n));

/** A JSON value of any type, including the ones a field never expects. */
export const anyJsonValue: fc.Arbitrary<unknown> = fc.oneof(
  { depthSize: 'small' },
  nastyString,
  longString,
  fc.integer(),
  fc.constantFrom(0, -1, 1.5, 2 ** 53, -(2 ** 53), 1e308, -1e-308, Number.MAX_SAFE_INTEGER + 2),
  fc.boolean(),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 3 }),
  fc.array(nastyString, { maxLength: 5 }),
);

/** JSON text nested `depth` levels deep: arrays or objects. */
export function deepJson(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array' ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

/** Raw JSON texts that a value cannot express: prototype-pollution keys, duplicate keys, deep nesting. */
export const hostileJsonText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '{"__proto__":{"polluted":"yes"}}',
    '{"constructor":{"prototype":{"polluted":"yes"}}}',
    '[{"__proto__":{"polluted":"yes"}}]',
    '{"a":{"b":{"__proto__":{"polluted":"yes"}}}}',
    '{"ip":"1.2.3.4","__proto__":{"isAdmin":true}}',
    '{"ip":"1.2.3.4","ip":"5.6.7.8"}',
    '{"enabled":true,"enabled":false}',
    '{"a":1,}', '{', '}', '[', 'nul', 'tru', '"unterminated', "{'single':1}", '{"a":01}', '{"a":.5}', '{"a":NaN}', '{"a":Infinity}',
    '\uFEFF{}', '{"a":"\\ud800"}', '{"a":"\\u00"}', '1e999999', '-', '""', '0', '[]', '{}', 'null', 'true',
  ),
  fc.tuple(fc.constantFrom(64, 1_000, 100_000), fc.constantFrom('array' as const, 'object' as const)).map(([d, k]) => deepJson(d, k)),
);

/** Bytes that are not valid UTF-8, spliced into an otherwise plausible JSON document. */
export const invalidUtf8Body: fc.Arbitrary<Buffer> = fc
  .tuple(
    fc.constantFrom(
      [0xff], [0xfe, 0xff], [0xc3, 0x28], [0xa0, 0xa1], [0xe2, 0x28, 0xa1], [0xf0, 0x28, 0x8c, 0x28], [0xed, 0xa0, 0x80], [0xc0, 0xaf], [0xf8, 0x88, 0x80, 0x80, 0x80], [0x00],
    ),
    fc.constantFrom('{"ip":"', '{"domain":"', '{"name":"', '{"cms_version":"', '[{"host":"', '{"uri":"', '"'),
  )
  .map(([bad, prefix]) => Buffer.concat([Buffer.from(prefix), Buffer.from(bad), Buffer.from('"}')]));

/** A body's bytes, shown in counterexamples by size and first bytes rather than as a huge array. */
export function shown(bytes: Buffer): Buffer {
  return Object.assign(bytes, {
    [fc.toStringMethod]: () => `<${bytes.length} bytes: ${JSON.stringify(bytes.subarray(0, 160).toString('latin1'))}${bytes.length > 160 ? '...' : ''}>`,
  });
}

/** A body: nothing, a JSON value, a hostile JSON text, broken UTF-8, or a huge padded document. */
export function bodyFor(template: fc.Arbitrary<unknown>, hugeBytes: number): fc.Arbitrary<Buffer | undefined> {
  return rawBodyFor(template, hugeBytes).map((body) => (body === undefined ? undefined : shown(body)));
}

function rawBodyFor(template: fc.Arbitrary<unknown>, hugeBytes: number): fc.Arbitrary<Buffer | undefined> {
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 6, arbitrary: template.map((value) => Buffer.from(JSON.stringify(value) ?? 'null')) },
    { weight: 2, arbitrary: anyJsonValue.map((value) => Buffer.from(JSON.stringify(value) ?? 'null')) },
    { weight: 2, arbitrary: hostileJsonText.map((text) => Buffer.from(text)) },
    { weight: 1, arbitrary: invalidUtf8Body },
    { weight: 1, arbitrary: fc.constant(null).map(() => Buffer.from(`{"pad":"${'x'.repeat(hugeBytes)}"}`)) },
  );
}

/** A template's fields with, sometimes, one field dropped, replaced by a hostile value, or an extra key added. */
export function mutated(fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<unknown> {
  const keys = Object.keys(fields);
  return fc
    .tuple(
      fc.record(fields),
      fc.nat({ max: keys.length - 1 }),
      fc.oneof({ weight: 5, arbitrary: fc.constant('keep') }, { weight: 4, arbitrary: fc.constantFrom('drop', 'replace', 'extra', 'proto') }),
      anyJsonValue,
    )
    .map(([record, index, how, value]) => {
      const out: Record<string, unknown> = { ...record };
      const key = keys[index];
      if (how === 'drop') delete out[key];
      if (how === 'replace') out[key] = value;
      if (how === 'extra') out[`x_${index}`] = value;
      // An own key named __proto__ (JSON.stringify writes it; a careless merge would follow it).
      if (how === 'proto') Object.defineProperty(out, '__proto__', { value: { polluted: 'yes' }, enumerable: true });
      return out;
    });
}

/** Content-Type headers: right, wrong, and confusing. Undefined: no header at all. */
export const contentType: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 6, arbitrary: fc.constant('application/json') },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      undefined, 'application/json; charset=utf-8', 'APPLICATION/JSON', 'application/json; charset=latin1', 'text/plain',
      'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/octet-stream', 'application/jsonx',
      'application/json, text/plain', 'application/xml', '', ';', 'application/json\t', 'application/ld+json', '*/*',
    ),
  },
);

/** Extra request headers a hostile client adds (the request keeps its own Host and auth). */
export const extraHeaders: fc.Arbitrary<Array<[string, string | Buffer]>> = fc.oneof(
  { weight: 6, arbitrary: fc.constant<Array<[string, string | Buffer]>>([]) },
  {
    weight: 4,
    arbitrary: fc.array(
      fc.oneof(
        fc.tuple(fc.constantFrom('X-Forwarded-For', 'User-Agent', 'Accept', 'Cookie', 'Referer', 'X-Request-Id', 'Origin', 'Accept-Encoding'), nastyString.filter(isHeaderSafe)),
        fc.constant<[string, Buffer]>(['User-Agent', Buffer.from([0x4d, 0xff, 0xfe, 0x80])]), // obs-text: legal bytes, invalid UTF-8
        fc.constant<[string, string]>(['Accept', 'x'.repeat(20_000)]).map((h) => Object.assign(h, { [fc.toStringMethod]: () => '["Accept", <20,000 x>]' })), // over the 16 KiB limit
        fc.constant<[string, string]>(['Expect', '100-continue']),
        fc.constant<[string, string]>(['Content-Encoding', 'gzip']),
        fc.constant<[string, string]>(['Transfer-Encoding', 'identity']),
      ),
      { maxLength: 4 },
    ),
  },
);

/** Query strings: repeated, encoded, empty, unencoded and overlong parameters. */
export const hostileQuery: fc.Arbitrary<string> = fc.oneof(
  fc.constant(''),
  fc.constantFrom(
    '?', '?&&', '?=', '?page', '?page=', '?page=0', '?page=-1', '?page=1.5', '?page=1e3', '?page=99999999999999999999', '?page=1&page=2',
    '?per_page=9', '?per_page=101', '?per_page=abc', '?period=1y', '?period=24h&period=7d', '?period=', '?search=%', '?search=%zz',
    '?search=%00', '?search=%C0%AF', '?search=%FF%FE', '?__proto__[polluted]=yes', '?constructor[prototype][polluted]=yes',
    '?a[b][c][d][e][f]=1', '?search=' + '9'.repeat(10_000), '?all=1', '?all=true',
  ),
  fc.array(fc.tuple(fc.constantFrom('page', 'per_page', 'period', 'search', '__proto__', 'all', 'x'), nastyString), { maxLength: 3 })
    .map((pairs) => '?' + pairs.map(([k, v]) => `${k}=${encodeURIComponent(v.replace(/[\uD800-\uDFFF]/g, '?'))}`).join('&')),
);

function isHeaderSafe(value: string): boolean {
  // Control characters make node's own parser answer (covered by the raw-header cases); keep the rest.
  return !/[\u0000-\u0008\u000a-\u001f\u007f\u0100-\uffff]/.test(value);
}
