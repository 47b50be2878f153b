import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Edge } from '../../../daemon/proxy/edge.js';
import { buildEdgeSnapshot } from '../../../daemon/proxy/snapshot.js';
import type { SiteInput } from '../../../daemon/proxy/snapshot-input.js';
import { createEngineInspector } from '../../../daemon/rule-sets/engine-inspector.js';
import { findCrs, RuleGroups } from '../../../daemon/rule-sets/rule-groups.js';
import { startRecordingOrigin, type RecordingOrigin } from './hardening/raw-client.js';
import type { AccessEntry } from '../../../daemon/proxy/events.js';
import { RecordingSink } from './helpers.js';
import { clientFrame, converse, echoedText, selfSigned, startWebSocketOrigin, WS_ACCEPT, wsHandshake, type Transport, type WebSocketOrigin } from './upgrade-fixtures.js';

// Upgrade requests (Connection: upgrade + Upgrade) through the real edge, over raw TCP and TLS,
// with the real SecLang engine and the Core Rule Set, in front of the two kinds of origin users
// run: one that never upgrades (node:http without an 'upgrade' listener: it answers the request
// and keeps parsing HTTP on the connection, like PHP/Apache, nginx, most apps) and a WebSocket
// server. The promise: nothing reaches an origin that the edge did not parse and inspect; only
// the origin's 101 opens a raw tunnel, and an idle tunnel is closed.

const crs = findCrs('/usr/share/modsecurity-crs');
const ATTACK = "id=1' OR '1'='1";
const ATTACK_QUERY = "id=1'%20OR%20'1'='1";
const INSPECTION_LIMIT = 64 * 1024;

/** The edge writes an upgrade's access entry when the connection closes on its side: wait for it. */
class WaitingSink extends RecordingSink {
  accessFor(uri: string): Promise<AccessEntry> {
    return this.accessEntry((e) => e.uri === uri);
  }
}

/** Each case marks its paths with a fresh number, so origin records are told apart. */
let serial = 0;
const mark = () => `m${++serial}`;

