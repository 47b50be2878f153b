import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FUZZ_SEED } from '../../reliability/support/hostile-inputs.js';
import { normalizePath, requestPaths } from '../../../daemon/proxy/path-normal-form.js';
import { compilePrefixTable, type PrefixTable } from '../../../daemon/proxy/path-prefix.js';
import { protectedPathArb, segmentArb, spellingArb } from './path-encodings.js';

/** The suite's run counts; WAFCTL_FUZZ_RUNS (npm run reliability) scales them up. */
const RUNS = (n: number) => Math.max(n, Number(process.env.WAFCTL_FUZZ_RUNS ?? 0));

// The normal form decides what page protection and rate limits see, so it is tested as the
// attacker uses it: every spelling of a protected path must land on it, whatever the bytes.

/** What checks/page.ts and checks/rate-limit.ts do: either form of the request may hit the rule. */
function hits<T>(table: PrefixTable<T>, raw: string): T[] {
  const { path, unresolved } = requestPaths(raw);
  const out: T[] = [];
  const a = table.match(path);
  if (a) out.push(a.value);
  const b = unresolved ? table.match(unresolved) : undefined;
  if (b && b !== a) out.push(b.value);
  return out;
}

describe('path normal form: the cases of the security review and of each decision', () => {
  it.each([
    // H2: an escape that is not UTF-8 next to an encoded letter of the prefix.
    ['/%77p-admin/%ff', '/wp-admin/\ufffd'],
    ['/wp%2dadmin/index.php%80', '/wp-admin/index.php\ufffd'],
    ['/%61pi/x%ff', '/api/x\ufffd'],
    ['/%C0%AF', '/\ufffd\ufffd'],
    // Bytes, either hex case, UTF-8 when valid.
    ['/caf%C3%A9', '/café'], ['/CAF%c3%89', '/café'], ['/CAFÉ', '/café'],
    // Separators, dot segments, `//`.
    ['/a\\..\\wp-admin', '/wp-admin'], ['/a%5c..%5cwp-admin', '/wp-admin'], ['/wp-admin%2fx', '/wp-admin/x'],
    ['/%2e%2e/wp-admin', '/wp-admin'], ['/x/.%2E/wp-admin', '/wp-admin'], ['//wp-admin//x', '/wp-admin/x'], ['/./wp-admin', '/wp-admin'],
    ['/a/b/../../wp-admin', '/wp-admin'], ['/../../wp-admin', '/wp-admin'], ['/a/.', '/a/'], ['/a/..', '/'], ['/...', '/'],
    // Parameters (servlet containers) and NUL (C strings) end a segment's name.
    ['/wp-admin;x/', '/wp-admin/'], ['/public/..;/wp-admin/', '/wp-admin/'], ['/wp-admin%3bx', '/wp-admin'], ['/wp-admin%00.jpg', '/wp-admin'],
    // Windows drops trailing dots and spaces.
    ['/wp-admin./', '/wp-admin/'], ['/wp-admin%20/', '/wp-admin/'], ['/wp-admin.%20.', '/wp-admin'],
    // Case.
    ['/WP-ADMIN', '/wp-admin'], ['/%57P-Admin', '/wp-admin'],
    // Escapes that are not escapes stay text; `%`, `?`, `#` in the result are written escaped.
    ['/%zz', '/%25zz'], ['/100%', '/100%25'], ['/%25ff', '/%25ff'], ['/a%3fb', '/a%3fb'], ['/a%23b', '/a%23b'],
    // Query, fragment, absolute form, no path.
    ['/wp-admin/?x=1', '/wp-admin/'], ['/wp-admin#x', '/wp-admin'], ['http://host.test/wp-admin?x', '/wp-admin'], ['*', '/'], ['host.test:443', '/'],
    ['/.well-known/wafctl/challenge', '/.well-known/wafctl/challenge'],
  ])('%s -> %s', (raw, normal) => expect(normalizePath(raw)).toBe(normal));

  it('keeps the written form only when `..` changes the answer', () => {
    expect(requestPaths('/wp-admin/x')).toEqual({ path: '/wp-admin/x', unresolved: null });
    expect(requestPaths('/wp-admin/../public')).toEqual({ path: '/public', unresolved: '/wp-admin/../public' });
    expect(requestPaths('/wp-admin/%2e%2e%2fpublic')).toEqual({ path: '/public', unresolved: '/wp-admin/../public' });
  });

  it('never throws, always starts with /, and is its own normal form (stored paths are normal forms)', () => {
    const chars = fc.constantFrom(...'/\\.;%?#:aZ09 \t\u0000é中\ud800', '%2e', '%2f', '%5c', '%ff', '%c3', '%a9', '%00', '%3b', '%25', '%3f', '..', '//');
    fc.assert(fc.property(fc.array(chars, { maxLength: 30 }).map((a) => a.join('')), (text) => {
      for (const raw of [text, '/' + text]) {
        const { path, unresolved } = requestPaths(raw);
        expect(path.startsWith('/')).toBe(true);
        expect(normalizePath(path)).toBe(path);
        if (unresolved !== null) expect(unresolved.startsWith('/')).toBe(true);
      }
    }), { numRuns: RUNS(3000), seed: FUZZ_SEED });
  });
});

describe('every spelling of a protected path is protected (property)', () => {
  it('lands on the protected rule, whatever the encoding, case, separators, parameters and tail', () => {
    fc.assert(fc.property(protectedPathArb.chain((p) => fc.tuple(fc.constant(p), spellingArb(p))), ([path, spelling]) => {
      const table = compilePrefixTable([{ path, value: 'protected' }, { path: '/', value: 'root' }, { path: '/zz1', value: 'decoy' }]);
      expect(hits(table, spelling.raw), `${spelling.raw} must hit ${path}`).toContain('protected');
    }), { numRuns: RUNS(5000), seed: FUZZ_SEED });
  });

  it('the most specific rule cannot be traded for a looser one with `..` (both forms apply)', () => {
    const table = compilePrefixTable([{ path: '/wp-admin', value: 'admin' }, { path: '/wp-admin/admin-ajax.php', value: 'ajax' }]);
    expect(hits(table, '/wp-admin/admin-ajax.php/../users.php')).toEqual(['admin', 'ajax']);
    expect(hits(table, '/wp-admin/admin-ajax.php/%2e%2e/users.php')).toEqual(['admin', 'ajax']);
    expect(hits(table, '/wp-admin/admin-ajax.php')).toEqual(['ajax']);
  });

  it('does not protect the neighbours: a sibling segment stays outside, however it is spelled', () => {
    const siblingArb = protectedPathArb.filter((p) => !p.endsWith('/')).chain((p) =>
      fc.tuple(fc.constant(p), segmentArb).chain(([path, extra]) => fc.tuple(fc.constant(path), spellingArb(`${path}${extra}`))));
    fc.assert(fc.property(siblingArb, ([path, spelling]) => {
      const table = compilePrefixTable([{ path, value: 'protected' }]);
      // A sibling whose extra text is dropped by Windows (trailing dots) or starts parameters is the same name.
      fc.pre(normalizePath(spelling.raw) !== normalizePath(path));
      expect(hits(table, spelling.raw), `${spelling.raw} is not ${path}`).toEqual([]);
    }), { numRuns: RUNS(2000), seed: FUZZ_SEED });
  });
});
