import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEdgeSnapshot } from '../../../../daemon/proxy/snapshot.js';
import { startEdge, type RunningEdge } from '../helpers.js';
import { rawExchange, rawExchangeHalfClosed, startRecordingOrigin, type RecordingOrigin } from './raw-client.js';

// Requests node:http answers without a 'request' event (issue 19, "requests the edge drops
// unseen"): CONNECT, and heads its parser refuses. Over raw sockets against a real edge and an
// origin that counts every byte: each gets a status and the edge's page with a request id, the
// connection is closed, nothing reaches the origin, and a WAF event with that request id is
// recorded for the site its Host names.

const HOST = 'unparsed.test';
const H = `Host: ${HOST}\r\n`;

const REFUSED: Array<[name: string, raw: string | Buffer, status: number, method: string]> = [
  ['unknown method', `FOO /x HTTP/1.1\r\n${H}\r\n`, 400, 'FOO'],
  ['lower-case method', `get /x HTTP/1.1\r\n${H}\r\n`, 400, 'get'],
  ['method with a control byte', `GE\x01T /x HTTP/1.1\r\n${H}\r\n`, 400, 'GE\x01T'],
  ['raw non-ASCII byte in the target', Buffer.from(`GET /wp-admin/\xff HTTP/1.1\r\n${H}\r\n`, 'latin1'), 400, 'GET'],
  ['raw UTF-8 in the target', Buffer.from(`GET /caf\u00e9 HTTP/1.1\r\n${H}\r\n`, 'utf8'), 400, 'GET'],
  ['tab in the target', `GET /a\tb HTTP/1.1\r\n${H}\r\n`, 400, 'GET'],
  ['space in the target', `GET /a b HTTP/1.1\r\n${H}\r\n`, 400, 'GET'],
  ['garbage version', `GET /x HTTP/x.y\r\n${H}\r\n`, 400, 'GET'],
  ['extra field in the request line', `GET /x HTTP/1.1 extra\r\n${H}\r\n`, 400, 'GET'],
  ['invalid header name', `GET /x HTTP/1.1\r\n${H}Bad Name: v\r\n\r\n`, 400, 'GET'],
  ['NUL in a header value', `GET /x HTTP/1.1\r\n${H}X-A: b\x00c\r\n\r\n`, 400, 'GET'],
];

