// Table-driven: [parameter, input, expected match] per operator, as ModSecurity v2 evaluates them.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { operators } from '../../../../daemon/engine/operators/index.js';
import { fakeRuntime } from './fake-runtime.js';
import { memoPerTransaction } from '../../../../daemon/engine/operators/transaction-memo.js';
import { IpSet } from '../../../../daemon/engine/operators/ip-set.js';
import { atoi } from '../../../../daemon/engine/operators/c-atoi.js';
import { operatorCases } from './operator-cases.js';

const ctx = { file: 'test.conf', line: 1, ruleDir: join(dirname(fileURLToPath(import.meta.url)), 'fixtures') };
const compile = (name: string, param: string) => operators.get(name)!.create(param, ctx);

describe('operators: ModSecurity v2 behaviour', () => {
  for (const [name, rows] of Object.entries(operatorCases)) {
    describe(name, () => {
      it.each(rows)('%j on %j -> %s', (param, input, expected) => {
        expect(compile(name, param)(input, fakeRuntime())).toBe(expected);
      });
    });
  }
});

describe('captures', () => {
  it('@rx sets TX.0..n in PCRE numbering and clears stale ones', () => {
    const rt = fakeRuntime({ capturing: true });
    rt.captures.set(7, 'stale');
    expect(compile('rx', '(a)(?:x)?(b)?(c)')('zac', rt)).toBe(true);
    expect([...rt.captures.entries()].sort()).toEqual([[0, 'ac'], [1, 'a'], [2, ''], [3, 'c']]);
  });
  it('@rx ^.*$ (and .*, ^.*, .*$) captures any input whole, as the compiled regex does', () => {
    for (const pattern of ['^.*$', '.*', '^.*', '.*$']) {
      for (const input of ['User-Agent', '', 'two\nlines\n', '\xff\x00']) {
        const fast = fakeRuntime({ capturing: true });
        fast.captures.set(3, 'stale');
        expect(compile('rx', pattern)(input, fast)).toBe(true);
        // The same pattern through the regex compiler (one that does not take the shortcut).
        const slow = fakeRuntime({ capturing: true });
        expect(compile('rx', `(?:${pattern})`)(input, slow)).toBe(true);
        expect([...fast.captures.entries()]).toEqual([[0, input]]);
        expect([...slow.captures.entries()]).toEqual([[0, input]]);
      }
    }
  });

  it('@rx without capture leaves TX alone', () => {
    const rt = fakeRuntime();
    compile('rx', '(a)')('a', rt);
    expect(rt.captures.size).toBe(0);
  });
  it('@pm sets TX.0 to the phrase as written in the rule', () => {
    const rt = fakeRuntime({ capturing: true });
    expect(compile('pm', 'Select UNION')('x union y', rt)).toBe(true);
    expect(rt.captures.get(0)).toBe('UNION');
  });
  it('@pm reports the phrase that ends first, the longest one ending there', () => {
    const rt = fakeRuntime({ capturing: true });
    compile('pm', 'bcd abc bc')('xabcd', rt);
    expect(rt.captures.get(0)).toBe('abc');
  });
});

describe('macros', () => {
  it('expands %{...} per call', () => {
    const op = compile('within', '%{tx.allowed_methods}');
    expect(op('PUT', fakeRuntime({ macros: { 'tx.allowed_methods': 'GET PUT' } }))).toBe(true);
    expect(op('PUT', fakeRuntime({ macros: { 'tx.allowed_methods': 'GET' } }))).toBe(false);
  });
  it('@rx escapes the expanded text like ModSecurity (dots literal, bars still alternate)', () => {
    const op = compile('rx', '^%{tx.charsets}$');
    const rt = fakeRuntime({ macros: { 'tx.charsets': 'utf-8|iso-8859-1' } });
    expect(op('utf-8', rt)).toBe(true);
    expect(op('iso-8859-1', rt)).toBe(true);
    expect(op('utf_8', fakeRuntime({ macros: { 'tx.charsets': 'utf.8' } }))).toBe(false);
  });
  it('numeric operators expand their parameter', () => {
    expect(compile('ge', '%{tx.threshold}')('5', fakeRuntime({ macros: { 'tx.threshold': '5' } }))).toBe(true);
  });
});

describe('@geoLookup', () => {
  it('fills GEO for a public address and matches', () => {
    const rt = fakeRuntime();
    expect(compile('geolookup', '')('8.8.8.8', rt)).toBe(true);
    expect(rt.geo.COUNTRY_CODE).toMatch(/^[A-Z]{2}$/);
  });
  it('does not match private or invalid addresses', () => {
    expect(compile('geolookup', '')('10.1.2.3', fakeRuntime())).toBe(false);
    expect(compile('geolookup', '')('nope', fakeRuntime())).toBe(false);
  });
});

