import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { describeIssues, MAX_TEXT, MAX_URI, MS_MAX, MS_MIN } from '../../../shared/schemas/ingest.js';
import { splitBatch } from '../../../daemon/ingest/batch.js';
import { ENTRY_CHECKS } from '../../../daemon/ingest/entry-check.js';

// The fast twin must accept and refuse exactly what the zod schemas do and build the same output
// (same keys, same order, same values). Entries are a valid base with a few fields replaced by values
// from pools that sit on every bound the schemas draw, plus arbitrary JSON.

const S = (n: number, c = 'a') => c.repeat(n);
const stringsAround = (max: number) => [S(0), S(1), S(max - 1), S(max), S(max + 1)];
const notStrings = [null, 0, 1, true, false, [], {}, ['x'], { a: 1 }, 1.5, -1];
const ints = (lo: number, hi: number) => [lo - 1, lo, lo + 0.5, hi, hi + 1, (lo + hi) / 2, Math.floor((lo + hi) / 2), -0, 0, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 1, -Number.MAX_SAFE_INTEGER, 1e308, Infinity, -Infinity, NaN, String(lo), null];

const ipPool = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(
    '203.0.113.9', '0.0.0.0', '255.255.255.255', '256.1.1.1', '01.2.3.4', '1.2.3', '1.2.3.4.5', '1.2.3.04', ' 1.2.3.4', '1.2.3.4 ', '\t1.2.3.4\n',
    '1.2.3.4\n', '0x1.2.3.4', '::1', '::', '2001:db8::7', '2001:DB8::7', '::ffff:1.2.3.4', 'fe80::1%eth0', '2001:db8::/32', '1.2.3.4/8', '', ' ',
    '1.2.3.-4', '１.2.3.4', '1..2.3', 'abc', S(65, '1'), `${S(60, '0')}::1`, '100.200.250.199', '199.99.9.0',
    // IPv6 spellings on the edges of the plain reader (shared/ipv6-text.ts) and of ipaddr.js
    '1:2:3:4:5:6:7::', '::1:2:3:4:5:6:7', '1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7:8:9', '1:2:3:4:5:6:7::8', '1::2::3', '12345::1', ':1::', '1:::2',
    '1:', ':1', 'FFFF::', '0:0:0:0:0:ffff:102:304', '::ffff:0:0', '2001:db8::7 ', '2001:0db8:0000::0007', 'g::1', '::1.2.3.4', `${S(35, '0')}::1`,
  ) },
  { weight: 2, arbitrary: fc.stringMatching(/^[0-9a-fA-F:]{0,41}$/) },
  fc.ipV4(),
  fc.ipV6(),
  fc.ipV4Extended(),
  fc.string({ maxLength: 20 }),
  fc.constantFrom(...notStrings),
);

const methodPool = fc.oneof(
  fc.constantFrom('GET', 'get', 'M-SEARCH', '-GET', 'GET ', 'G3T', '', S(32, 'A'), S(33, 'A'), 'A-', 'Ä'),
  fc.stringMatching(/^[A-Za-z0-9 -]{0,34}$/),
  fc.constantFrom(...notStrings),
);

const anyJson = fc.jsonValue({ maxDepth: 2 });

function field<T>(values: readonly T[], extra: fc.Arbitrary<unknown> = anyJson): fc.Arbitrary<unknown> {
  return fc.oneof({ arbitrary: fc.constantFrom(...values), weight: 4 }, { arbitrary: extra, weight: 1 });
}

const common = {
  host: field([...stringsAround(253), ...notStrings, 'example.test']),
  client_ip: ipPool,
  uri: field([...stringsAround(MAX_URI), ...notStrings, '/?q=1']),
  method: methodPool,
  user_agent: field([...stringsAround(MAX_TEXT), ...notStrings, undefined]),
  referer: field([...stringsAround(MAX_URI), ...notStrings, undefined]),
};

const wafFields: Record<string, fc.Arbitrary<unknown>> = {
  ...common,
  timestamp_ms: field(ints(MS_MIN, MS_MAX)),
  waf_file: field([...stringsAround(1024), ...notStrings]),
  rule_id: field([...stringsAround(32), ...notStrings, '942100']),
  severity: field(['CRITICAL', 'WARNING', 'NOTICE', 'critical', 'HIGH', '', ...notStrings]),
  msg: field([...stringsAround(MAX_TEXT), ...notStrings]),
  matched_var: field([...stringsAround(MAX_TEXT), ...notStrings, undefined]),
  matched_data: field([...stringsAround(MAX_TEXT), ...notStrings, undefined]),
};

const accessFields: Record<string, fc.Arbitrary<unknown>> = {
  ...common,
  timestamp: field(ints(MS_MIN / 1000, MS_MAX / 1000)),
  status: field(ints(100, 599)),
  bytes_sent: field(ints(0, Number.MAX_SAFE_INTEGER)),
  request_time: field([0, -0, 0.012, -0.1, 1e308, Infinity, NaN, -Infinity, '0.1', null, undefined, 5]),
  upstream_time: field([0, 0.5, -1, Infinity, NaN, null, undefined, true]),
};

