import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { findCrs, RuleGroups } from '../../../daemon/rule-sets/rule-groups.js';
import { createEngineInspector } from '../../../daemon/rule-sets/engine-inspector.js';
import { startEdge, type RunningEdge } from './helpers.js';

// A page is the origin's, but what it reflects is the attacker's: a search page that echoes a
// query full of SQL error strings makes CRS 3.3's RESPONSE-951 chain run its regexes over 512 KB
// of body, seconds of CPU per page without a budget. The engine's time budget must cover phase 4:
// the page is refused (engine failure = refused, never forwarded uninspected) when its CPU time runs
// out there. The budget is CPU time, so a 5 ms one is met in phase 4 and never in phases 1-2 of a
// warm GET, whatever the box's load. What it costs in milliseconds is bench/proxy's to say
// (response-rule-costs.ts), not a test's.

const crs = findCrs('/usr/share/modsecurity-crs');
const KB = 1024;
const BUDGET_MS = 5;
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
  const page = reflectingPage();

  beforeAll(async () => {
    origin = http.createServer((_req, res) => { res.writeHead(200, { 'content-type': 'text/html' }); res.end(page); });
    await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
    const originUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
    const groups = new RuleGroups(crs!, { prepareAnnounced: false });
    groups.forParanoia(1);
    budgeted = await startEdge([{ id: 1, domain: 'shop.test', origin: originUrl }], { inspector: createEngineInspector(groups, { timeBudgetMs: BUDGET_MS }) });
    await fetchPage(budgeted); // warm: the first exchange compiles what it meets
  }, 120_000);

  afterAll(async () => {
    await budgeted?.close();
    origin?.closeAllConnections();
    await new Promise<void>((r) => (origin ? origin.close(() => r()) : r()));
  });

  const fetchPage = (edge: RunningEdge) => new Promise<{ status: number; requestId: string }>((resolve, reject) => {
    http.get({ host: '127.0.0.1', port: edge.port, path: '/search?q=x', headers: { host: 'shop.test', 'user-agent': 'Mozilla/5.0 test' } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, requestId: String(res.headers['x-request-id']) }));
    }).on('error', reject);
  });

  it('refuses a 2 MB page of reflected SQL errors when the response phases run out of budget, never forwarding the page', async () => {
    const reply = await fetchPage(budgeted);
    expect(reply.status).toBe(403);
    const refusal = await budgeted.sink.wafEvent((e) => e.request_id === reply.requestId && e.rule_id === 'engine-budget');
    // Stopped at a RESPONSE-95x rule: the budget ran out in the response phases.
    expect(refusal.msg).toMatch(/at rule 95\d{4}\)/);
  }, 120_000);

  it('reports the refusal once: phase 5 does not run on a transaction that ran out of budget', async () => {
    const warned: string[] = [];
    const spy = vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => { warned.push(args.map(String).join(' ')); });
    try {
      const reply = await fetchPage(budgeted);
      expect(reply.status).toBe(403);
      // The access entry is written after phase 5 would have run (request-handler.ts, on close).
      const entry = await budgeted.sink.accessEntry((e) => e.status === 403 && warned.some((w) => w.includes(e.request_id)));
      expect(warned.filter((w) => w.includes(entry.request_id))).toHaveLength(1);
    } finally {
      spy.mockRestore();
    }
  }, 120_000);
});
