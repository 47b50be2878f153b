// `wafctl site set D --tls acme` end to end: a real daemon (CLI as a process), Let's
// Encrypt's test CA pebble validating HTTP-01 against the edge's HTTP port, names resolved to
// loopback by a DNS responder of the test's own, pebble's roots trusted only in this test.
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:tls';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSandbox, quickStartFlags, stopAll, tempDir, type E2eDaemon } from './daemon-harness.js';
import { startLoopbackDns, type LoopbackDns } from './acme/loopback-dns.js';
import { PEBBLE_BIN, pebbleListenerCa, startPebble, type Pebble } from './acme/pebble-server.js';

const DOMAIN = 'acme.example.test';
const hasPebble = existsSync(PEBBLE_BIN);

let origin: Server;
let dns: LoopbackDns;
let pebble: Pebble;
let d: E2eDaemon;
let ports: { edge: number; edge_tls: number };
let pid: number;

async function json<T>(...args: string[]): Promise<T> {
  const r = await d.wafctl(...args, '--json');
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as T;
}

type Acme = { state: string; serial: string | null; not_after: string | null; error: string | null };
const acmeOf = async () => (await json<{ settings: { tls: string; acme?: Acme } }>('site', 'show', DOMAIN)).settings;

/** Polls `site show` until the order has settled (state leaves 'pending'); the deadline is the test's timeout. */
async function settled(): Promise<Acme> {
  for (;;) {
    const s = await acmeOf();
    if (s.acme && s.acme.state !== 'pending') return s.acme;
    await delay(200);
  }
}

/** The certificate the edge presents for DOMAIN, verified against pebble's issuing root only. */
async function servedCertificate(root: string): Promise<{ serial: string; subject: string; altNames: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: ports.edge_tls, servername: DOMAIN, ca: root }, () => {
      const cert = socket.getPeerCertificate();
      socket.end();
      resolve({ serial: cert.serialNumber, subject: JSON.stringify(cert.subject ?? {}), altNames: cert.subjectaltname ?? '' });
    });
    socket.once('error', reject);
  });
}

// One certificate's life in steps (issued, renewed, its CA gone): each step starts from the one
// before, so the steps keep their order when the suite is shuffled.
describe.skipIf(!hasPebble)('site set --tls acme against pebble (skipped without Debian\'s pebble package: apt-get install pebble)', { shuffle: false }, () => {
  beforeAll(async () => {
    origin = createServer((_req, res) => res.end('origin ok'));
    await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
    dns = await startLoopbackDns();
    const dir = await tempDir('wafctl-pebble-');
    d = await newSandbox();
    // The daemon's ACME client trusts pebble's listener through this, and nothing else does.
    d.box.env.NODE_EXTRA_CA_CERTS = await pebbleListenerCa(dir);
    const start = await d.wafctl('daemon', 'start', ...(await quickStartFlags(d.box)));
    expect(start.code, start.stderr).toBe(0);
    const status = await json<{ pid: number; ports: { edge: number; edge_tls: number } }>('daemon', 'status');
    ports = status.ports;
    pid = status.pid;
    pebble = await startPebble(dir, { httpPort: ports.edge, dnsPort: dns.port });
    const add = await d.wafctl('site', 'add', DOMAIN, '--origin', `http://127.0.0.1:${(origin.address() as { port: number }).port}`);
    expect(add.code, add.stderr).toBe(0);
  }, 120_000);

  afterAll(async () => {
    await stopAll();
    await pebble?.stop();
    await dns?.close();
    await new Promise<void>((resolve) => origin.close(() => resolve()));
  }, 60_000);

  it('obtains a certificate over HTTP-01 and serves it by SNI; daemon status shows its expiry', async () => {
    const set = await d.wafctl('site', 'set', DOMAIN, '--tls', 'acme', '--acme-directory', pebble.directory, '--acme-email', 'ops@example.test');
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout + set.stderr).toMatch(/ACME: pending/);
    const acme = await settled();
    expect(acme.error).toBeNull();
    expect(acme.state).toBe('valid');
    const served = await servedCertificate(await pebble.issuingRoot());
    expect(served.altNames).toContain(`DNS:${DOMAIN}`);
    expect(served.serial.toLowerCase()).toBe(acme.serial!.toLowerCase());
    const status = await json<{ certificates: Array<{ site: string; state: string; not_after: string }> }>('daemon', 'status');
    expect(status.certificates).toEqual([{ site: DOMAIN, state: 'valid', not_after: acme.not_after, error: null }]);
    const human = await d.wafctl('daemon', 'status');
    expect(human.stdout).toContain(`certificate ${DOMAIN}`);
    expect(human.stdout).toContain(`ACME, valid until ${acme.not_after}`);
  }, 120_000);

  it('a forced renewal swaps in a new certificate without a restart', async () => {
    const before = await servedCertificate(await pebble.issuingRoot());
    expect((await d.wafctl('site', 'set', DOMAIN, '--tls', 'acme')).code).toBe(0);
    const acme = await settled();
    expect(acme.state).toBe('valid');
    expect(acme.serial!.toLowerCase()).not.toBe(before.serial.toLowerCase());
    const after = await servedCertificate(await pebble.issuingRoot());
    expect(after.serial.toLowerCase()).toBe(acme.serial!.toLowerCase());
    expect((await json<{ pid: number }>('daemon', 'status')).pid).toBe(pid);
  }, 120_000);

  it('an unreachable ACME server gives a failed state with the reason and keeps the certificate served', async () => {
    const before = await servedCertificate(await pebble.issuingRoot());
    const set = await d.wafctl('site', 'set', DOMAIN, '--tls', 'acme', '--acme-directory', 'https://127.0.0.1:1/directory');
    expect(set.code, set.stderr).toBe(0);
    const acme = await settled();
    expect(acme.state).toBe('failed');
    expect(acme.error).toMatch(/ACME order at https:\/\/127\.0\.0\.1:1\/directory failed: .*ECONNREFUSED/);
    expect((await servedCertificate(await pebble.issuingRoot())).serial).toBe(before.serial);
    const shown = await d.wafctl('site', 'show', DOMAIN);
    expect(shown.stdout).toMatch(/ACME: failed: .*serving the one valid until/);
  }, 120_000);

  it('a bad directory URL (not https, not a URL) is refused with the documented error and changes nothing', async () => {
    const before = await acmeOf();
    for (const url of ['http://127.0.0.1/dir', 'not a url']) {
      const r = await d.wafctl('site', 'set', DOMAIN, '--tls', 'acme', '--acme-directory', url);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/acme\.directory/);
    }
    expect(await acmeOf()).toEqual(before);
  }, 60_000);
});
