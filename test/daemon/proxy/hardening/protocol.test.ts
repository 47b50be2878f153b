import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEdge, type RunningEdge } from '../helpers.js';
import { rawExchange, ScriptedInspector, startRecordingOrigin, type RecordingOrigin } from './raw-client.js';

// Request smuggling and malformed framing over a raw socket, against a real edge in front of an
// origin that counts every byte it receives. Each case must get its status, have the connection
// closed, and leave the origin at zero bytes. The site buffers bodies for the WAF (as the engine
// does), so a body that turns out malformed half-way is never forwarded either.

const H = 'Host: example.test\r\n';

const CASES: Array<[name: string, raw: string, status: number]> = [
  ['Content-Length and Transfer-Encoding', `POST / HTTP/1.1\r\n${H}Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`, 400],
  ['Transfer-Encoding and Content-Length', `POST / HTTP/1.1\r\n${H}Transfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n`, 400],
  ['duplicate Content-Length, same value', `POST / HTTP/1.1\r\n${H}Content-Length: 3\r\nContent-Length: 3\r\n\r\nabc`, 400],
  ['duplicate Content-Length, differing', `POST / HTTP/1.1\r\n${H}Content-Length: 3\r\nContent-Length: 4\r\n\r\nabcd`, 400],
  ['Content-Length as a list', `POST / HTTP/1.1\r\n${H}Content-Length: 3, 3\r\n\r\nabc`, 400],
  ['Content-Length with a sign', `POST / HTTP/1.1\r\n${H}Content-Length: +3\r\n\r\nabc`, 400],
  ['negative Content-Length', `POST / HTTP/1.1\r\n${H}Content-Length: -3\r\n\r\nabc`, 400],
  ['Content-Length overflow', `POST / HTTP/1.1\r\n${H}Content-Length: 99999999999999999999999\r\n\r\nabc`, 400],
  ['chunk size not hex', `POST / HTTP/1.1\r\n${H}Transfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n`, 400],
  ['chunk size with 0x', `POST / HTTP/1.1\r\n${H}Transfer-Encoding: chunked\r\n\r\n0x3\r\nabc\r\n0\r\n\r\n`, 400],
  ['negative chunk size', `POST / HTTP/1.1\r\n${H}Transfer-Encoding: chunked\r\n\r\n-3\r\nabc\r\n0\r\n\r\n`, 400],
  ['chunk size overflow', `POST / HTTP/1.1\r\n${H}Transfer-Encoding: chunked\r\n\r\nfffffffffffffffff3\r\nabc\r\n0\r\n\r\n`, 400],
  ['chunk longer than its size', `POST / HTTP/1.1\r\n${H}Transfer-Encoding: chunked\r\n\r\n3\r\nabcdef\r\n0\r\n\r\n`, 400],
  ['chunk lines with bare LF', `POST / HTTP/1.1\r\n${H}Transfer-Encoding: chunked\r\n\r\n3\nabc\n0\n\n`, 400],
  ['obs-fold continuation line', `GET / HTTP/1.1\r\n${H}X-A: b\r\n c\r\n\r\n`, 400],
  ['obs-fold Transfer-Encoding', `POST / HTTP/1.1\r\n${H}Transfer-Encoding:\r\n chunked\r\n\r\n0\r\n\r\n`, 400],
  ['bare LF line ends', 'GET / HTTP/1.1\nHost: example.test\nX-A: b\n\n', 400],
  ['one bare LF among CRLFs', `GET / HTTP/1.1\r\nHost: example.test\nX-A: b\r\n\r\n`, 400],
  ['bare CR', `GET / HTTP/1.1\r\nHost: example.test\rX-A: b\r\n\r\n`, 400],
  ['Transfer-Encoding: chunked, identity', `POST / HTTP/1.1\r\n${H}Transfer-Encoding: chunked, identity\r\n\r\n0\r\n\r\n`, 400],
  ['Transfer-Encoding: identity', `POST / HTTP/1.1\r\n${H}Transfer-Encoding: identity\r\n\r\nabc`, 501],
  ['Transfer-Encoding: xchunked', `POST / HTTP/1.1\r\n${H}Transfer-Encoding: xchunked\r\n\r\n0\r\n\r\n`, 501],
  ['Transfer-Encoding twice', `POST / HTTP/1.1\r\n${H}Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`, 400],
  ['space before the colon', `POST / HTTP/1.1\r\n${H}Transfer-Encoding : chunked\r\n\r\n0\r\n\r\n`, 400],
  ['vertical tab in Transfer-Encoding', `POST / HTTP/1.1\r\n${H}Transfer-Encoding: \x0bchunked\r\n\r\n0\r\n\r\n`, 400],
  ['NUL in a header value', `GET / HTTP/1.1\r\n${H}X-A: b\x00c\r\n\r\n`, 400],
  ['header line without a colon', `GET / HTTP/1.1\r\n${H}XA b\r\n\r\n`, 400],
  ['space in the request target', `GET /a b HTTP/1.1\r\n${H}\r\n`, 400],
  ['lower-case method', `get / HTTP/1.1\r\n${H}\r\n`, 400],
  ['HTTP/1.1 without Host', 'GET / HTTP/1.1\r\n\r\n', 400],
  // The gaps llhttp leaves, closed by the edge's request guard:
  ['Transfer-Encoding in HTTP/1.0', `POST / HTTP/1.0\r\n${H}Transfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n`, 400],
  ['Transfer-Encoding: gzip, chunked', `POST / HTTP/1.1\r\n${H}Transfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n`, 501],
  // Several Transfer-Encoding fields are one list (review L4): judged joined, whatever the split.
  ['Transfer-Encoding: identity, then chunked', `POST / HTTP/1.1\r\n${H}Transfer-Encoding: identity\r\nTransfer-Encoding: chunked\r\n\r\n3\r\na=b\r\n0\r\n\r\n`, 501],
  ['Transfer-Encoding: gzip, then chunked', `POST / HTTP/1.1\r\n${H}Transfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`, 501],
  ['Transfer-Encoding: empty, then chunked', `POST / HTTP/1.1\r\n${H}Transfer-Encoding: \r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`, 501],
  ['Transfer-Encoding: chunked, then identity', `POST / HTTP/1.1\r\n${H}Transfer-Encoding: chunked\r\nTransfer-Encoding: identity\r\n\r\n0\r\n\r\n`, 400],
  ['transfer-encoding: IDENTITY, then Chunked (case)', `POST / HTTP/1.1\r\n${H}transfer-encoding: IDENTITY\r\nTRANSFER-ENCODING: Chunked\r\n\r\n0\r\n\r\n`, 501],
  ['two Host fields', `GET / HTTP/1.1\r\n${H}Host: other.test\r\n\r\n`, 400],
  ['HTTP/2.0 on an HTTP/1 port', `GET / HTTP/2.0\r\n${H}\r\n`, 505],
  ['HTTP/0.9 request line', 'GET /\r\n\r\n', 400],
  ['a fragment in the request target', `GET /index.html#frag HTTP/1.1\r\n${H}\r\n`, 400],
  ['a fragment after the query', `GET /?a=1#x HTTP/1.1\r\n${H}\r\n`, 400],
  ['Host with a percent-encoded NUL', 'GET / HTTP/1.1\r\nHost: example.test%00\r\n\r\n', 400],
  ['Host with a control byte', 'GET / HTTP/1.1\r\nHost: example.test\x1f\r\n\r\n', 400],
  ['Host with userinfo', 'GET / HTTP/1.1\r\nHost: evil.test@example.test\r\n\r\n', 400],
  ['Host with a path', 'GET / HTTP/1.1\r\nHost: example.test/x\r\n\r\n', 400],
  ['Host with a space', 'GET / HTTP/1.1\r\nHost: example .test\r\n\r\n', 400],
];

