import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Edge } from '../../../../daemon/proxy/edge.js';
import { buildEdgeSnapshot } from '../../../../daemon/proxy/snapshot.js';

// The listener's TLS policy still holds when SNI switches to a site's own certificate (whose
// secure context is built by the snapshot with node's defaults): old versions and weak suites
// are refused by the server for the site's name too.

function selfSigned(dir: string, name: string): { cert: string; key: string } {
  const key = join(dir, `${name}.key`), cert = join(dir, `${name}.crt`);
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2',
    '-subj', `/CN=${name}`, '-addext', `subjectAltName=DNS:${name}`, '-keyout', key, '-out', cert], { stdio: 'ignore' });
  return { cert: readFileSync(cert, 'utf8'), key: readFileSync(key, 'utf8') };
}

function handshake(port: number, servername: string, options: tls.ConnectionOptions): Promise<string> {
  return new Promise((resolve) => {
    const s = tls.connect({ host: '127.0.0.1', port, servername, rejectUnauthorized: false, ...options }, () => {
      const cn = s.getPeerCertificate().subject?.CN;
      resolve(`ok ${s.getProtocol()} ${s.getCipher().name} ${cn}`);
      s.destroy();
    });
    s.on('error', (e: NodeJS.ErrnoException) => resolve(`refused ${e.code}`));
  });
}

describe('TLS policy with per-site certificates', () => {
  let dir: string, edge: Edge, port: number;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wafctl-tls-policy-'));
    const site = selfSigned(dir, 'site.test');
    const fallback = selfSigned(dir, 'fallback.test');
    edge = new Edge({ snapshot: buildEdgeSnapshot({ sites: [{ id: 1, domain: 'site.test', origin: 'http://127.0.0.1:9', tls: site }] }), fallbackTls: fallback });
    port = await edge.listenHttps({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => { await edge.close(); rmSync(dir, { recursive: true, force: true }); });

  it('serves the site certificate over TLS 1.2 ECDHE-GCM and TLS 1.3', async () => {
    expect(await handshake(port, 'site.test', { maxVersion: 'TLSv1.2' })).toMatch(/^ok TLSv1\.2 ECDHE-RSA-(AES\d+-GCM-SHA\d+|CHACHA20-POLY1305) site\.test$/);
    expect(await handshake(port, 'site.test', {})).toMatch(/^ok TLSv1\.3 .* site\.test$/);
  });

  it.each(['site.test', 'unknown.test'])('refuses TLS 1.1 and CBC / RSA key exchange for %s', async (name) => {
    expect(await handshake(port, name, { minVersion: 'TLSv1.1', maxVersion: 'TLSv1.1', ciphers: 'DEFAULT@SECLEVEL=0' })).toBe('refused ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION');
    expect(await handshake(port, name, { maxVersion: 'TLSv1.2', ciphers: 'AES128-SHA:AES256-GCM-SHA384:ECDHE-RSA-AES128-SHA' })).toBe('refused ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE');
  });
});
