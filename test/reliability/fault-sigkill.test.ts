// SIGKILL at random moments, then a restart on the same files: during ingestion (three clients
// posting WAF-event batches) and during config writes (sites added over the admin socket, blacklist
// rules added over the management API at once). After every kill the daemon must start again
// (config.json valid, no leftover temp file in the way) and every acknowledged entry, site and rule
// must be there. WAFCTL_FAULT_ROUNDS sets the rounds of each kind (the suite runs a few;
// `npm run reliability` runs 50).
import { readdir, readFile } from 'node:fs/promises';
import { Agent } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminClient } from '../../shared/admin-client.js';
import { apiCall, daemonFlags, startDaemon, type DaemonProcess } from './support/daemon-process.js';
import { ingestionToken, killDuringIngestion } from './support/ingest-kill.js';

const ROUNDS = Number(process.env.WAFCTL_FAULT_ROUNDS ?? 3);
const SITE = 'kill.example.test';

let home: string;
let flags: string[];
let daemon: DaemonProcess | null = null;
let token: string;
const figures = { ingest: { rounds: 0, acknowledged: 0, lost: 0, duplicated: 0 }, config: { rounds: 0, sites: 0, rules: 0, lost: 0 } };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const randomMs = (min: number, max: number) => min + Math.floor(Math.random() * (max - min));

async function restart(): Promise<DaemonProcess> {
  daemon = await startDaemon(flags);
  return daemon;
}

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'wafctl-kill-'));
  flags = daemonFlags(home, ['--ingest-rate-limit', '1000000']);
  token = await ingestionToken(await restart(), SITE);
}, 120_000);

afterAll(async () => {
  console.log(`[reliability] SIGKILL rounds: ${JSON.stringify(figures)}`);
  await daemon?.stop().catch(() => undefined);
  rmSync(home, { recursive: true, force: true });
}, 60_000);

async function storedUris(): Promise<Map<string, number>> {
  const dir = join(home, 'data', 'events');
  const counts = new Map<string, number>();
  for (const file of (await readdir(dir)).filter((f) => f.startsWith('waf-') && f.endsWith('.jsonl'))) {
    for (const line of (await readFile(join(dir, file), 'utf8')).split('\n')) {
      if (line.trim() === '') continue;
      const uri = (JSON.parse(line) as { uri: string }).uri;
      counts.set(uri, (counts.get(uri) ?? 0) + 1);
    }
  }
  return counts;
}

describe('SIGKILL during ingestion', () => {
  it(`keeps every acknowledged entry exactly once over ${ROUNDS} kill-and-restart rounds`, async () => {
    const acknowledged: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const d = daemon ?? (await restart());
      const killed = await killDuringIngestion(d, { site: SITE, token, round, killAfterMs: [20, 400] });
      daemon = null;
      acknowledged.push(...killed.acknowledged);
      await restart(); // must come up on whatever the kill left
      figures.ingest.rounds++;
    }
    const stored = await storedUris();
    figures.ingest.acknowledged = acknowledged.length;
    figures.ingest.lost = acknowledged.filter((uri) => !stored.has(uri)).length;
    figures.ingest.duplicated = [...stored.values()].filter((n) => n > 1).length;
    expect(figures.ingest.lost).toBe(0);
    expect(figures.ingest.duplicated).toBe(0);
    expect(acknowledged.length).toBeGreaterThan(0);
  }, 600_000);
});

describe('SIGKILL during config writes', () => {
  it(`keeps every acknowledged site and IP rule over ${ROUNDS} kill-and-restart rounds`, async () => {
    const sites: string[] = [];
    const rules: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const d = daemon ?? (await restart());
      const admin = new AdminClient(d.status.admin_socket, { timeoutMs: 10_000 });
      // A fresh key per round: a fresh per-key write window (30 a minute), and a write of its own.
      const key = (await admin.siteKey(SITE)).api_key;
      const agent = new Agent({ keepAlive: true, maxSockets: 2 });
      let killed = false;
      const siteWriter = async () => {
        for (let i = 0; !killed; i++) {
          const domain = `r${round}-${i}.sites.example.test`;
          try {
            await admin.addSite({ domain, origin: 'http://127.0.0.1:9' });
            sites.push(domain);
          } catch (error) {
            if (killed) return;
            throw error;
          }
        }
      };
      const ruleWriter = async () => {
        for (let i = 0; !killed && i < 25; i++) {
          const ip = `10.${round % 256}.${i}.0/24`;
          try {
            const res = await apiCall(d, agent, 'POST', '/api/v1/ip-rules/blacklist', { 'x-service-key': key }, { ip, description: `round ${round}` });
            if (res.status === 201) rules.push(ip);
            else if (res.status !== 429 && !killed) throw new Error(`unexpected ${res.status}: ${JSON.stringify(res.json)}`);
          } catch (error) {
            if (killed) return;
            throw error;
          }
        }
      };
      const writers = [siteWriter(), ruleWriter()];
      await sleep(randomMs(10, 300));
      killed = true;
      await d.kill();
      daemon = null;
      await Promise.allSettled(writers);
      agent.destroy();
      await admin.close().catch(() => undefined);
      await restart();
      figures.config.rounds++;
    }
    const d = daemon!;
    const admin = new AdminClient(d.status.admin_socket);
    const key = (await admin.siteKey(SITE)).api_key;
    const liveDomains = new Set((await admin.listSites()).map((s) => s.domain));
    await admin.close();
    const agent = new Agent({ keepAlive: false });
    const ipRules = await apiCall(d, agent, 'GET', '/api/v1/ip-rules', { 'x-service-key': key });
    const blacklisted = new Set((ipRules.json.data.blacklist as Array<{ ip: string }>).map((r) => r.ip));
    figures.config.sites = sites.length;
    figures.config.rules = rules.length;
    figures.config.lost = sites.filter((s) => !liveDomains.has(s)).length + rules.filter((r) => !blacklisted.has(r)).length;
    expect(figures.config.lost).toBe(0);
    expect(sites.length + rules.length).toBeGreaterThan(0);
    // What the kills left beside config.json: at most the one temp file of an interrupted write.
    const leftovers = (await readdir(join(home, 'data'))).filter((f) => f.endsWith('.tmp'));
    expect(leftovers.length).toBeLessThanOrEqual(1);
  }, 600_000);
});
