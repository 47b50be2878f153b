// `wafctl daemon status` shows the edge's load, against a real daemon (the built CLI, the admin socket,
// real edge sockets, a real origin): requests driven through the edge show up as admitted, requests
// past a tiny in-flight bound (WAFCTL_EDGE_MAX_IN_FLIGHT=2, a slow origin) are answered 503 and counted
// as shed. In process (--workers 1: read directly) and with --workers 2 (reported by each worker over
// the cluster IPC once a second), where a killed and replaced worker's counts stay in the totals.
// Every request a test sends is counted (`Edge.sent`): a reading is settled once the edge has counted
// each of them as admitted or shed, so a test's "before" holds whatever ran before it, in any order.
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EdgeLoad } from '../../shared/schemas/admin.js';
import { newSandbox, quickStartFlags, stopAll, type E2eDaemon } from './daemon-harness.js';

const SITE = 'load.example.test';
const SLOTS = 2;

interface Status { pid: number; workers: number; ports: { edge: number }; edge: EdgeLoad | null }

/** A daemon's edge port and how many requests the tests have sent to it. */
interface Edge { port: number; sent: number }

let origin: http.Server;
let originPort = 0;

beforeAll(async () => {
  // /slow holds its answer for 1.5 s: the edge's slots stay taken, what arrives meanwhile is shed.
  origin = http.createServer((req, res) => {
    req.resume();
    setTimeout(() => res.end('ok'), req.url?.startsWith('/slow') ? 1_500 : 0);
  });
  await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
  originPort = (origin.address() as AddressInfo).port;
});

afterAll(async () => {
  await stopAll();
  origin.closeAllConnections();
  await new Promise<void>((r) => origin.close(() => r()));
}, 60_000);

