// Property-based fuzzing of the ingestion endpoints (spec sections 2.8, 2.9, 4: /api/vector/waf and
// /api/vector/access) over real HTTPS against the real daemon in-process: hostile tokens, content
// types, entries with wrong types, huge values, proto keys, invalid UTF-8, oversized batches.
// Every answer has the documented ingestion shape and is never a 5xx; a refused request stores
// nothing; every entry the daemon said it processed is on disk, and nothing else is.
import fc from 'fast-check';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestProblem, managementProblem, Tally } from './support/contract.js';
import { FUZZ_SEED, anyJsonValue, contentType, extraHeaders, hostileJsonText, invalidUtf8Body, longString, mutated, nastyString, shown } from './support/hostile-inputs.js';
import { SITE_DOMAIN, startFuzzDaemon, type FuzzDaemon } from './support/in-process-daemon.js';
import { exchange } from './support/raw-http.js';

const RUNS = Number(process.env.WAFCTL_FUZZ_RUNS ?? 200);
const INGEST_BODY_LIMIT = 10 * 1024 * 1024;

const nowMs = Date.now();
const host = fc.oneof({ weight: 6, arbitrary: fc.constant(SITE_DOMAIN) }, { weight: 1, arbitrary: fc.constantFrom(SITE_DOMAIN.toUpperCase(), 'other.example.test', '') }, { weight: 1, arbitrary: nastyString });
/** Mostly valid, sometimes hostile: enough entries get through for the "acknowledged = stored" check to mean something. */
function mostly<T>(valid: fc.Arbitrary<T>, hostile: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 8, arbitrary: valid }, { weight: 1, arbitrary: hostile });
}
const clientIp = mostly(fc.oneof(fc.ipV4(), fc.ipV6()), nastyString);
const text = fc.oneof({ weight: 8, arbitrary: fc.string({ minLength: 1, maxLength: 30 }) }, { weight: 1, arbitrary: longString }, { weight: 1, arbitrary: nastyString });

const wafEvent = mutated({
  timestamp_ms: mostly(fc.integer({ min: nowMs - 3_600_000, max: nowMs }), fc.constantFrom(nowMs / 1000, 0, -1, 1e20, nowMs + 0.5)),
  host, client_ip: clientIp, uri: text, method: mostly(fc.constantFrom('GET', 'POST'), nastyString),
  waf_file: text, rule_id: mostly(fc.constantFrom('942100', '930100'), nastyString),
  severity: mostly(fc.constantFrom('CRITICAL', 'WARNING', 'NOTICE'), nastyString), msg: text,
  user_agent: text, matched_data: text,
});
const accessEntry = mutated({
  timestamp: mostly(fc.integer({ min: Math.floor(nowMs / 1000) - 3600, max: Math.floor(nowMs / 1000) }), fc.constantFrom(nowMs, 0, 1.5, -5)),
  host, client_ip: clientIp, uri: text, method: mostly(fc.constantFrom('GET', 'HEAD'), nastyString),
  status: mostly(fc.constantFrom(200, 403, 404, 500), fc.integer()), bytes_sent: mostly(fc.nat(), fc.integer()),
  request_time: mostly(fc.double({ min: 0, max: 10, noNaN: true }), fc.constantFrom(-1, 1e308)),
});

function batchBody(entry: fc.Arbitrary<unknown>): fc.Arbitrary<Buffer | undefined> {
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant(undefined) },
    { weight: 12, arbitrary: fc.array(entry, { maxLength: 6 }).map((b) => Buffer.from(JSON.stringify(b))) },
    { weight: 6, arbitrary: entry.map((e) => Buffer.from(JSON.stringify(e))) },
    { weight: 3, arbitrary: fc.array(fc.oneof(entry, anyJsonValue), { maxLength: 6 }).map((b) => Buffer.from(JSON.stringify(b))) },
    { weight: 2, arbitrary: anyJsonValue.map((v) => Buffer.from(JSON.stringify(v) ?? 'null')) },
    { weight: 4, arbitrary: hostileJsonText.map((t) => Buffer.from(t)) },
    { weight: 2, arbitrary: invalidUtf8Body },
    { weight: 1, arbitrary: fc.constant(null).map(() => Buffer.from(JSON.stringify(Array.from({ length: 1001 }, () => ({}))))) },
    { weight: 1, arbitrary: fc.constant(null).map(() => Buffer.from(`[{"pad":"${'x'.repeat(INGEST_BODY_LIMIT)}"}]`)) },
  ).map((b) => (b === undefined ? undefined : shown(b)));
}

