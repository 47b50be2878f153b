import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls, { type TLSSocket } from 'node:tls';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Edge } from '../../../daemon/proxy/edge.js';
import { buildEdgeSnapshot } from '../../../daemon/proxy/snapshot.js';
import { RecordingSink, startOrigin, type Origin } from './helpers.js';

function selfSigned(dir: string, name: string): { cert: string; key: string } {
  const key = join(dir, `${name}.key`), cert = join(dir, `${name}.crt`);
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2',
    '-subj', `/CN=${name}`, '-addext', `subjectAltName=DNS:${name}`, '-keyout', key, '-out', cert], { stdio: 'ignore' });
  return { cert: readFileSync(cert, 'utf8'), key: readFileSync(key, 'utf8') };
}

function get(port: number, servername: string, ca: string): Promise<{ status: number; cn: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = https.request({ host: '127.0.0.1', port, servername, ca, headers: { host: servername }, agent: false }, (res) => {
      const cn = (res.socket as TLSSocket).getPeerCertificate().subject.CN as string;
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, cn, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Raw bytes over TLS; resolves with everything the edge sent once it closes. */
function rawTls(port: number, servername: string, ca: string, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port, servername, ca }, () => socket.write(bytes));
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => { text += d; });
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
  });
}

describe('HTTPS edge with a certificate per site (SNI)', () => {
  let dir: string, origin: Origin, edge: Edge, port: number;
  const sink = new RecordingSink();
  let a: { cert: string; key: string }, b: { cert: string; key: string };
  const sitesAB = () => buildEdgeSnapshot({ sites: [
    { id: 1, domain: 'a.test', origin: origin.url, tls: a },
    { id: 2, domain: 'b.test', origin: origin.url, tls: b },
  ] });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wafctl-tls-'));
    a = selfSigned(dir, 'a.test');
    b = selfSigned(dir, 'b.test');
    origin = await startOrigin();
    edge = new Edge({ snapshot: sitesAB(), sink });
    port = await edge.listenHttps({ port: 0, host: '127.0.0.1' });
  });
  // The listener is shared; every test starts from sites a and b (one test swaps the snapshot).
  beforeEach(() => edge.setSnapshot(sitesAB()));
  afterAll(async () => { await edge.close(); await origin.close(); rmSync(dir, { recursive: true, force: true }); });

  it('serves each site its own certificate and tells the origin the request was https', async () => {
    const ra = await get(port, 'a.test', a.cert);
    expect(ra).toMatchObject({ status: 200, cn: 'a.test' });
    expect(JSON.parse(ra.body).headers['x-forwarded-proto']).toBe('https');
    expect(await get(port, 'b.test', b.cert)).toMatchObject({ status: 200, cn: 'b.test' });
  });

  it('refuses a handshake for a name with no certificate', async () => {
    await expect(get(port, 'c.test', a.cert)).rejects.toThrow();
  });

  it('picks up a new certificate from a new snapshot without a restart', async () => {
    const c = selfSigned(dir, 'c.test');
    edge.setSnapshot(buildEdgeSnapshot({ sites: [{ id: 3, domain: 'c.test', origin: origin.url, tls: c }] }));
    expect(await get(port, 'c.test', c.cert)).toMatchObject({ status: 200, cn: 'c.test' });
  });

  it('answers CONNECT (405) and heads the parser refuses (400) over TLS too, each a WAF event', async () => {
    edge.setSnapshot(buildEdgeSnapshot({ sites: [
      { id: 1, domain: 'a.test', origin: origin.url, tls: a },
      { id: 2, domain: 'b.test', origin: origin.url, tls: b },
    ] }));
    const connect = await rawTls(port, 'a.test', a.cert, 'CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: a.test\r\n\r\n');
    expect(connect).toMatch(/^HTTP\/1\.1 405 /);
    const refused = await rawTls(port, 'b.test', b.cert, 'FOO / HTTP/1.1\r\nHost: b.test\r\n\r\n');
    expect(refused).toMatch(/^HTTP\/1\.1 400 /);
    const id = /x-request-id: (\S+)/.exec(refused)![1];
    expect(sink.wafEvents.find((e) => e.request_id === id)).toMatchObject({ site_id: 2, rule_id: 'parser-refused', method: 'FOO' });
  });
});
