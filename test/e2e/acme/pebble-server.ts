import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Agent, fetch } from 'undici';
import { createLocalCa, createServerCertificate } from '../../../daemon/tls/certificates.js';

// Let's Encrypt's test CA (Debian's `pebble`) on loopback for one test: its HTTPS listener gets a
// certificate from a CA made here (handed to the daemon as NODE_EXTRA_CA_CERTS, trusted nowhere
// else), HTTP-01 goes to the edge's HTTP port, names resolve through loopback-dns.ts.

export const PEBBLE_BIN = '/usr/bin/pebble';

export interface Pebble {
  directory: string;
  /** The CA whose certificate pebble's own listener presents (for the daemon's ACME client). */
  listenerCaFile: string;
  /** Pebble's issuing root: what a TLS client trusts to accept the certificates it issued. */
  issuingRoot(): Promise<string>;
  stop(): Promise<void>;
}

/** The CA file must exist before the daemon starts (node reads NODE_EXTRA_CA_CERTS once): made first. */
export async function pebbleListenerCa(dir: string): Promise<string> {
  const ca = createLocalCa('pebble-test', new Date());
  await writeFile(join(dir, 'pebble-listener-ca.pem'), ca.certPem);
  await writeFile(join(dir, 'pebble-listener-ca.key'), ca.keyPem, { mode: 0o600 });
  return join(dir, 'pebble-listener-ca.pem');
}

/** `validitySeconds`: how long the certificates pebble issues are valid (its default: about five years). */
export async function startPebble(dir: string, options: { httpPort: number; dnsPort: number; validitySeconds?: number }): Promise<Pebble> {
  const listenerCaFile = join(dir, 'pebble-listener-ca.pem');
  const ca = { certPem: await readFile(listenerCaFile, 'utf8'), keyPem: await readFile(join(dir, 'pebble-listener-ca.key'), 'utf8') };
  const server = createServerCertificate(ca, new Date());
  await writeFile(join(dir, 'pebble.crt'), server.certPem);
  await writeFile(join(dir, 'pebble.key'), server.keyPem, { mode: 0o600 });
  const [acmePort, managementPort] = [await freePort(), await freePort()];
  await writeFile(join(dir, 'pebble.json'), JSON.stringify({
    pebble: {
      listenAddress: `127.0.0.1:${acmePort}`,
      managementListenAddress: `127.0.0.1:${managementPort}`,
      certificate: join(dir, 'pebble.crt'),
      privateKey: join(dir, 'pebble.key'),
      httpPort: options.httpPort,
      tlsPort: options.httpPort,
      ocspResponderURL: '',
      externalAccountBindingRequired: false,
      ...(options.validitySeconds !== undefined ? { certificateValidityPeriod: options.validitySeconds } : {}),
    },
  }));
  // NOSLEEP: pebble otherwise waits a random 0-15 s before each validation. Its authorizations are
  // not reused (PEBBLE_AUTHZREUSE 0) so every order proves HTTP-01 through the edge again.
  const child = spawn(PEBBLE_BIN, ['-config', join(dir, 'pebble.json'), '-dnsserver', `127.0.0.1:${options.dnsPort}`], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', PEBBLE_VA_NOSLEEP: '1', PEBBLE_AUTHZREUSE: '0', PEBBLE_WFE_NONCEREJECT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await listening(child);
  const agent = new Agent({ connect: { ca: ca.certPem } });
  return {
    directory: `https://127.0.0.1:${acmePort}/dir`,
    listenerCaFile,
    async issuingRoot() {
      const res = await fetch(`https://127.0.0.1:${managementPort}/roots/0`, { dispatcher: agent });
      return res.text();
    },
    async stop() {
      await agent.close();
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Resolves when pebble says its directory is up; rejects with its output when it exits first. */
function listening(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const seen = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('ACME directory available')) resolve();
    };
    child.stdout!.on('data', seen);
    child.stderr!.on('data', seen);
    child.once('exit', (code) => reject(new Error(`pebble exited (${code}) before listening:\n${output}`)));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