describe('edge request framing (raw socket)', () => {
  let origin: RecordingOrigin;
  let edge: RunningEdge;
  const inspector = new ScriptedInspector();

  beforeAll(async () => {
    origin = await startRecordingOrigin();
    edge = await startEdge([{ id: 1, domain: 'example.test', origin: origin.url, isDefault: true }], { inspector });
    // Warm the origin pool, so an early forward would have had a connection ready.
    const warm = await rawExchange(edge.port, `GET /warm HTTP/1.1\r\n${H}Connection: close\r\n\r\n`);
    expect(warm.statuses).toEqual([200]);
  });
  afterAll(async () => {
    await edge.close();
    await origin.close();
  });

  it.each(CASES)('%s: refused, connection closed, nothing forwarded', async (_name, raw, status) => {
    const heads = origin.heads.length;
    const bytes = origin.bytesReceived();
    const reply = await rawExchange(edge.port, raw);
    expect(reply.statuses).toEqual([status]);
    expect(reply.closedByServer).toBe(true);
    // Give a forward that slipped through the time to arrive before counting.
    await new Promise((r) => setTimeout(r, 50));
    expect(origin.heads.length).toBe(heads);
    expect(origin.bytesReceived()).toBe(bytes);
  });

  it.each(['example.test', 'example.test:8080', 'www.EXAMPLE.test.', 'my_host.test', '127.0.0.1:80', '[::1]', '[2001:db8::1]:8443'])(
    'Host %s is a host: forwarded', async (host) => {
      const reply = await rawExchange(edge.port, `GET /ok HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      expect(reply.statuses).toEqual([200]);
    });

  it('a request pipelined behind a refused one is never handled or forwarded', async () => {
    const heads = origin.heads.length;
    const reply = await rawExchange(edge.port,
      `GET /first HTTP/1.1\r\n${H}\r\nGET /second HTTP/1.1\r\n${H}Host: evil.test\r\n\r\nGET /smuggled HTTP/1.1\r\n${H}\r\n`);
    expect(reply.statuses).toEqual([200, 400]);
    expect(reply.closedByServer).toBe(true);
    await new Promise((r) => setTimeout(r, 50));
    expect(origin.heads.slice(heads).map((h) => h.url)).toEqual(['/first']);
  });

  it('CONNECT (no tunnelling through the edge): 405, connection closed, nothing forwarded', async () => {
    const bytes = origin.bytesReceived();
    const reply = await rawExchange(edge.port, `CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\nSSH-2.0-x\r\n`);
    expect(reply.closedByServer).toBe(true);
    expect(reply.statuses).toEqual([405]);
    await new Promise((r) => setTimeout(r, 50));
    expect(origin.bytesReceived()).toBe(bytes);
  });

  it('a request body hidden after an HTTP/1.0 Transfer-Encoding request is not taken as a request', async () => {
    const heads = origin.heads.length;
    const reply = await rawExchange(edge.port,
      `POST / HTTP/1.0\r\n${H}Transfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /smuggled HTTP/1.1\r\n${H}\r\n`);
    expect(reply.statuses).toEqual([400]);
    await new Promise((r) => setTimeout(r, 50));
    expect(origin.heads.length).toBe(heads);
  });

  it('well-formed chunked and Content-Length bodies still pass, re-framed for the origin', async () => {
    const reply = await rawExchange(edge.port,
      `POST /chunked HTTP/1.1\r\n${H}Transfer-Encoding: Chunked\r\n\r\n3\r\nabc\r\n2;ext=1\r\nde\r\n0\r\n\r\nPOST /length HTTP/1.1\r\n${H}Content-Length: 4\r\nConnection: close\r\n\r\nwxyz`);
    expect(reply.statuses).toEqual([200, 200]);
    expect(reply.text).toContain('origin saw POST /chunked 5');
    expect(reply.text).toContain('origin saw POST /length 4');
    const chunked = origin.heads.find((h) => h.url === '/chunked')!;
    expect(chunked.headers['content-length']).toBe('5');
    expect(chunked.headers['transfer-encoding']).toBeUndefined();
  });
});