function authHeader(kind: string, token: string): Array<[string, string | Buffer]> {
  switch (kind) {
    case 'missing': return [];
    case 'empty': return [['Authorization', '']];
    case 'scheme-only': return [['Authorization', 'Bearer']];
    case 'basic': return [['Authorization', `Basic ${Buffer.from('a:b').toString('base64')}`]];
    case 'lowercase': return [['Authorization', `bearer ${token}`]];
    case 'unknown': return [['Authorization', `Bearer ${token.slice(0, -4)}zzzz`]];
    case 'short': return [['Authorization', 'Bearer abc']];
    case 'huge': return [['Authorization', `Bearer ${'A'.repeat(5000)}`]];
    case 'twice': return [['Authorization', `Bearer ${token}`], ['Authorization', 'Bearer zzzzzzzzzzzz']];
    case 'bytes': return [['Authorization', Buffer.concat([Buffer.from(`Bearer ${token}`), Buffer.from([0xff])])]];
    default: return [['Authorization', `Bearer ${token}`]];
  }
}

const caseArb = fc.record({
  endpoint: fc.constantFrom('waf', 'access'),
  method: fc.oneof({ weight: 9, arbitrary: fc.constant('POST') }, { weight: 1, arbitrary: fc.constantFrom('GET', 'PUT', 'DELETE', 'PATCH') }),
  oddPath: fc.oneof({ weight: 12, arbitrary: fc.constant('') }, { weight: 1, arbitrary: fc.constantFrom('/', '/x', '%', '?a=%zz', '//') }),
  auth: fc.oneof({ weight: 8, arbitrary: fc.constant('valid') }, { weight: 3, arbitrary: fc.constantFrom('missing', 'empty', 'scheme-only', 'basic', 'lowercase', 'unknown', 'short', 'huge', 'twice', 'bytes') }),
  contentType,
  extra: extraHeaders,
});

let d: FuzzDaemon;
const tally = new Tally();
let processedTotal = 0;

beforeAll(async () => {
  d = await startFuzzDaemon();
}, 60_000);
afterAll(async () => {
  console.log(`${tally.summary('ingestion /api/vector')}; entries acknowledged ${processedTotal}`);
  await d?.stop();
});

async function storedLines(): Promise<number> {
  const dir = d.app.paths.eventsDir;
  let lines = 0;
  for (const file of (await readdir(dir)).filter((f) => f.endsWith('.jsonl'))) {
    lines += (await readFile(join(dir, file), 'utf8')).split('\n').filter((l) => l.trim() !== '').length;
  }
  return lines;
}

describe('ingestion API under hostile input', () => {
  it(`answers ${RUNS} hostile requests in the documented shapes, stores nothing it refused and everything it acknowledged`, async () => {
    const bodies = { waf: batchBody(wafEvent), access: batchBody(accessEntry) };
    const withBody = caseArb.chain((c) => bodies[c.endpoint].map((body) => ({ ...c, body })));
    let n = 0;
    await fc.assert(
      fc.asyncProperty(withBody, async (c) => {
        if (++n % 25 === 0) d.skipMinute();
        const target = `/api/vector/${c.endpoint}${c.oddPath}`;
        const headers = [...authHeader(c.auth, d.token), ...(c.contentType === undefined ? [] : [['Content-Type', c.contentType] as [string, string]]), ...c.extra];
        const before = await d.fingerprint();
        const res = await exchange(d.api, { method: c.method, target, headers, body: c.body });
        // Only POST on the two paths reaches ingestion; anything else is the server's envelope (404/405/415).
        const routed = c.method === 'POST' && (c.oddPath === '' || c.oddPath.startsWith('?'));
        const problem = routed ? ingestProblem(res) : managementProblem(res);
        tally.record(`${c.method} ${target}`, res, problem);
        expect(problem, `${c.method} ${target} -> ${res.status} ${res.body.subarray(0, 300).toString()}`).toBeNull();
        const after = await d.fingerprint();
        if (res.status >= 400) {
          expect(after, 'a refused request changed the stored state').toBe(before);
          tally.cases.refusedUnchanged++;
        } else {
          const processed = (res.json as { processed: number }).processed;
          processedTotal += processed;
          if (processed > 0) expect(after, 'acknowledged entries are on disk when the answer comes').not.toBe(before);
        }
      }),
      { numRuns: RUNS, seed: FUZZ_SEED, endOnFailure: true },
    );
    expect(tally.cases.documented).toBe(tally.cases.tried);
    expect(await storedLines(), 'every acknowledged entry is one stored line, and nothing else was stored').toBe(processedTotal);
  }, 600_000);

  it('is still up, unpolluted, and logged no error', async () => {
    d.skipMinute();
    const res = await exchange(d.api, { method: 'POST', target: '/api/vector/access', headers: [['Authorization', `Bearer ${d.token}`], ['Content-Type', 'application/json']], body: '[]' });
    expect(res.status).toBe(200);
    expect(Object.keys(Object.prototype)).toEqual([]);
    const log = await readFile(d.app.paths.log, 'utf8');
    expect(log).not.toMatch(/"level":(50|60)/);
  });
});