describe('requests node answers without a request event (raw socket)', () => {
  let origin: RecordingOrigin;
  let edge: RunningEdge;

  beforeAll(async () => {
    origin = await startRecordingOrigin();
    edge = await startEdge([{ id: 7, domain: HOST, origin: origin.url }]);
  });
  afterAll(async () => { await edge.close(); await origin.close(); });

  const requestIdOf = (text: string) => /x-request-id: ([0-9a-f-]{36})/.exec(text)?.[1];

  it.each(REFUSED)('%s: page with a request id, connection closed, an event, nothing forwarded', async (_name, raw, status, method) => {
    const bytes = origin.bytesReceived();
    const reply = await rawExchange(edge.port, [raw]);
    expect(reply.statuses).toEqual([status]);
    expect(reply.closedByServer).toBe(true);
    const id = requestIdOf(reply.text);
    expect(id).toBeDefined();
    expect(reply.text).toContain(`Request id: <code>${id}</code>`);
    expect(edge.sink.wafEvents.find((e) => e.request_id === id)).toMatchObject({
      site_id: 7, group: 'edge', rule_id: 'parser-refused', waf_file: 'edge/protocol', action: 'block', method, host: HOST, client_ip: '127.0.0.1',
    });
    expect(edge.sink.accessEntries.find((e) => e.request_id === id)).toMatchObject({ status, blocked: true, site_id: 7 });
    expect(origin.bytesReceived()).toBe(bytes);
  });

  const GUARDED: Array<[name: string, raw: string, status: number]> = [
    ['two Host fields', `GET /x HTTP/1.1\r\n${H}Host: other.test\r\n\r\n`, 400],
    ['Transfer-Encoding identity then chunked (two fields)', `POST /x HTTP/1.1\r\n${H}Transfer-Encoding: identity\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`, 501],
    ['Transfer-Encoding in HTTP/1.0', `POST /x HTTP/1.0\r\n${H}Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n`, 400],
  ];

  // What node parses but the edge's own protocol guard refuses (request-guard.ts) is shown too.
  it.each(GUARDED)('%s: refused by the protocol guard with a request id and an event', async (_name, raw, status) => {
    const bytes = origin.bytesReceived();
    const reply = await rawExchange(edge.port, [raw]);
    expect(reply.statuses).toEqual([status]);
    const id = requestIdOf(reply.text);
    expect(id).toBeDefined();
    expect(edge.sink.wafEvents.find((e) => e.request_id === id)).toMatchObject({
      site_id: 7, group: 'edge', rule_id: 'protocol-refused', waf_file: 'edge/protocol', action: 'block', host: HOST,
    });
    expect(edge.sink.accessEntries.find((e) => e.request_id === id)).toMatchObject({ status, blocked: true });
    expect(origin.bytesReceived()).toBe(bytes);
  });

  it('CONNECT: 405 with a request id, an event, the tunnel bytes dropped', async () => {
    const bytes = origin.bytesReceived();
    const reply = await rawExchange(edge.port, `CONNECT 127.0.0.1:22 HTTP/1.1\r\n${H}\r\nSSH-2.0-x\r\n`);
    expect(reply.statuses).toEqual([405]);
    expect(reply.closedByServer).toBe(true);
    const id = requestIdOf(reply.text);
    expect(edge.sink.wafEvents.find((e) => e.request_id === id)).toMatchObject({
      site_id: 7, group: 'edge', rule_id: 'connect-refused', method: 'CONNECT', uri: '127.0.0.1:22', action: 'block',
    });
    expect(origin.bytesReceived()).toBe(bytes);
  });

  it('CONNECT over HTTP/1.0 and without Host: 405 as well', async () => {
    for (const raw of [`CONNECT evil.example:443 HTTP/1.0\r\n\r\n`, `CONNECT evil.example:443 HTTP/1.1\r\n\r\n`]) {
      const reply = await rawExchange(edge.port, raw);
      expect(reply.statuses, raw).toEqual([405]);
      expect(reply.closedByServer).toBe(true);
    }
  });

  it('a good request pipelined before garbage gets its answer first, then the 400', async () => {
    const heads = origin.heads.length;
    const reply = await rawExchange(edge.port, `GET /first HTTP/1.1\r\n${H}\r\nFOO /second HTTP/1.1\r\n${H}\r\nGET /third HTTP/1.1\r\n${H}\r\n`);
    expect(reply.statuses).toEqual([200, 400]);
    expect(reply.closedByServer).toBe(true);
    expect(origin.heads.slice(heads).map((h) => h.url)).toEqual(['/first']);
    const id = requestIdOf(reply.text.slice(reply.text.lastIndexOf('HTTP/1.1 400')));
    expect(edge.sink.wafEvents.find((e) => e.request_id === id)).toMatchObject({ method: 'FOO', uri: '/second', host: HOST });
  });

  it('a request line sent on its own: the edge waits for the rest of the head and charges it to the Host sent later', async () => {
    // node hands over only the read its parser failed in; the edge reads on to the blank line.
    const reply = await rawExchange(edge.port, ['FOO /alone HTTP/1.1\r\n', `${H}User-Agent: later\r\n\r\n`], { gapMs: 50 });
    expect(reply.statuses).toEqual([400]);
    const id = requestIdOf(reply.text);
    expect(edge.sink.wafEvents.find((e) => e.request_id === id)).toMatchObject({ site_id: 7, method: 'FOO', uri: '/alone', host: HOST, user_agent: 'later' });
  });

  it('a request line and a client that half-closes: answered at once, charged to the default site if any', async () => {
    const alone = () => rawExchangeHalfClosed(edge.port, 'FOO /alone HTTP/1.1\r\n');
    const reply = await alone();
    expect(reply.statuses).toEqual([400]);
    // This edge has no default site: nothing to charge it to, so no event (like a 421).
    expect(edge.sink.wafEvents.find((e) => e.request_id === requestIdOf(reply.text))).toBeUndefined();
    edge.edge.setSnapshot(buildEdgeSnapshot({ sites: [{ id: 7, domain: HOST, origin: origin.url, isDefault: true }] }));
    try {
      const again = await alone();
      expect(edge.sink.wafEvents.find((e) => e.request_id === requestIdOf(again.text))).toMatchObject({ site_id: 7, method: 'FOO', uri: '/alone' });
    } finally {
      edge.edge.setSnapshot(buildEdgeSnapshot({ sites: [{ id: 7, domain: HOST, origin: origin.url }] }));
    }
  });

  it('HTTP/1.1 without Host: the edge\'s page with a request id (node\'s own answer had none), nothing forwarded', async () => {
    const bytes = origin.bytesReceived();
    const reply = await rawExchange(edge.port, 'GET /x HTTP/1.1\r\nX-A: b\r\n\r\n');
    expect(reply.statuses).toEqual([400]);
    expect(reply.closedByServer).toBe(true);
    expect(requestIdOf(reply.text)).toBeDefined();
    expect(origin.bytesReceived()).toBe(bytes);
    // HTTP/1.0 needs no Host: it goes to the default site (none here: 421).
    expect((await rawExchange(edge.port, 'GET /x HTTP/1.0\r\n\r\n')).statuses).toEqual([421]);
  });

  it('an unknown Host is answered with the page and logged nowhere', async () => {
    const before = edge.sink.wafEvents.length;
    const reply = await rawExchange(edge.port, `FOO / HTTP/1.1\r\nHost: other.test\r\n\r\n`);
    expect(reply.statuses).toEqual([400]);
    expect(requestIdOf(reply.text)).toBeDefined();
    expect(edge.sink.wafEvents.length).toBe(before);
  });

  it('a client that keeps sending after the refusal is still closed, and the edge keeps serving', async () => {
    const socket = net.connect(edge.port, '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    const closed = new Promise<string>((resolve) => {
      let text = '';
      socket.setEncoding('latin1');
      socket.on('data', (d: string) => { text += d; });
      socket.on('close', () => resolve(text));
      socket.on('error', () => {});
    });
    socket.write(`FOO / HTTP/1.1\r\n${H}\r\n`);
    for (let i = 0; i < 20; i++) socket.write(`BAR /${i} HTTP/1.1\r\n${H}\r\n`);
    const text = await closed;
    expect(text.match(/HTTP\/1\.1 400 /g)).toHaveLength(1);
    const ok = await rawExchange(edge.port, `GET /after HTTP/1.1\r\n${H}Connection: close\r\n\r\n`);
    expect(ok.statuses).toEqual([200]);
  });
});
