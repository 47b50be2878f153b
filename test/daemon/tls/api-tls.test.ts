import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import { createServer } from 'node:https';
import { connect } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureApiTls, type ApiTls } from '../../../daemon/tls/api-tls.js';
import { createLocalCa, createServerCertificate } from '../../../daemon/tls/certificates.js';
import { dataPaths } from '../../../shared/paths.js';

// Every test has its own data dir: one renews the certificate on disk, another expects it as made.
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wafctl-tls-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Writes a matching operator certificate and key as op.crt and op.key; returns the certificate. */
async function writeOperatorPair(): Promise<string> {
  const pair = createServerCertificate(createLocalCa('test'));
  await writeFile(join(dir, 'op.crt'), pair.certPem);
  await writeFile(join(dir, 'op.key'), pair.keyPem);
  return pair.certPem;
}

describe('generated API TLS', () => {
  let first: ApiTls;
  beforeEach(async () => {
    first = await ensureApiTls(dataPaths(dir), {});
  });

  it('writes a CA and a server certificate with private keys 0600 in a 0700 directory', async () => {
    const paths = dataPaths(dir);
    expect(first.generated).toBe(true);
    expect(first.caFile).toBe(paths.caCert);
    expect((await stat(paths.tlsDir)).mode & 0o777).toBe(0o700);
    expect((await stat(paths.caKey)).mode & 0o777).toBe(0o600);
    expect((await stat(paths.serverKey)).mode & 0o777).toBe(0o600);
  });

  it('the server certificate verifies against the CA and names localhost, 127.0.0.1 and ::1', async () => {
    const ca = new X509Certificate(await readFile(first.caFile!, 'utf8'));
    const server = new X509Certificate(first.cert);
    expect(ca.ca).toBe(true);
    expect(server.ca).toBe(false);
    expect(server.verify(ca.publicKey)).toBe(true);
    expect(server.checkIssued(ca)).toBe(true);
    expect(server.subjectAltName).toContain('DNS:localhost');
    expect(server.subjectAltName).toContain('IP Address:127.0.0.1');
    expect(server.subjectAltName).toMatch(/IP Address:(::1|0:0:0:0:0:0:0:1)/);
    expect(server.checkHost('localhost')).toBe('localhost');
    expect(server.checkIP('127.0.0.1')).toBe('127.0.0.1');
  });

  it('a TLS client pinned to the CA completes a handshake on 127.0.0.1 with TLS 1.2+', async () => {
    const server = createServer({ cert: first.cert, key: first.key, minVersion: 'TLSv1.2' }, (_req, res) => res.end('ok'));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as { port: number };
    const socket = connect({ host: '127.0.0.1', port, ca: await readFile(first.caFile!, 'utf8') });
    await once(socket, 'secureConnect');
    expect(socket.authorized).toBe(true);
    expect(['TLSv1.2', 'TLSv1.3']).toContain(socket.getProtocol());
    socket.destroy();
    server.close();
  });

  it('reuses the files on the next start', async () => {
    const second = await ensureApiTls(dataPaths(dir), {});
    expect(second.generated).toBe(false);
    expect(second.cert).toBe(first.cert);
  });

  it('renews a server certificate close to expiry, keeping the CA', async () => {
    const paths = dataPaths(dir);
    const caPem = await readFile(paths.caCert, 'utf8');
    const later = new Date(Date.now() + 820 * 24 * 60 * 60 * 1000);
    const renewed = await ensureApiTls(paths, {}, later);
    expect(renewed.generated).toBe(true);
    expect(renewed.cert).not.toBe(first.cert);
    expect(await readFile(paths.caCert, 'utf8')).toBe(caPem);
  });
});

describe("a cluster's CA (shareCa)", () => {
  it("adopts the CA it is given: writes it over its own and issues itself a server certificate under it", async () => {
    const paths = dataPaths(dir);
    const own = await ensureApiTls(paths, {});
    const ownCa = await readFile(own.caFile!, 'utf8');
    const cluster = createLocalCa('cluster');
    const seen: string[] = [];
    const adopted = await ensureApiTls(paths, {}, undefined, async (mine) => {
      seen.push(mine.certPem);
      return cluster;
    });
    expect(seen, 'offers its own CA to the cluster').toEqual([ownCa]);
    expect(await readFile(paths.caCert, 'utf8')).toBe(cluster.certPem);
    expect(await readFile(paths.caKey, 'utf8')).toBe(cluster.keyPem);
    expect((await stat(paths.caKey)).mode & 0o777).toBe(0o600);
    expect(adopted.cert).not.toBe(own.cert);
    expect(new X509Certificate(adopted.cert).checkIssued(new X509Certificate(cluster.certPem))).toBe(true);
    // The next start with the same cluster CA changes nothing.
    const again = await ensureApiTls(paths, {}, undefined, async () => cluster);
    expect(again.cert).toBe(adopted.cert);
    expect(again.generated).toBe(false);
  });

  it('keeps its own CA and certificate when the cluster gives back the same CA', async () => {
    const paths = dataPaths(dir);
    const own = await ensureApiTls(paths, {});
    const kept = await ensureApiTls(paths, {}, undefined, async (mine) => mine);
    expect(kept.cert).toBe(own.cert);
    expect(kept.generated).toBe(false);
  });
});

describe('operator TLS files', () => {
  it('loads a matching pair and reports no CA file', async () => {
    const certPem = await writeOperatorPair();
    const tls = await ensureApiTls(dataPaths(dir), { certFile: join(dir, 'op.crt'), keyFile: join(dir, 'op.key') });
    expect(tls).toMatchObject({ caFile: null, generated: false, cert: certPem });
  });

  it('refuses a lone flag, a missing file, a non-certificate and a key that does not fit', async () => {
    await writeOperatorPair();
    const paths = dataPaths(dir);
    await expect(ensureApiTls(paths, { certFile: join(dir, 'op.crt') })).rejects.toThrow(/together/);
    await expect(ensureApiTls(paths, { certFile: join(dir, 'nope.crt'), keyFile: join(dir, 'op.key') })).rejects.toThrow(/nope\.crt/);
    await writeFile(join(dir, 'junk.crt'), 'hello');
    await expect(ensureApiTls(paths, { certFile: join(dir, 'junk.crt'), keyFile: join(dir, 'op.key') })).rejects.toThrow(/not a PEM certificate/);
    const other = createServerCertificate(createLocalCa('other'));
    await writeFile(join(dir, 'other.key'), other.keyPem);
    await expect(ensureApiTls(paths, { certFile: join(dir, 'op.crt'), keyFile: join(dir, 'other.key') })).rejects.toThrow(/does not fit/);
  });
});
