// Scale-out acceptance 5 on a real PostgreSQL: SIGKILL at random moments of the cluster node that
// receives ingestion (three clients posting WAF-event batches), then a restart on the same files.
// In cluster mode a batch is acknowledged only once its events are committed in PostgreSQL, so
// after the last restart, once the node's shipper has caught up with its spool (lag 0), every
// acknowledged event is in waf_events exactly once, and no event is there twice (a batch cut off
// before its answer may land or not, never twice). WAFCTL_FAULT_ROUNDS sets the rounds (the suite
// runs a few; `npm run reliability` runs 50).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminClient } from '../../shared/admin-client.js';
import { freshDatabase, sql, testPostgres } from '../cluster/postgres.js';
import { daemonFlags, startDaemon, type DaemonProcess } from './support/daemon-process.js';
import { ingestionToken, killDuringIngestion } from './support/ingest-kill.js';

const ROUNDS = Number(process.env.WAFCTL_FAULT_ROUNDS ?? 3);
const SITE = 'kill.cluster.test';

const server = await testPostgres();
if (!server.ok) console.warn(server.skip);

let home: string;
let databaseUrl = '';
let flags: string[];
let daemon: DaemonProcess | null = null;
let token: string;
const figures = { rounds: 0, acknowledged: 0, lost: 0, duplicated: 0, unacknowledged_landed: 0 };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function restart(): Promise<DaemonProcess> {
  daemon = await startDaemon(flags);
  return daemon;
}

beforeAll(async () => {
  if (!server.ok) return;
  home = mkdtempSync(join(tmpdir(), 'wafctl-cluster-kill-'));
  databaseUrl = await freshDatabase(server.url);
  flags = daemonFlags(home, ['--ingest-rate-limit', '1000000', '--cluster-postgres', databaseUrl]);
  token = await ingestionToken(await restart(), SITE);
}, 120_000);

afterAll(async () => {
  console.log(`[reliability] cluster ingestion SIGKILL rounds: ${JSON.stringify(figures)}`);
  await daemon?.stop().catch(() => undefined);
  if (home) rmSync(home, { recursive: true, force: true });
  if (server.ok) await server.stop();
}, 60_000);

/** Waits (bounded by tries) until the node has shipped its whole spool; the shipper's last state. */
async function caughtUp(d: DaemonProcess): Promise<{ ok: boolean; events: unknown }> {
  const admin = new AdminClient(d.status.admin_socket);
  try {
    let events;
    for (let tries = 0; tries < 3000; tries++) {
      events = (await admin.status()).cluster?.events;
      if (events?.caught_up && events.shipped_through_id === events.spool_last_id) return { ok: true, events };
      await sleep(20);
    }
    return { ok: false, events };
  } finally {
    await admin.close();
  }
}

describe.skipIf(!server.ok)('SIGKILL of the cluster node receiving ingestion', () => {
  it(`every acknowledged event is in PostgreSQL exactly once over ${ROUNDS} kill-and-restart rounds`, async () => {
    const acknowledged = new Set<string>();
    const sent = new Set<string>();
    const failures: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const d = daemon ?? (await restart());
      const killed = await killDuringIngestion(d, { site: SITE, token, round, killAfterMs: [50, 600] });
      daemon = null;
      for (const uri of killed.acknowledged) acknowledged.add(uri);
      for (const uri of killed.sent) sent.add(uri);
      failures.push(...killed.failures);
      await restart(); // must come up on whatever the kill left, and ship what its spool holds
      figures.rounds++;
    }
    expect(failures, 'no client failed while the node was up').toEqual([]);
    const shipped = await caughtUp(daemon!);
    expect(shipped.ok, `the spool ships to the end after the last restart: ${JSON.stringify(shipped.events)}`).toBe(true);
    const rows = await sql<{ uri: string; n: string }>(databaseUrl, "SELECT doc->>'uri' AS uri, count(*) AS n FROM waf_events GROUP BY 1");
    const stored = new Map(rows.map((r) => [r.uri, Number(r.n)]));
    figures.acknowledged = acknowledged.size;
    figures.lost = [...acknowledged].filter((uri) => !stored.has(uri)).length;
    figures.duplicated = [...stored.values()].filter((n) => n > 1).length;
    figures.unacknowledged_landed = [...stored.keys()].filter((uri) => sent.has(uri) && !acknowledged.has(uri)).length;
    expect(figures.lost).toBe(0);
    expect(figures.duplicated).toBe(0);
    expect([...stored.keys()].every((uri) => sent.has(uri)), 'nothing in PostgreSQL that no client sent').toBe(true);
    expect(acknowledged.size).toBeGreaterThan(0);
  }, 600_000);
});
