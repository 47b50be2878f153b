// Property-based fuzzing of every management endpoint (spec section 4, /api/v1) over real HTTPS
// against the real daemon assembled in-process: hostile headers, keys, query strings, content types
// and bodies. Each answer must be the documented envelope at its table status, never a 5xx; a
// refused request must leave config.json and the event segments byte-for-byte as they were; the
// daemon must still answer and Object.prototype must stay clean. WAFCTL_FUZZ_RUNS sets the count.
import fc from 'fast-check';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { managementProblem, Tally } from './support/contract.js';
import { FUZZ_SEED, bodyFor, contentType, extraHeaders, hostileQuery, longString, mutated, nastyString } from './support/hostile-inputs.js';
import { startFuzzDaemon, type FuzzDaemon } from './support/in-process-daemon.js';
import { exchange, type RawRequest } from './support/raw-http.js';

const RUNS = Number(process.env.WAFCTL_FUZZ_RUNS ?? 300);
const MANAGEMENT_BODY_LIMIT = 1024 * 1024;

const ip = fc.oneof(fc.ipV4(), fc.ipV6(), fc.tuple(fc.ipV4(), fc.integer({ min: -1, max: 40 })).map(([a, n]) => `${a}/${n}`), nastyString);
const countries = fc.array(fc.oneof(fc.constantFrom('US', 'de', 'Fr', 'GB', 'ZZ', 'XX', 'EU', 'UK', 'usa', ''), nastyString), { maxLength: 8 });
const component = fc.record({ slug: fc.oneof(fc.constantFrom('akismet', 'contact-form-7', 'woocommerce'), nastyString), version: fc.oneof(fc.constantFrom('1.0', '5.3.2', '0'), nastyString) });

interface Route {
  method: string;
  path: string;
  body?: fc.Arbitrary<unknown>;
}

const ROUTES: Route[] = [
  { method: 'GET', path: '/connect' },
  { method: 'GET', path: '/analytics' },
  { method: 'GET', path: '/waf-logs' },
  { method: 'GET', path: '/ip-rules' },
  { method: 'POST', path: '/ip-rules/whitelist', body: mutated({ ip, description: fc.oneof(fc.string({ maxLength: 100 }), longString) }) },
  { method: 'POST', path: '/ip-rules/blacklist', body: mutated({ ip, description: fc.oneof(fc.string({ maxLength: 100 }), longString) }) },
  { method: 'DELETE', path: '/ip-rules', body: mutated({ ip, type: fc.oneof(fc.constantFrom('whitelist', 'blacklist'), nastyString) }) },
  { method: 'GET', path: '/geo-rules' },
  { method: 'PUT', path: '/geo-rules', body: mutated({ enabled: fc.boolean(), mode: fc.oneof(fc.constantFrom('whitelist', 'blacklist'), nastyString), countries }) },
  {
    method: 'POST', path: '/wp/vulnerabilities/check',
    body: mutated({ cms_version: fc.oneof(fc.constantFrom('6.4.2', '5.0', '4.9.1'), nastyString), plugins: fc.array(component, { maxLength: 5 }), themes: fc.array(component, { maxLength: 3 }) }),
  },
];

const ODD_PATHS = ['', '/', '//connect', '/Connect', '/connect/', '/ip%2Drules', '/../v1/connect', '/connect%00', '/connect;x', '/ip-rules/graylist', '/%', '/wp/vulnerabilities/check/..'];

let d: FuzzDaemon;
const tally = new Tally();

beforeAll(async () => {
  d = await startFuzzDaemon();
}, 60_000);
afterAll(async () => {
  console.log(tally.summary('management API /api/v1'));
  await d?.stop();
});

