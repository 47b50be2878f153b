import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plainForms } from './app-view.js';
import { exchange } from './raw-exchange.js';
import { startRecordingOrigin, type OriginRecord, type RecordingOrigin } from './recording-origin.js';

// The harness's own parts, so that a verdict of the differential test can be trusted: the origin
// really sees what a lenient origin parses, and the plain form says what an application reads.

const record = (r: Partial<OriginRecord>): OriginRecord =>
  ({ mark: '', during: '', method: 'GET', target: '/', headers: [], body: Buffer.alloc(0), ...r });
const forms = (r: Partial<OriginRecord>) => plainForms(record(r)).map((p) => ({ target: p.target, contentType: p.contentType, body: p.body.toString('latin1') }));

describe('the plain form of what an application reads', () => {
  it('decodes the target once and encodes every byte that could be read two ways', () => {
    expect(forms({ target: "/a%20b/%2577?q=1'+OR%201%3D1--&x" })).toEqual([
      { target: '/a%20b/%2577?q=1%27%20OR%201%3D1--&x=', contentType: null, body: '' },
    ]);
  });

  it('routes on X-Original-URL / X-Rewrite-URL as well as on the target', () => {
    expect(forms({ target: '/?a=1', headers: [['x-original-url', '/wp-admin/'], ['x-rewrite-url', '/b?c=2']] }).map((f) => f.target))
      .toEqual(['/?a=1', '/wp-admin/?a=1', '/b?c=2&a=1']);
  });

  it('reads JSON in UTF-16, compressed forms and multipart fields as a plain form', () => {
    const json = forms({ method: 'POST', headers: [['content-type', 'application/json; charset=utf-16le']], body: Buffer.from('{"q":"<x>","a":[{"b":1}]}', 'utf16le') });
    expect(json).toEqual([{ target: '/', contentType: 'application/x-www-form-urlencoded', body: 'q=%3Cx%3E&b=1' }]);
    const gz = forms({ method: 'POST', headers: [['content-type', 'application/x-www-form-urlencoded'], ['content-encoding', 'gzip']], body: gzipSync('q=%27') });
    expect(gz[0].body).toBe('q=%27');
    const multipart = '--b\r\nContent-Disposition: form-data; name="q"\r\n\r\nv1\r\n--b\r\nContent-Disposition: form-data; name="f"; filename="<s>.txt"\r\n\r\nfile data\r\n--b--\r\n';
    expect(forms({ method: 'POST', headers: [['content-type', 'multipart/form-data; boundary=b']], body: Buffer.from(multipart) })[0].body).toBe('q=v1&f=%3Cs%3E.txt');
  });

  it('judges the first and the last of two Content-Type fields, and joins a repeated parameter', () => {
    const both = forms({ method: 'POST', headers: [['content-type', 'text/plain'], ['content-type', 'application/x-www-form-urlencoded']], body: Buffer.from('q=1&q=2') });
    expect(both).toEqual([
      { target: '/', contentType: 'text/plain', body: 'q=1&q=2' },
      { target: '/', contentType: 'application/x-www-form-urlencoded', body: 'q=1&q=2&q=1%2C2' },
    ]);
    expect(forms({ target: '/?q=1&q=2' })[0].target).toBe('/?q=1&q=2&q=1%2C2');
  });
});

describe('the recording origin parses like origins that keep reading HTTP', () => {
  let origin: RecordingOrigin;
  beforeAll(async () => { origin = await startRecordingOrigin(); });
  afterAll(() => origin.close());

  it('answers and records a request pipelined behind an upgrade head (node:http would not parse it)', async () => {
    const ex = await exchange(origin.port, Buffer.from(
      'GET / HTTP/1.1\r\nHost: h\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nX-Probe: up\r\n\r\n' +
      'POST /next HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nX-Probe: up\r\nConnection: close\r\n\r\n3\r\nabc\r\n0\r\nX-T: 1\r\n\r\n', 'latin1'));
    expect(ex.responses.map((r) => [r.status, r.fromOrigin])).toEqual([[200, true], [200, true]]);
    const seen = origin.records.filter((r) => r.mark === 'up');
    expect(seen.map((r) => [r.method, r.target, r.body.toString()])).toEqual([['GET', '/', ''], ['POST', '/next', 'abc']]);
    expect(seen[1].headers).toContainEqual(['x-t', '1']);
  });

  it('records bytes it cannot parse instead of dropping them', async () => {
    origin.current = 'garbage';
    await exchange(origin.port, Buffer.from('NOT HTTP AT ALL\r\n\r\n', 'latin1'));
    expect(origin.records.filter((r) => r.during === 'garbage').map((r) => [r.method, r.body.toString()])).toEqual([['', 'NOT HTTP AT ALL\r\n\r\n']]);
  });
});
