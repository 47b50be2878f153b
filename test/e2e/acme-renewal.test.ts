// The ACME renewal timer, end to end: nothing but time makes the daemon renew. Pebble issues
// certificates valid for two days and the daemon renews three days before expiry, checking every
// second (`--acme-renew-before-days`, `--acme-check-every-ms`), so the first certificate is due at
// the next tick: the edge must come to serve a new one, issued over HTTP-01 through itself, without
// any command and without a restart. Real daemon, CLI as a process, Debian's pebble on loopback.
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:tls';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSandbox, quickStartFlags, stopAll, tempDir, type E2eDaemon } from './daemon-harness.js';
import { startLoopbackDns, type LoopbackDns } from './acme/loopback-dns.js';
import { PEBBLE_BIN, pebbleListenerCa, startPebble, type Pebble } from './acme/pebble-server.js';

const DOMAIN = 'renew.example.test';
const hasPebble = existsSync(PEBBLE_BIN);

let origin: Server;
let dns: LoopbackDns;
let pebble: Pebble;
let d: E2eDaemon;

type Acme = { state: string; serial: string | null; not_after: string | null; error: string | null };

async function acme(): Promise<Acme | undefined> {
  const r = await d.wafctl('site', 'show', DOMAIN, '--json');
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { settings: { acme?: Acme } }).settings.acme;
}

/** Polls until the site holds a valid certificate whose serial is not `serial`; an order that fails
 *  ends the wait with its reason (the deadline is the test's timeout). */
async function validOtherThan(serial: string | null): Promise<Acme> {
  for (;;) {
    const now = await acme();
    if (now?.state === 'failed') throw new Error(`the ACME order failed: ${now.error}`);
    if (now?.state === 'valid' && now.serial !== serial) return now;
    await delay(250);
  }
}

async function servedSerial(port: number, root: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, servername: DOMAIN, ca: root }, () => {
      const serial = socket.getPeerCertificate().serialNumber;
      socket.end();
      resolve(serial.toLowerCase());
    });
    socket.once('error', reject);
  });
}

describe.skipIf(!hasPebble)('ACME renewal by the timer (skipped without Debian\'s pebble package: apt-get install pebble)', () => {
  beforeAll(async () => {
    origin = createServer((_req, res) => res.end('origin ok'));
    await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
    dns = await startLoopbackDns();
    const dir = await tempDir('wafctl-pebble-renew-');
    d = await newSandbox();
    d.box.env.NODE_EXTRA_CA_CERTS = await pebbleListenerCa(dir);
    const start = await d.wafctl('daemon', 'start', ...(await quickStartFlags(d.box)), '--acme-renew-before-days', '3', '--acme-check-every-ms', '1000');
    expect(start.code, start.stderr).toBe(0);
    const status = JSON.parse((await d.wafctl('daemon', 'status', '--json')).stdout) as { ports: { edge: number } };
    pebble = await startPebble(dir, { httpPort: status.ports.edge, dnsPort: dns.port, validitySeconds: 2 * 86_400 });
    const add = await d.wafctl('site', 'add', DOMAIN, '--origin', `http://127.0.0.1:${(origin.address() as { port: number }).port}`);
    expect(add.code, add.stderr).toBe(0);
  }, 120_000);

  afterAll(async () => {
    await stopAll();
    await pebble?.stop();
    await dns?.close();
    await new Promise<void>((resolve) => origin.close(() => resolve()));
  }, 60_000);

  it('renews a certificate that fell due, with no command, and the edge serves the new one', async () => {
    const set = await d.wafctl('site', 'set', DOMAIN, '--tls', 'acme', '--acme-directory', pebble.directory);
    expect(set.code, set.stderr).toBe(0);
    const first = await validOtherThan(null);
    const status = JSON.parse((await d.wafctl('daemon', 'status', '--json')).stdout) as { pid: number; ports: { edge_tls: number } };
    const root = await pebble.issuingRoot();
    // From here nothing is asked of the daemon: the timer finds the certificate due and orders anew.
    const renewed = await validOtherThan(first.serial);
    expect(renewed.error).toBeNull();
    // The edge serves a renewed certificate (the timer may have renewed again meanwhile: any but the first).
    expect(await servedSerial(status.ports.edge_tls, root)).not.toBe(first.serial!.toLowerCase());
    const after = JSON.parse((await d.wafctl('daemon', 'status', '--json')).stdout) as { pid: number };
    expect(after.pid).toBe(status.pid);
  }, 150_000);

  it('refuses renewal settings out of range, naming the flag', async () => {
    const box = await newSandbox();
    for (const [flag, value] of [['--acme-renew-before-days', '0'], ['--acme-renew-before-days', 'soon'], ['--acme-check-every-ms', '-5']]) {
      const r = await box.wafctl('daemon', 'start', ...(await quickStartFlags(box.box)), flag, value);
      expect(r.code, `${flag} ${value}`).not.toBe(0);
      expect(r.stderr, `${flag} ${value}`).toContain(flag.slice(2));
    }
  }, 120_000);
});