function keyHeader(kind: string, key: string): Array<[string, string | Buffer]> {
  switch (kind) {
    case 'missing': return [];
    case 'empty': return [['X-Service-Key', '']];
    case 'short': return [['X-Service-Key', key.slice(1)]];
    case 'long': return [['X-Service-Key', key + 'a']];
    case 'symbols': return [['X-Service-Key', '!'.repeat(64)]];
    case 'unknown': return [['X-Service-Key', 'Z'.repeat(64)]];
    case 'twice': return [['X-Service-Key', key], ['X-Service-Key', 'Z'.repeat(64)]];
    case 'bytes': return [['X-Service-Key', Buffer.concat([Buffer.from(key.slice(0, 62)), Buffer.from([0xc3, 0xa9])])]];
    case 'padded': return [['X-Service-Key', ` ${key}`]];
    default: return [['X-Service-Key', key]];
  }
}

const caseArb = fc.record({
  route: fc.nat({ max: ROUTES.length - 1 }),
  method: fc.oneof({ weight: 8, arbitrary: fc.constant(null) }, { weight: 2, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD', 'TRACE', 'PROPFIND') }),
  oddPath: fc.oneof({ weight: 9, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom(...ODD_PATHS) }),
  query: fc.oneof({ weight: 3, arbitrary: fc.constant('') }, { weight: 2, arbitrary: hostileQuery }),
  key: fc.oneof({ weight: 8, arbitrary: fc.constant('valid') }, { weight: 3, arbitrary: fc.constantFrom('missing', 'empty', 'short', 'long', 'symbols', 'unknown', 'twice', 'bytes', 'padded') }),
  contentType,
  extra: extraHeaders,
  seed: fc.nat(),
});

describe('management API under hostile input', () => {
  it(`answers ${RUNS} hostile requests with the documented envelope and changes nothing when it refuses`, async () => {
    const bodies = ROUTES.map((r) => bodyFor(r.body ?? fc.constant({}), MANAGEMENT_BODY_LIMIT + 10));
    const withBody = caseArb.chain((c) => bodies[c.route].map((body) => ({ ...c, body })));
    let n = 0;
    await fc.assert(
      fc.asyncProperty(withBody, async (c) => {
        if (++n % 25 === 0) d.skipMinute();
        const route = ROUTES[c.route];
        const method = c.method ?? route.method;
        const request: RawRequest = {
          method,
          target: `/api/v1${c.oddPath ?? route.path}${c.query}`,
          headers: [...keyHeader(c.key, d.siteKey), ...(c.contentType === undefined ? [] : [['Content-Type', c.contentType] as [string, string]]), ...c.extra],
          body: c.body,
        };
        const before = await d.fingerprint();
        const res = await exchange(d.api, request);
        // HEAD answers carry no body to check; their status still must not be a 5xx.
        const problem = method === 'HEAD' ? (res.status >= 500 ? `status ${res.status}` : null) : managementProblem(res);
        tally.record(`${method} ${request.target.slice(0, 80)}`, res, problem);
        expect(problem, `${method} ${request.target.slice(0, 200)} -> ${res.status} ${res.body.subarray(0, 300).toString()}`).toBeNull();
        if (res.status >= 400) {
          expect(await d.fingerprint(), 'a refused request changed the stored state').toBe(before);
          tally.cases.refusedUnchanged++;
        }
        if (method !== 'HEAD' && !isPreRouting(res)) expect(res.headers['x-ratelimit-limit'], 'X-RateLimit-Limit on every routed answer').toBeDefined();
      }),
      { numRuns: RUNS, seed: FUZZ_SEED, endOnFailure: true },
    );
    expect(tally.cases.documented).toBe(tally.cases.tried);
  }, 600_000);

  it('is still up, unpolluted, and logged no 5xx', async () => {
    const res = await exchange(d.api, { method: 'GET', target: '/api/v1/connect', headers: [['X-Service-Key', d.siteKey]] });
    expect(res.status).toBe(200);
    expect(Object.keys(Object.prototype)).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const log = await readFile(d.app.paths.log, 'utf8');
    expect(log).not.toMatch(/"level":(50|60)/);
  });
});

/** Refusals before any route or hook runs: node's HTTP parser (daemon/api/client-error.ts) or a URL that does not decode. */
function isPreRouting(res: { status: number; json: unknown }): boolean {
  const body = res.json as { errors?: unknown; message?: string } | undefined;
  return res.status === 400 && (Array.isArray(body?.errors) || /not a valid URL/.test(body?.message ?? ''));
}