describe.skipIf(crs === null)('upgrade requests through the edge (CRS; .ci/run installs modsecurity-crs)', () => {
  let dir: string;
  let plain: RecordingOrigin;
  let ws: WebSocketOrigin;
  let edge: Edge;
  let idleEdge: Edge;
  /** A raw origin that switches anything to h2c, or (for /silent) never answers. */
  let rogue: net.Server;
  /** Every chunk the rogue origin received. */
  const rogueReceived: string[] = [];
  const sink = new WaitingSink();
  const transports: Transport[] = [];
  const idleTransports: Transport[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wafctl-upgrade-'));
    const tls = selfSigned(dir, ['plain.test', 'ws.test', 'rogue.test']);
    const groups = new RuleGroups(crs, { prepareAnnounced: false });
    groups.forParanoia(1);
    const inspector = createEngineInspector(groups);
    [plain, ws] = await Promise.all([startRecordingOrigin(), startWebSocketOrigin()]);
    rogue = net.createServer((s) => {
      s.on('error', () => {});
      s.on('data', (d) => { rogueReceived.push(d.toString('latin1')); });
      s.once('data', (d) => {
        if (!d.toString('latin1').startsWith('GET /silent')) s.write('HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: h2c\r\n\r\n');
      });
    });
    await new Promise<void>((r) => rogue.listen(0, '127.0.0.1', r));
    const sites: SiteInput[] = [
      { id: 1, domain: 'plain.test', origin: plain.url, tls, pageProtection: [{ path: '/wp-admin', allow: ['192.0.2.1'] }] },
      { id: 2, domain: 'ws.test', origin: ws.url, tls },
      { id: 3, domain: 'rogue.test', origin: `http://127.0.0.1:${(rogue.address() as net.AddressInfo).port}`, tls },
    ];
    edge = new Edge({ snapshot: buildEdgeSnapshot({ sites }), sink, inspector, maxBodyBytes: INSPECTION_LIMIT });
    idleEdge = new Edge({ snapshot: buildEdgeSnapshot({ sites }), sink, inspector, limits: { tunnelIdleTimeoutMs: 300 } });
    transports.push({ name: 'http', port: await edge.listenHttp({ port: 0, host: '127.0.0.1' }) });
    transports.push({ name: 'https', port: await edge.listenHttps({ port: 0, host: '127.0.0.1' }), ca: tls.cert });
    idleTransports.push({ name: 'http', port: await idleEdge.listenHttp({ port: 0, host: '127.0.0.1' }) });
    idleTransports.push({ name: 'https', port: await idleEdge.listenHttps({ port: 0, host: '127.0.0.1' }), ca: tls.cert });
  }, 120_000);

  afterAll(async () => {
    await Promise.all([edge?.close(), idleEdge?.close()]);
    await Promise.all([plain?.close(), ws?.close(), new Promise((r) => rogue ? rogue.close(r) : r(undefined))]);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const seenByPlain = (m: string) => plain.heads.filter((h) => h.url.includes(m));
  const over = (name: Transport['name']) => transports.find((t) => t.name === name)!;

  describe.each(['http', 'https'] as const)('over %s', (name) => {
    // Upgrade heads that an origin which does not switch protocols answers as ordinary requests.
    const upgradeHeads: Array<[string, (m: string) => string]> = [
      ['GET + websocket', (m) => `GET /${m} HTTP/1.1\r\nHost: plain.test\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: x\r\n\r\n`],
      ['GET + h2c', (m) => `GET /${m} HTTP/1.1\r\nHost: plain.test\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n\r\n`],
      ['OPTIONS + an unknown protocol', (m) => `OPTIONS /${m} HTTP/1.1\r\nHost: plain.test\r\nConnection: upgrade\r\nUpgrade: foo/2\r\n\r\n`],
      ['POST with a body + websocket', (m) => `POST /${m} HTTP/1.1\r\nHost: plain.test\r\nConnection: keep-alive, Upgrade\r\nUpgrade: websocket\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 7\r\n\r\nname=ok`],
      ['POST with a chunked body + websocket', (m) => `POST /${m} HTTP/1.1\r\nHost: plain.test\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nTransfer-Encoding: chunked\r\nContent-Type: application/x-www-form-urlencoded\r\n\r\n7\r\nname=ok\r\n0\r\n\r\n`],
    ];
    const smuggled = (m: string) => `GET /wp-admin/${m}?${ATTACK_QUERY}&q=<script>alert(1)</script> HTTP/1.1\r\nHost: plain.test\r\n\r\n`;

    it.each(upgradeHeads)('%s: a request pipelined in the same write never reaches an origin that does not upgrade', async (_label, head) => {
      const m = mark();
      const c = await converse(over(name), head(m) + smuggled(m), 'plain.test');
      const { text, statuses } = await c.closed;
      expect(statuses).toEqual([200]);
      expect(text).toMatch(/\r\nconnection: close\r\n/i);
      expect(seenByPlain(m).map((h) => h.url)).toEqual([`/${m}`]);
    });

    it.each(upgradeHeads)('%s: a request sent after the first answer never reaches the origin either', async (_label, head) => {
      const m = mark();
      const c = await converse(over(name), head(m), 'plain.test');
      await c.until((t) => t.includes(`origin saw`));
      c.socket.write(smuggled(m), () => {}); // the edge may already have closed: that is the point
      await c.closed;
      expect(seenByPlain(m).map((h) => h.url)).toEqual([`/${m}`]);
    });

    it('forwards an upgrade request body exactly as inspected, re-framed with a Content-Length', async () => {
      const m = mark();
      const body = 'a=1&b=' + 'x'.repeat(300);
      const chunked = `${(150).toString(16)};ext=1\r\n${body.slice(0, 150)}\r\n${(body.length - 150).toString(16)}\r\n${body.slice(150)}\r\n0\r\nX-Trailer: t\r\n\r\n`;
      const c = await converse(over(name), `POST /${m} HTTP/1.1\r\nHost: plain.test\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nTransfer-Encoding: chunked\r\nContent-Type: application/x-www-form-urlencoded\r\n\r\n${chunked}`, 'plain.test');
      expect((await c.closed).statuses).toEqual([200]);
      const [seen] = seenByPlain(m);
      expect(seen.headers['content-length']).toBe(String(body.length));
      expect(seen.headers['transfer-encoding']).toBeUndefined();
      expect(plain.complete.find((r) => r.url === `/${m}`)?.body.toString()).toBe(body);
    });

    it.each([
      ['Content-Length', (m: string) => `POST /${m} HTTP/1.1\r\nHost: plain.test\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${ATTACK.length}\r\n\r\n${ATTACK}`, [] as string[]],
      ['chunked', (m: string) => `POST /${m} HTTP/1.1\r\nHost: plain.test\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n${ATTACK.length.toString(16)}\r\n${ATTACK}\r\n0\r\n\r\n`, [] as string[]],
      // The body in pieces: head, then the attack a byte-run at a time in chunks across writes.
      ['chunked, across writes', (m: string) => `POST /${m} HTTP/1.1\r\nHost: plain.test\r\nConnection: Upgrade\r\nUpgrade: h2c\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n`,
        ['4\r\nid=1', '\r\n', `${(ATTACK.length - 4).toString(16)}\r\n${ATTACK.slice(4)}\r\n`, '0\r\n\r\n']],
    ])('blocks SQL injection in the upgrade request body (%s), and nothing of it reaches the origin', async (_label, head, rest) => {
      const m = mark();
      const c = await converse(over(name), head(m), 'plain.test');
      for (const piece of rest) await new Promise<void>((r) => c.socket.write(piece, () => r()));
      const { statuses } = await c.closed;
      expect(statuses).toEqual([403]);
      expect(seenByPlain(m)).toEqual([]);
      expect(sink.wafEvents.filter((e) => e.uri === `/${m}` && e.action === 'block' && e.group === 'crs').length).toBeGreaterThan(0);
      expect(await sink.accessFor(`/${m}`)).toMatchObject({ status: 403, blocked: true });
    });

    it.each([
      ['a body over the inspection limit', (m: string) => `POST /${m} HTTP/1.1\r\nHost: plain.test\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nContent-Length: ${INSPECTION_LIMIT + 1}\r\n\r\nabc`, 413],
      ['a chunked body over the inspection limit', (m: string) => `POST /${m} HTTP/1.1\r\nHost: plain.test\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nTransfer-Encoding: chunked\r\n\r\n${(INSPECTION_LIMIT + 1).toString(16)}\r\nabc`, 413],
      ['a chunk size that is not hex', (m: string) => `POST /${m} HTTP/1.1\r\nHost: plain.test\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n`, 400],
      ['chunk lines with bare LF', (m: string) => `POST /${m} HTTP/1.1\r\nHost: plain.test\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nTransfer-Encoding: chunked\r\n\r\n3\nabc\n0\n\n`, 400],
      ['a chunk longer than its size', (m: string) => `POST /${m} HTTP/1.1\r\nHost: plain.test\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcdef\r\n0\r\n\r\n`, 400],
      ['a pipelined request to a protected page in the chunk data', (m: string) => `POST /${m} HTTP/1.1\r\nHost: plain.test\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n${smuggled(m)}`, 400],
    ])('refuses an upgrade request with %s before the origin hears of it', async (_label, raw, status) => {
      const m = mark();
      const c = await converse(over(name), raw(m), 'plain.test');
      expect((await c.closed).statuses).toEqual([status]);
      expect(seenByPlain(m)).toEqual([]);
    });

    it('keeps page protection for the upgrade request itself', async () => {
      const m = mark();
      const c = await converse(over(name), `GET /wp-admin/${m} HTTP/1.1\r\nHost: plain.test\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n`, 'plain.test');
      expect((await c.closed).statuses).toEqual([403]);
      expect(seenByPlain(m)).toEqual([]);
    });

    it('tunnels a real WebSocket once the origin has switched: frames sent early wait for the 101, then echo', async () => {
      const before = ws.upgrades.length;
      // The handshake and a first frame in one write: the frame must not reach the origin before its 101.
      const c = await converse(over(name), Buffer.concat([Buffer.from(wsHandshake('ws.test')), clientFrame('early bird')]), 'ws.test');
      expect(echoedText(await c.until((t) => echoedText(t) !== null))).toBe('early bird');
      const head = c.text().slice(0, c.text().indexOf('\r\n\r\n'));
      expect(head).toMatch(/^HTTP\/1\.1 101 /);
      expect(head).toContain(`Sec-WebSocket-Accept: ${WS_ACCEPT}`);
      expect(ws.upgrades.length).toBe(before + 1);
      expect(ws.upgrades.at(-1)).toMatchObject({ earlyBytes: 0, headers: { 'x-forwarded-proto': name, upgrade: 'websocket' } });
      c.socket.destroy();
      await ws.upgrades.at(-1)!.closed;
    });

    it('blocks a WebSocket handshake carrying SQL injection; the origin never sees it', async () => {
      const before = ws.upgrades.length;
      const c = await converse(over(name), wsHandshake('ws.test', `/socket?${ATTACK_QUERY}`), 'ws.test');
      expect((await c.closed).statuses).toEqual([403]);
      expect(ws.upgrades.length).toBe(before);
    });

    it.each(['h2c', 'H2C', 'websocket, h2c', 'HTTP/2.0', 'h2'])('refuses Upgrade: %s even from an origin that would switch: served as plain HTTP/1.1, with an event', async (protocol) => {
      const m = mark();
      const upgrades = ws.upgrades.length;
      const c = await converse(over(name), `GET /${m} HTTP/1.1\r\nHost: ws.test\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: ${protocol}\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n\r\n${clientFrame('x').toString('latin1')}`, 'ws.test');
      const { text, statuses } = await c.closed;
      expect(statuses).toEqual([200]);
      expect(text).toContain(`plain answer to GET /${m}`);
      expect(ws.upgrades.length).toBe(upgrades);
      const seen = ws.requests.find((r) => r.url === `/${m}`)!;
      expect(seen.headers.upgrade).toBeUndefined();
      expect(seen.headers['http2-settings']).toBeUndefined();
      expect(sink.wafEvents.find((e) => e.uri === `/${m}`)).toMatchObject({ rule_id: 'upgrade-refused', group: 'edge', action: 'log', matched_data: protocol });
    });

    it('never tunnels when the origin switches to a protocol that carries HTTP: 502', async () => {
      const c = await converse(over(name), Buffer.concat([Buffer.from(wsHandshake('rogue.test', '/switch')), clientFrame('GET /admin')]), 'rogue.test');
      const { text, statuses } = await c.closed;
      expect(statuses).toEqual([502]);
      // A status line, not the digits: the random request id in the 502's headers may hold "101".
      expect(text).not.toMatch(/^HTTP\/1\.[01] 101/m);
      expect(rogueReceived.join('')).toContain('GET /switch');
      expect(rogueReceived.join('')).not.toContain('\x81'); // the early frame never went out
    });

    it('answers 504 when the origin says nothing to an upgrade request for the tunnel idle timeout', async () => {
      const t = idleTransports.find((x) => x.name === name)!;
      const c = await converse(t, wsHandshake('rogue.test', '/silent'), 'rogue.test');
      expect((await c.closed).statuses).toEqual([504]);
    });

    it('closes an idle tunnel, and its origin connection, after the tunnel idle timeout', async () => {
      const t = idleTransports.find((x) => x.name === name)!;
      // Only the handshake: the idle clock starts with the tunnel, so no round trip races it.
      const c = await converse(t, wsHandshake('ws.test', `/idle-${name}`), 'ws.test');
      await c.until((x) => x.includes('\r\n\r\n'));
      expect(c.text()).toMatch(/^HTTP\/1\.1 101 /);
      // Nothing more is sent either way: the edge must close both sides on its own.
      await c.closed;
      await ws.upgrades.find((u) => u.url === `/idle-${name}`)!.closed;
      expect(await sink.accessFor(`/idle-${name}`)).toMatchObject({ status: 101, site_id: 2 });
    });
  });
});
