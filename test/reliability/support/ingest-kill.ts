// One kill-during-ingestion round, shared by the single-node and the cluster SIGKILL tests: three
// clients post WAF-event batches of 20 to the daemon until it is SIGKILLed at a random moment.
// Each URI is unique, so a store can be checked for what was acknowledged, lost or doubled.
import { Agent } from 'node:https';
import { AdminClient } from '../../../shared/admin-client.js';
import { apiCall, type DaemonProcess } from './daemon-process.js';

export interface KillRound {
  /** URIs in batches the daemon answered 200. */
  acknowledged: string[];
  /** URIs in every batch sent, answered or not. */
  sent: string[];
  /** Errors a client met while the daemon was still up (anything but 200 before the kill). */
  failures: string[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A site with API access and an ingestion token for it. */
export async function ingestionToken(d: DaemonProcess, site: string): Promise<string> {
  const admin = new AdminClient(d.status.admin_socket);
  try {
    await admin.addSite({ domain: site, origin: 'http://127.0.0.1:9', plan: 'enterprise' });
    await admin.setApiAccess(true);
    return (await admin.createToken('kill')).token;
  } finally {
    await admin.close();
  }
}

function wafEvent(site: string, uri: string) {
  return {
    timestamp_ms: Date.now(), host: site, client_ip: '198.51.100.7', uri, method: 'GET',
    waf_file: 'REQUEST-942-APPLICATION-ATTACK-SQLI.conf', rule_id: '942100', severity: 'CRITICAL', msg: 'SQL Injection Attack Detected via libinjection',
  };
}

/** Posts until a kill after `killAfterMs` (a range, drawn at random); the daemon is dead when it returns. */
export async function killDuringIngestion(d: DaemonProcess, o: { site: string; token: string; round: number; killAfterMs: [number, number] }): Promise<KillRound> {
  const result: KillRound = { acknowledged: [], sent: [], failures: [] };
  const agent = new Agent({ keepAlive: true, maxSockets: 3 });
  let killed = false;
  const client = async (c: number) => {
    for (let b = 0; !killed; b++) {
      const uris = Array.from({ length: 20 }, (_, i) => `/k${o.round}/c${c}b${b}-${i}`);
      result.sent.push(...uris);
      try {
        const res = await apiCall(d, agent, 'POST', '/api/vector/waf', { authorization: `Bearer ${o.token}` }, uris.map((uri) => wafEvent(o.site, uri)));
        if (res.status === 200) result.acknowledged.push(...uris);
        else if (!killed) throw new Error(`unexpected ${res.status}: ${JSON.stringify(res.json)}`);
      } catch (error) {
        if (!killed) result.failures.push(String(error));
        return;
      }
    }
  };
  const clients = [0, 1, 2].map(client);
  const [min, max] = o.killAfterMs;
  await sleep(min + Math.floor(Math.random() * (max - min)));
  killed = true;
  await d.kill();
  await Promise.allSettled(clients);
  agent.destroy();
  return result;
}