const validWaf = {
  timestamp_ms: 1_763_700_000_123, host: 'example.test', client_ip: '203.0.113.9', uri: '/?q=1', method: 'GET',
  waf_file: '/usr/share/modsecurity-crs/rules/REQUEST-942-APPLICATION-ATTACK-SQLI.conf', rule_id: '942100', severity: 'CRITICAL', msg: 'SQL Injection',
  user_agent: 'curl/8', referer: 'https://example.test/', matched_var: 'ARGS:q', matched_data: "1' or 1=1",
};
const validAccess = {
  timestamp: 1_763_700_000, host: 'example.test', client_ip: '2001:db8::1', uri: '/', method: 'GET', status: 200, bytes_sent: 10,
  user_agent: 'curl/8', referer: 'https://example.test/', request_time: 0.01, upstream_time: 0.005,
};

/** A valid entry with some fields replaced, some removed, unknown ones added, in a random key order. */
function entries(base: Record<string, unknown>, fields: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<unknown> {
  const keys = Object.keys(base);
  const entry = fc
    .record({
      replaced: fc.subarray(keys, { maxLength: 4 }).chain((names) => fc.tuple(...names.map((name) => fields[name].map((value) => [name, value] as const)))),
      removed: fc.subarray(keys, { maxLength: 2 }),
      extra: fc.dictionary(fc.constantFrom('extra', 'id', 'site_id', 'group', 'blocked', 'toString', 'x y'), anyJson, { maxKeys: 2 }),
      shuffle: fc.boolean(),
    })
    .map(({ replaced, removed, extra, shuffle }) => {
      const out: Record<string, unknown> = { ...base };
      for (const [name, value] of replaced) out[name] = value;
      for (const name of removed) delete out[name];
      Object.assign(out, extra);
      return shuffle ? Object.fromEntries(Object.entries(out).reverse()) : out;
    });
  return fc.oneof({ arbitrary: entry, weight: 20 }, { arbitrary: anyJson, weight: 1 });
}

function sameAnswer(check: (raw: unknown) => unknown, schema: z.ZodType, raw: unknown): void {
  const fast = check(raw);
  const slow = schema.safeParse(raw);
  expect(fast !== null, JSON.stringify(raw)?.slice(0, 300)).toBe(slow.success);
  if (slow.success) {
    expect(Object.keys(fast as object)).toEqual(Object.keys(slow.data as object));
    expect(fast).toStrictEqual(slow.data);
    expect(fast).not.toBe(raw); // a fresh object: the plugin completes it in place
  }
}

describe('fast entry checks agree with the zod schemas', () => {
  it('WAF events', () => {
    fc.assert(fc.property(entries(validWaf, wafFields), (raw) => sameAnswer(ENTRY_CHECKS.waf.check, ENTRY_CHECKS.waf.schema, raw)), { numRuns: 3000 });
  });

  it('access entries', () => {
    fc.assert(fc.property(entries(validAccess, accessFields), (raw) => sameAnswer(ENTRY_CHECKS.access.check, ENTRY_CHECKS.access.schema, raw)), { numRuns: 3000 });
  });

  it('the valid bases are accepted and keep only known fields', () => {
    expect(ENTRY_CHECKS.waf.check({ ...validWaf, extra: 1 })).toEqual(validWaf);
    expect(ENTRY_CHECKS.access.check({ ...validAccess, extra: 1 })).toEqual(validAccess);
  });
});

describe('splitBatch', () => {
  // The zod-only reference: what the ingestion API answered before the fast checks.
  function reference(raws: unknown[], hostProblem: (host: string) => string | null) {
    const accepted: Array<{ index: number; entry: unknown }> = [];
    const errors: Array<{ index: number; error: string }> = [];
    raws.forEach((raw, index) => {
      if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return void errors.push({ index, error: 'entry must be a JSON object' });
      const parsed = ENTRY_CHECKS.access.schema.safeParse(raw);
      if (!parsed.success) return void errors.push({ index, error: describeIssues(parsed.error) });
      const problem = hostProblem(parsed.data.host);
      if (problem !== null) errors.push({ index, error: `host: ${problem}` });
      else accepted.push({ index, entry: parsed.data });
    });
    return { accepted, errors };
  }

  it('gives the same accepted entries and the same error lines as zod alone', () => {
    const hostProblem = (host: string) => (host === 'example.test' ? null : `host ${host} is not a site of this account`);
    fc.assert(
      fc.property(fc.array(entries(validAccess, accessFields), { maxLength: 12 }), (raws) => {
        expect(splitBatch(raws, ENTRY_CHECKS.access, hostProblem)).toStrictEqual(reference(raws, hostProblem));
      }),
      { numRuns: 500 },
    );
  });

  it('falls back to the schema when the fast check refuses what the schema accepts', () => {
    const drifted = { check: () => null, schema: ENTRY_CHECKS.access.schema };
    const result = splitBatch([validAccess, { ...validAccess, status: 'x' }], drifted, () => null);
    expect(result.accepted.map((a) => a.index)).toEqual([0]);
    expect(result.errors).toEqual([{ index: 1, error: expect.stringMatching(/^status: /) }]);
  });
});
