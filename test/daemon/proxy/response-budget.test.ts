import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { findCrs, RuleGroups } from '../../../daemon/waf/rule-groups.js';
import { createEngineInspector } from '../../../daemon/waf/engine-inspector.js';
import { startEdge, type RunningEdge } from './helpers.js';

// A page is the origin's, but what it reflects is the attacker's: a search page that echoes a
// query full of SQL error strings makes CRS 3.3's RESPONSE-951 chain run its regexes over 512 KB
// of body, seconds of CPU per page without a budget. The engine's time budget (the daemon's
// default, 40 ms) must bound it: the page is refused (engine failure = refused, never forwarded
// uninspected) after at most a few budgets of CPU, not after seconds. Proven against an edge
// without a budget on the same page, so the test fails if the budget stops covering phase 4.

const crs = findCrs('/usr/share/modsecurity-crs');
const KB = 1024;
const BUDGET_MS = 40;
const SQL_ERRORS = [
  'You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version',
  'Warning: pg_query(): Query failed: ERROR:  syntax error at or near',
  'Microsoft OLE DB Provider for ODBC Drivers error \'80040e14\'',
  'ORA-00933: SQL command not properly ended',
  'Unclosed quotation mark after the character string',
  'SQLite3::query(): Unable to prepare statement: 1, near',
];

/** 2 MB of search results, each reflecting the query: error strings every few hundred bytes. */
function reflectingPage(): Buffer {
  let out = '<!doctype html><html><head><title>Search</title></head><body>\n';
  for (let i = 0; out.length < 2048 * KB; i++) out += `<li>Result ${i} for <q>${SQL_ERRORS[i % SQL_ERRORS.length]} ${'x'.repeat(i % 97)}</q></li>\n`;
  return Buffer.from(out + '</body></html>', 'latin1');
}

describe.skipIf(crs === null)('response inspection within the engine\'s time budget (needs modsecurity-crs)', () => {
  let origin: http.Server;
  let budgeted: RunningEdge;
  let unbounded: RunningEdge;
  const page = reflectingPage();

  beforeAll(async () => {
    origin = http.createServer((_req, res) => { res.writeHead(200, { 'content-type': 'text/html' }); res.end(page); });
    await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
    const originUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
    const groups = new RuleGroups(crs!, { prepareAnnounced: false });
    groups.forParanoia(1);
    const sites = [{ id: 1, domain: 'shop.test', origin: originUrl }];
    budgeted = await startEdge(sites, { inspector: createEngineInspector(groups, { timeBudgetMs: BUDGET_MS }) });
    unbounded = await startEdge(sites, { inspector: createEngineInspector(groups) });
  }, 120_000);

  afterAll(async () => {
    await budgeted?.close();
    await unbounded?.close();
    origin?.closeAllConnections();
    await new Promise<void>((r) => (origin ? origin.close(() => r()) : r()));
  });

  /** Status and the CPU the whole process (edge, origin, client) used for one request. */
  const timed = (edge: RunningEdge) => new Promise<{ status: number; cpuMs: number }>((resolve, reject) => {
    const cpu0 = process.cpuUsage();
    http.get({ host: '127.0.0.1', port: edge.port, path: '/search?q=x', headers: { host: 'shop.test', 'user-agent': 'Mozilla/5.0 test' } }, (res) => {
      res.resume();
      res.on('end', () => { const c = process.cpuUsage(cpu0); resolve({ status: res.statusCode!, cpuMs: (c.user + c.system) / 1000 }); });
    }).on('error', reject);
  });

  it('refuses a 2 MB page of reflected SQL errors within a few budgets of CPU; without a budget it costs far more', async () => {
    await timed(budgeted); // warm: the first exchange compiles what it meets
    const bounded = await timed(budgeted);
    const free = await timed(unbounded);
    // Refused: the leak rules' block or the budget's refusal (hardening/engine-failure.ts), never the page.
    expect(bounded.status).toBe(403);
    expect(free.status).toBe(403);
    // At most the budget for the transaction and its reruns (engine-exchange.ts: 3 at most, only when the
    // thread was waiting for a core), plus copying 512 KB and the client and origin sharing this process.
    expect(bounded.cpuMs).toBeLessThan(4 * BUDGET_MS + 150);
    expect(free.cpuMs).toBeGreaterThan(2 * bounded.cpuMs);
  }, 120_000);

  it('reports the refusal once: phase 5 does not run on a transaction that ran out of budget', async () => {
    const warned: string[] = [];
    const spy = vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => { warned.push(args.map(String).join(' ')); });
    try {
      const reply = await timed(budgeted);
      expect(reply.status).toBe(403);
      // The access entry is written after phase 5 would have run (request-handler.ts, on close).
      const entry = await budgeted.sink.accessEntry((e) => e.status === 403 && warned.some((w) => w.includes(e.request_id)));
      expect(warned.filter((w) => w.includes(entry.request_id))).toHaveLength(1);
    } finally {
      spy.mockRestore();
    }
  }, 120_000);
});