describe('@detectSQLi', () => {
  it('matches an injection and captures the fingerprint', () => {
    const rt = fakeRuntime({ capturing: true });
    expect(compile('detectsqli', '')("1' OR '1'='1", rt)).toBe(true);
    expect(rt.captures.get(0)).toMatch(/^[a-zA-Z0-9&()\-,;.:=!|^~{}[\]`*]+$/);
    expect(compile('detectsqli', '')('hello world', fakeRuntime())).toBe(false);
  });

  it('answers a repeated value from the transaction memo, capture included', () => {
    const op = compile('detectsqli', '');
    const rt = fakeRuntime({ capturing: true });
    expect(op("1' OR '1'='1", rt)).toBe(true);
    const fingerprint = rt.captures.get(0);
    rt.captures.clear();
    expect(op("1' OR '1'='1", rt)).toBe(true);
    expect(rt.captures.get(0)).toBe(fingerprint);
    expect(op('hello world', rt)).toBe(false);
    expect(op('hello world', fakeRuntime())).toBe(false);
  });
});

describe('memoPerTransaction', () => {
  it('computes once per distinct value and scope, and starts over past its bound', () => {
    const seen: string[] = [];
    const memo = memoPerTransaction((input: string) => {
      seen.push(input);
      return input.length;
    });
    const tx1 = {}, tx2 = {};
    expect([memo('abc', tx1), memo('abc', tx1), memo('de', tx1), memo('de', tx1), memo('abc', tx2), memo('abc', tx2)]).toEqual([3, 3, 2, 2, 3, 3]);
    expect(seen).toEqual(['abc', 'de', 'abc']); // another transaction starts its own memo
    for (let i = 0; i < 5000; i++) memo(`v${i}`, tx1);
    seen.length = 0;
    memo('v0', tx1);
    expect(seen).toEqual(['v0']); // the memo started over after 4,096 entries
  });
});

describe('@detectXSS', () => {
  it('matches script injection and not plain text', () => {
    expect(compile('detectxss', '')('<script>alert(1)</script>', fakeRuntime())).toBe(true);
    expect(compile('detectxss', '')('<img src=x onerror=alert(1)>', fakeRuntime())).toBe(true);
    expect(compile('detectxss', '')('hello <b>world</b>', fakeRuntime())).toBe(false);
  });
});

describe('load-time errors', () => {
  const bad: Array<[string, string, RegExp]> = [
    ['rx', '(?R)', /invalid regular expression/],
    ['pm', '   ', /missing parameter/],
    ['pmfromfile', 'missing.data', /could not open phrase file/],
    ['ipmatch', '10.0.0.0/33', /invalid netmask/],
    ['ipmatch', 'bogus', /invalid IP address/],
    ['ipmatchfromfile', 'bad-ips.data', /line 2: invalid IP address/],
    ['validatebyterange', '300', /invalid range value: 300/],
    ['validatebyterange', '20-10', /invalid range: 20-10/],
    ['rbl', '', /missing parameter/],
  ];
  it.each(bad)('@%s %j fails', (name, param, message) => {
    expect(() => compile(name, param)).toThrow(message);
  });
});

describe('registry', () => {
  it('has every operator CRS 3.3 and 4.x use', () => {
    for (const name of ['rx', 'pm', 'pmfromfile', 'pmf', 'streq', 'strmatch', 'beginswith', 'endswith', 'contains', 'containsword',
      'within', 'eq', 'ge', 'gt', 'le', 'lt', 'ipmatch', 'ipmatchfromfile', 'validatebyterange', 'validateurlencoding',
      'validateutf8encoding', 'detectsqli', 'detectxss', 'unconditionalmatch', 'nomatch', 'geolookup', 'rbl']) {
      expect(operators.has(name), name).toBe(true);
    }
  });
});

describe('IpSet answers kept per input (operators/ip-set.ts)', () => {
  it('answers a repeated input the same, and stays right past its bound', () => {
    const set = new IpSet();
    set.add('10.0.0.0/8');
    set.add('2001:db8::/32');
    for (let round = 0; round < 2; round++) {
      expect(set.has('10.1.2.3')).toBe(true);
      expect(set.has('11.1.2.3')).toBe(false);
      expect(set.has('2001:db8::1')).toBe(true);
    }
    // 5,000 distinct addresses (more than the answers kept): each still right, asked twice.
    for (let i = 0; i < 5000; i++) {
      const inside = `10.${(i >> 8) & 255}.${i & 255}.1`;
      const outside = `12.${(i >> 8) & 255}.${i & 255}.1`;
      expect(set.has(inside) && set.has(inside)).toBe(true);
      expect(set.has(outside) || set.has(outside)).toBe(false);
    }
    // A range added later changes the answers already given.
    expect(set.has('11.1.2.3')).toBe(false);
    set.add('11.0.0.0/8');
    expect(set.has('11.1.2.3')).toBe(true);
  });
});

describe('atoi (operators/c-atoi.ts), as glibc: (int) strtol(s, NULL, 10)', () => {
  it.each([
    ['', 0], ['abc', 0], ['0', 0], ['5', 5], ['  42', 42], [' \t\n5', 5], ['+7', 7], ['-7', -7], ['-0', 0],
    ['007', 7], ['12abc', 12], ['123456789', 123456789], ['-123456789', -123456789],
    // Ten digits and more: strtol's long, then the int cast keeps the low 32 bits.
    ['1234567890', 1234567890], ['2147483648', -2147483648], ['99999999999', 1215752191],
    ['9223372036854775808', -1], ['-9223372036854775809', 0],
  ])('%j -> %d', (text, expected) => {
    expect(atoi(text)).toBe(expected);
  });
});