function edgeGet(edge: Edge, path: string, agent: http.Agent): Promise<{ status: number; retryAfter?: string }> {
  edge.sent++;
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: edge.port, path, agent, headers: { host: SITE } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, retryAfter: res.headers['retry-after'] as string | undefined }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function json<T>(d: E2eDaemon, ...args: string[]): Promise<T> {
  const result = await d.wafctl('--json', ...args);
  if (result.code !== 0) throw new Error(`wafctl ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

/** Reads `daemon status --json` until `done` holds (workers report once a second); fails with the last reading. */
async function statusUntil(d: E2eDaemon, done: (load: EdgeLoad) => boolean, what: string): Promise<{ status: Status; reads: number }> {
  const deadline = Date.now() + 30_000;
  for (let reads = 1; ; reads++) {
    const status = await json<Status>(d, 'daemon', 'status');
    if (status.edge && done(status.edge)) return { status, reads };
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(status.edge)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The first reading that counts every request sent so far, none of them in flight. */
function settled(d: E2eDaemon, edge: Edge, what: string): Promise<{ status: Status; reads: number }> {
  return statusUntil(d, (l) => l.admitted + l.shed_in_flight + l.shed_loop_delay === edge.sent && l.in_flight === 0, `${what} (${edge.sent} sent)`);
}

function childrenOf(pid: number): number[] {
  return readdirSync('/proc').filter((e) => /^\d+$/.test(e)).flatMap((entry) => {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid ? [Number(entry)] : [];
    } catch {
      return []; // gone meanwhile
    }
  });
}

async function startDaemon(workers: number): Promise<{ d: E2eDaemon; status: Status; edge: Edge }> {
  const d = await newSandbox();
  d.box.env.WAFCTL_EDGE_MAX_IN_FLIGHT = String(SLOTS);
  // The stall signal stays on (its worst stall is measured) with a bound no test machine reaches by accident.
  d.box.env.WAFCTL_EDGE_SHED_LOOP_DELAY_MS = '30000';
  const flags = (await quickStartFlags(d.box)).map((f, i, all) => (all[i - 1] === '--workers' ? String(workers) : f));
  const start = await d.wafctl('daemon', 'start', ...flags);
  expect(start.code, start.stderr).toBe(0);
  await json(d, 'site', 'add', SITE, '--origin', `http://127.0.0.1:${originPort}`);
  const status = await json<Status>(d, 'daemon', 'status');
  const edge: Edge = { port: status.ports.edge, sent: 0 };
  // The site is live in every worker once ten fresh connections in a row reach it.
  for (let streak = 0, tries = 0; streak < 10; tries++) {
    if (tries > 200) throw new Error('the site never became live at the edge');
    streak = (await edgeGet(edge, '/ready', new http.Agent())).status === 200 ? streak + 1 : 0;
  }
  return { d, status, edge };
}

describe.each([1, 2])('daemon status: edge load, --workers %i', { timeout: 120_000 }, (workers) => {
  let d: E2eDaemon;
  let status: Status;
  let edge: Edge;

  beforeAll(async () => {
    ({ d, status, edge } = await startDaemon(workers));
  }, 120_000);

  it('requests driven through the edge are counted as admitted', async () => {
    const before = (await settled(d, edge, 'the requests before')).status.edge!;
    expect(before.admitted).toBeGreaterThanOrEqual(10); // the readiness requests at least
    const sent = 40;
    const agent = new http.Agent({ keepAlive: false });
    // Two at a time: never more than the bound, so none is shed.
    for (let i = 0; i < sent; i += 2) {
      const replies = await Promise.all([edgeGet(edge, `/a${i}`, agent), edgeGet(edge, `/a${i + 1}`, agent)]);
      expect(replies.map((r) => r.status)).toEqual([200, 200]);
    }
    const { status: after, reads } = await statusUntil(d, (l) => l.admitted >= before.admitted + sent, `${sent} admitted`);
    expect(after.workers).toBe(workers);
    // In process the status reads the shedder itself: right on the first reading.
    if (workers === 1) expect(reads).toBe(1);
    expect(after.edge!.shed_in_flight).toBe(before.shed_in_flight);
    expect(after.edge!.shed_loop_delay).toBe(0);
    expect(after.edge!.worst_stall_ms).toBeGreaterThanOrEqual(before.worst_stall_ms);
  });

  it('requests past the in-flight bound are answered 503 and counted as shed, in --json and in the human line', async () => {
    const before = (await settled(d, edge, 'the requests before')).status.edge!;
    const flood = 24;
    const agent = new http.Agent({ keepAlive: true, maxSockets: flood });
    const replies = await Promise.all(Array.from({ length: flood }, (_, i) => edgeGet(edge, `/slow/${i}`, agent)));
    agent.destroy();
    const served = replies.filter((r) => r.status === 200).length;
    const shed = replies.filter((r) => r.status === 503);
    expect(served + shed.length).toBe(flood);
    expect(shed.length).toBeGreaterThan(0);
    expect(served).toBeGreaterThanOrEqual(SLOTS);
    expect(shed.every((r) => r.retryAfter === '1')).toBe(true);
    // Exactly what the clients saw: every 503 as shed (in-flight limit), every 200 as admitted.
    const { status: after } = await statusUntil(d, (l) => l.shed_in_flight >= before.shed_in_flight + shed.length && l.in_flight === 0, `${shed.length} shed`);
    expect(after.edge!.shed_in_flight - before.shed_in_flight).toBe(shed.length);
    expect(after.edge!.admitted - before.admitted).toBe(served);

    const human = await d.wafctl('daemon', 'status');
    expect(human.code).toBe(0);
    const line = human.stdout.split('\n').find((l) => l.startsWith('edge load'));
    const total = after.edge!.shed_in_flight + after.edge!.shed_loop_delay;
    expect(line).toMatch(new RegExp(`^edge load\\s+0 in flight, [\\d,]+ admitted, ${total} shed \\(${after.edge!.shed_in_flight} in-flight limit, 0 loop stall\\), worst stall [\\d,]+ ms$`));
  });

  // Only with workers: in process there is no worker to replace.
  if (workers > 1) it('a killed and replaced worker: its counts stay in the totals, which keep growing', async () => {
    // Settled: the victim has reported every request it handled, so none is lost with it.
    const { status: before } = await settled(d, edge, 'counts before the kill');
    expect(before.edge!.admitted).toBeGreaterThan(0);
    const [victim, survivor] = childrenOf(status.pid);
    expect(survivor).toBeGreaterThan(0);
    process.kill(victim, 'SIGKILL');
    // The primary replaces it after a second.
    const deadline = Date.now() + 20_000;
    while (!(childrenOf(status.pid).length === 2 && !childrenOf(status.pid).includes(victim))) {
      if (Date.now() > deadline) throw new Error('the killed worker was not replaced');
      await new Promise((r) => setTimeout(r, 200));
    }
    const afterKill = (await json<Status>(d, 'daemon', 'status')).edge!;
    expect(afterKill.admitted).toBeGreaterThanOrEqual(before.edge!.admitted);
    expect(afterKill.shed_in_flight).toBeGreaterThanOrEqual(before.edge!.shed_in_flight);
    // New connections reach the replacement too; the totals go on from where they were.
    const agent = new http.Agent({ keepAlive: false });
    let ok = 0;
    for (let i = 0; i < 20; i++) if ((await edgeGet(edge, `/after/${i}`, agent)).status === 200) ok++;
    expect(ok).toBe(20);
    await statusUntil(d, (l) => l.admitted >= afterKill.admitted + 20, '20 more admitted after the replacement');
  });
});
