// Property-based fuzzing of the admin socket routes (daemon/admin/ROUTES.md) over the real unix
// socket of the real daemon in-process: hostile path parameters, bodies, content types, methods.
// Every answer is the envelope with a documented code at its status, never a 5xx; a refused request
// leaves config.json as it was. /admin/shutdown is left out (it answers, then stops the daemon).
import fc from 'fast-check';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminProblem, Tally } from './support/contract.js';
import { FUZZ_SEED, bodyFor, contentType, extraHeaders, hostileQuery, mutated, nastyString, shown } from './support/hostile-inputs.js';
import { SITE_DOMAIN, startFuzzDaemon, type FuzzDaemon } from './support/in-process-daemon.js';
import { exchange } from './support/raw-http.js';

const RUNS = Number(process.env.WAFCTL_FUZZ_RUNS ?? 300);

const domain = fc.oneof(
  { weight: 4, arbitrary: fc.domain() },
  { weight: 2, arbitrary: fc.constantFrom(SITE_DOMAIN, 'xn--bcher-kva.example', 'bücher.example', 'a.b', 'localhost', '1.2.3.4', 'example.com.', '*.example.com', 'a..b', `${'a'.repeat(64)}.com`, `${'a'.repeat(63)}.`.repeat(4) + 'com') },
  { weight: 1, arbitrary: nastyString },
);
const origin = fc.oneof(fc.constantFrom('http://127.0.0.1:9', 'https://origin.example:8443', 'http://[::1]:80', 'ftp://x', 'http://x/path', 'javascript:alert(1)', 'http://', ''), nastyString);
const plan = fc.oneof(fc.constantFrom('free', 'advanced', 'enterprise'), nastyString);
const component = fc.record({ slug: nastyString, version: nastyString });

interface Route {
  method: string;
  path: (param: string) => string;
  body?: fc.Arbitrary<unknown>;
}

const ROUTES: Route[] = [
  { method: 'GET', path: () => '/admin/status' },
  { method: 'POST', path: () => '/admin/reload' },
  { method: 'GET', path: () => '/admin/sites' },
  { method: 'POST', path: () => '/admin/sites', body: mutated({ domain, origin, aliases: fc.array(domain, { maxLength: 4 }), plan }) },
  { method: 'GET', path: (p) => `/admin/sites/${p}` },
  { method: 'PATCH', path: (p) => `/admin/sites/${p}`, body: mutated({ origin, plan, aliases: fc.array(domain, { maxLength: 4 }) }) },
  { method: 'POST', path: (p) => `/admin/sites/${p}/disable` },
  { method: 'POST', path: (p) => `/admin/sites/${p}/enable` },
  { method: 'DELETE', path: (p) => `/admin/sites/${p}` },
  { method: 'POST', path: (p) => `/admin/sites/${p}/key` },
  { method: 'GET', path: () => '/admin/account' },
  { method: 'PUT', path: () => '/admin/account', body: mutated({ api_access: fc.oneof(fc.boolean(), nastyString) }) },
  { method: 'GET', path: () => '/admin/tokens' },
  { method: 'POST', path: () => '/admin/tokens', body: mutated({ name: fc.oneof(fc.string({ maxLength: 100 }), nastyString) }) },
  { method: 'DELETE', path: (p) => `/admin/tokens/${p}` },
  { method: 'GET', path: () => '/admin/vulndb' },
  { method: 'POST', path: () => '/admin/vulndb/import', body: mutated({ source: fc.oneof(fc.constantFrom('feed.json', 'file:///etc/hostname', '/nonexistent/feed.json', '/etc/hostname'), nastyString) }) },
  { method: 'POST', path: () => '/admin/vulndb/refresh' },
  { method: 'POST', path: () => '/admin/vulndb/check', body: mutated({ cms_version: nastyString, plugins: fc.array(component, { maxLength: 3 }), themes: fc.array(component, { maxLength: 3 }) }) },
];

const param = fc.oneof(
  { weight: 3, arbitrary: domain.map((s) => encodeURIComponent(s.replace(/[\uD800-\uDFFF]/g, '?'))) },
  { weight: 2, arbitrary: fc.constantFrom('1', '2', '0', '-1', '1.5', '1e3', '99999999999999999999', '%', '%zz', '%2F', '..', '%00', 'x'.repeat(600)) },
);

const caseArb = fc.record({
  route: fc.nat({ max: ROUTES.length - 1 }),
  param,
  method: fc.oneof({ weight: 9, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS') }),
  query: fc.oneof({ weight: 4, arbitrary: fc.constant('') }, { weight: 1, arbitrary: hostileQuery }),
  contentType,
  extra: extraHeaders,
});

let d: FuzzDaemon;
const tally = new Tally();

beforeAll(async () => {
  d = await startFuzzDaemon();
}, 60_000);
afterAll(async () => {
  console.log(tally.summary('admin socket'));
  await d?.stop();
});

describe('admin socket under hostile input', () => {
  it(`answers ${RUNS} hostile requests with the documented envelope and changes nothing when it refuses`, async () => {
    const bodies = ROUTES.map((r) => bodyFor(r.body ?? fc.constant({}), 1024 * 1024 + 10));
    // The vulndb upload route takes raw bytes: garbage, truncated JSON, nothing.
    const upload = fc.oneof(fc.uint8Array({ maxLength: 2000 }).map((a) => shown(Buffer.from(a))), fc.constantFrom('{"a":', '{}', '[]', '').map((t) => shown(Buffer.from(t))));
    const withBody = fc.oneof(
      { weight: 19, arbitrary: caseArb.chain((c) => bodies[c.route].map((body) => ({ ...c, body, upload: false }))) },
      { weight: 1, arbitrary: fc.tuple(caseArb, upload).map(([c, body]) => ({ ...c, body, upload: true })) },
    );
    await fc.assert(
      fc.asyncProperty(withBody, async (c) => {
        const route = ROUTES[c.route];
        const method = c.upload ? 'PUT' : (c.method ?? route.method);
        const target = (c.upload ? '/admin/vulndb/import' : route.path(c.param)) + c.query;
        const headers: Array<[string, string | Buffer]> = c.upload
          ? [['Content-Type', 'application/octet-stream'], ['X-Vulndb-Source', 'fuzz']]
          : [...(c.contentType === undefined ? [] : [['Content-Type', c.contentType] as [string, string]]), ...c.extra];
        const before = await d.fingerprint();
        const res = await exchange(d.admin, { method, target, headers, body: c.body });
        const problem = adminProblem(res);
        tally.record(`${method} ${target.slice(0, 80)}`, res, problem);
        expect(problem, `${method} ${target.slice(0, 200)} -> ${res.status} ${res.body.subarray(0, 300).toString()}`).toBeNull();
        if (res.status >= 400) {
          expect(await d.fingerprint(), 'a refused request changed config.json').toBe(before);
          tally.cases.refusedUnchanged++;
        }
      }),
      { numRuns: RUNS, seed: FUZZ_SEED, endOnFailure: true },
    );
    expect(tally.cases.documented).toBe(tally.cases.tried);
  }, 600_000);

  it('is still up, unpolluted, and logged no error', async () => {
    const res = await exchange(d.admin, { method: 'GET', target: '/admin/status', headers: [] });
    expect(res.status).toBe(200);
    expect(Object.keys(Object.prototype)).toEqual([]);
    const log = await readFile(d.app.paths.log, 'utf8');
    expect(log).not.toMatch(/"level":(50|60)/);
  });
});
