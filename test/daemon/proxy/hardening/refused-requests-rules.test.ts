// The site's rules on requests node's parser refuses (unknown methods, raw UTF-8 in the target,
// Content-Length with Transfer-Encoding, HTTP/4.0, CONNECT): over raw sockets against a real edge
// with CRS 4.28 and an origin that counts every byte. The CRS rule ids ModSecurity would log are
// logged beside the edge's own event; the request is refused all the same (the edge's status, or
// the site's block response when its rules block) and nothing on the connection reaches the origin.
// The adversary's ways around or through it are tested too: a request pipelined or smuggled behind
// a refused one, a head split over packets, a huge head, a head that never ends.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InspectedRequest, RequestInspector } from '../../../../daemon/proxy/inspector.js';
import { createEngineInspector } from '../../../../daemon/rule-sets/engine-inspector.js';
import { findCrs, RuleGroups } from '../../../../daemon/rule-sets/rule-groups.js';
import { startEdge, type RunningEdge } from '../helpers.js';
import { rawExchange, startRecordingOrigin, type RecordingOrigin } from './raw-client.js';

const CRS4 = findCrs(join(import.meta.dirname, '..', '..', '..', '..', '..', 'shared', 'crs4'));
const CRS_ONLY = { cms: false, crs: true };

/** The real engine, and every request it was handed (to prove what it never saw). */
function watchedInspector(groups: RuleGroups): { inspector: RequestInspector; seen: InspectedRequest[] } {
  const real = createEngineInspector(groups);
  const seen: InspectedRequest[] = [];
  return { seen, inspector: { wantsBody: real.wantsBody, inspect: (r) => { seen.push(r); return real.inspect(r); } } };
}

const head = (line: string, host: string, extra = '') => `${line}\r\nHost: ${host}\r\nUser-Agent: raw-test\r\nAccept: */*\r\n${extra}\r\n`;
const requestIdOf = (text: string) => /x-request-id: ([0-9a-f-]{36})/.exec(text)?.[1];

describe.skipIf(CRS4 === null)('CRS rules on requests the HTTP parser refuses (raw socket, CRS 4.28)', () => {
  let origin: RecordingOrigin;
  let edge: RunningEdge;
  let seen: InspectedRequest[];
  let groups: RuleGroups;
  let inspector: RequestInspector;

  beforeAll(async () => {
    origin = await startRecordingOrigin();
    groups = new RuleGroups(CRS4, { prepareAnnounced: false });
    const watched = watchedInspector(groups);
    seen = watched.seen;
    inspector = watched.inspector;
    edge = await startEdge([
      { id: 1, domain: 'detect2.test', origin: origin.url, waf: { mode: 'detect', paranoia: 2, groups: CRS_ONLY } },
      { id: 2, domain: 'detect1.test', origin: origin.url, waf: { mode: 'detect', paranoia: 1, groups: CRS_ONLY } },
      { id: 3, domain: 'on.test', origin: origin.url, waf: { mode: 'on', paranoia: 1, groups: CRS_ONLY } },
      { id: 4, domain: 'hidden.test', origin: origin.url, blockResponse: 404, waf: { mode: 'on', paranoia: 1, groups: CRS_ONLY } },
      { id: 5, domain: 'dropped.test', origin: origin.url, blockResponse: 'drop', waf: { mode: 'on', paranoia: 1, groups: CRS_ONLY } },
    ], { inspector: watched.inspector });
    for (const site of edge.edge.snapshot.sites) expect(groups.load(site.waf.rules).ok).toBe(true);
  }, 120_000);
  afterAll(async () => { await edge?.close(); await origin?.close(); });

  /** Sends `raw` on one connection; the reply, the events and access entry of the refused request. */
  async function refused(raw: Array<string | Buffer> | string | Buffer, gapMs = 0) {
    const bytes = origin.bytesReceived();
    const reply = await rawExchange(edge.port, Array.isArray(raw) ? raw : [raw], { gapMs });
    // Nothing on a refused connection reaches the origin: the refusal is the security property.
    expect(origin.bytesReceived()).toBe(bytes);
    expect(reply.closedByServer).toBe(true);
    const id = requestIdOf(reply.text);
    const events = edge.sink.wafEvents.filter((e) => e.request_id === id);
    return { reply, id, events, ids: events.map((e) => e.rule_id), access: edge.sink.accessEntries.find((e) => e.request_id === id) };
  }

  it('an unknown method logs 911100 beside the parser refusal and is refused with 400 (detect mode)', async () => {
    const r = await refused(head('FOO /foo HTTP/1.1', 'detect1.test'));
    expect(r.reply.statuses).toEqual([400]);
    expect(r.ids[0]).toBe('parser-refused');
    expect(r.events.find((e) => e.rule_id === '911100')).toMatchObject({ group: 'crs', action: 'log', method: 'FOO', uri: '/foo', user_agent: 'raw-test' });
    expect(r.access).toMatchObject({ status: 400, blocked: true, site_id: 2 });
  });

  it('REALLYLONGUNREALMETHOD and |GET log 920100 (the request line rule), as ModSecurity does', async () => {
    for (const method of ['REALLYLONGUNREALMETHOD', '|GET']) {
      const r = await refused(head(`${method} / HTTP/1.1`, 'detect1.test'));
      expect(r.reply.statuses, method).toEqual([400]);
      expect(r.ids, method).toEqual(expect.arrayContaining(['parser-refused', '920100', '911100']));
    }
  });

  it('a site in on mode whose rules block answers with its block response (403), still closed and never forwarded', async () => {
    const r = await refused(head('FOO /foo HTTP/1.1', 'on.test'));
    expect(r.reply.statuses).toEqual([403]);
    expect(r.reply.text).toMatch(/connection: close/i);
    expect(r.reply.text).toContain(`Request id: <code>${r.id}</code>`);
    expect(r.events.find((e) => e.rule_id === '911100')).toMatchObject({ action: 'block' });
    expect(r.ids).toContain('949110');
    expect(r.access).toMatchObject({ status: 403, blocked: true });
    // The site's chosen response: 404, or dropped without a byte.
    expect((await refused(head('FOO /foo HTTP/1.1', 'hidden.test'))).reply.statuses).toEqual([404]);
    const dropped = await refused(head('FOO /foo HTTP/1.1', 'dropped.test'));
    expect(dropped.reply.text).toBe('');
    expect(edge.sink.accessEntries.some((e) => e.site_id === 5 && e.status === 444 && e.method === 'FOO')).toBe(true);
  });

  it('a site in on mode whose rules do not block keeps the edge\'s 400 (a malformed request is refused either way)', async () => {
    const r = await refused(Buffer.from(head('GET /caf\u00e9 HTTP/1.1', 'on.test'), 'utf8'));
    expect(r.reply.statuses).toEqual([400]);
    expect(r.ids).toEqual(['parser-refused']);
  });

  it('raw UTF-8 in the target logs 934120 at paranoia 2, not at paranoia 1', async () => {
    const line = 'GET /get?ssrf=http://169\u3002254\u3002169\u3002254/ HTTP/1.1';
    const pl2 = await refused(Buffer.from(head(line, 'detect2.test'), 'utf8'));
    expect(pl2.reply.statuses).toEqual([400]);
    expect(pl2.ids).toContain('934120');
    // The engine read the bytes as sent (one char per byte), as for any request.
    expect(seen.find((s) => s.requestId === pl2.id)?.uri).toBe(Buffer.from('/get?ssrf=http://169\u3002254\u3002169\u3002254/', 'utf8').toString('latin1'));
    const pl1 = await refused(Buffer.from(head(line, 'detect1.test'), 'utf8'));
    expect(pl1.ids).toContain('parser-refused');
    expect(pl1.ids).not.toContain('934120');
  });

  it('Content-Length with Transfer-Encoding logs 920181 and is refused; the request smuggled in its body never reaches the origin', async () => {
    const smuggled = 'GET /smuggled HTTP/1.1\r\nHost: detect1.test\r\n\r\n';
    const body = `0\r\n\r\n${smuggled}`;
    const r = await refused(head('POST /anything HTTP/1.1', 'detect1.test', `Content-Length: ${body.length}\r\nTransfer-Encoding: chunked\r\n`) + body);
    expect(r.reply.statuses).toEqual([400]);
    expect(r.ids).toEqual(expect.arrayContaining(['parser-refused', '920181']));
    expect(origin.heads.some((h) => h.url === '/smuggled')).toBe(false);
    expect(edge.sink.wafEvents.some((e) => e.uri === '/smuggled')).toBe(false);
  });

  it('a request pipelined behind a refused one is neither forwarded nor judged, whatever the verdict', async () => {
    for (const host of ['detect1.test', 'on.test']) {
      const second = `GET /second-${host} HTTP/1.1\r\nHost: ${host}\r\n\r\n`;
      const r = await refused(head('FOO /first HTTP/1.1', host) + second);
      expect(r.reply.statuses, host).toHaveLength(1);
      expect(origin.heads.some((h) => h.url === `/second-${host}`)).toBe(false);
      expect(seen.some((s) => s.uri === `/second-${host}`)).toBe(false);
    }
  });

  it('a head split over packets is judged whole: the fields sent after the refused request line are read', async () => {
    const r = await refused(['TEST /test HTTP/1.1\r\n', 'Host: detect1.test\r\n', 'User-Agent: sent-later\r\n\r\n'], 30);
    expect(r.reply.statuses).toEqual([400]);
    expect(r.events.find((e) => e.rule_id === '911100')).toMatchObject({ method: 'TEST', host: 'detect1.test', user_agent: 'sent-later' });
  });

  it('HTTP/4.0 logs 920430 and gets 505; a request line without a version logs 920430 and gets 400', async () => {
    const v4 = await refused(head('GET / HTTP/4.0', 'detect1.test'));
    expect(v4.reply.statuses).toEqual([505]);
    expect(v4.ids).toContain('920430');
    const none = await refused(head('GET / ', 'detect1.test'));
    expect(none.reply.statuses).toEqual([400]);
    expect(none.ids).toContain('920430');
  });

  it('CONNECT logs 911100 beside connect-refused and keeps its 405', async () => {
    const r = await refused(head('CONNECT 1.2.3.4:80 HTTP/1.1', 'detect1.test'));
    expect(r.reply.statuses).toEqual([405]);
    expect(r.ids).toEqual(expect.arrayContaining(['connect-refused', '911100']));
  });

  it('a 64 KB garbage head is refused without the engine: a head over the edge\'s limit is not judged', async () => {
    const before = seen.length;
    const r = await refused(head('FOO / HTTP/1.1', 'detect1.test', `X-Pad: ${'a'.repeat(64 * 1024)}\r\n`));
    expect(r.reply.statuses).toEqual([400]);
    expect(r.ids).toEqual(['parser-refused']);
    expect(seen.length).toBe(before);
  });

  it('megabytes of head that never end: answered, the engine never runs, the edge keeps serving', async () => {
    const before = seen.length;
    const chunk = `X-Pad: ${'b'.repeat(60_000)}\r\n`;
    const reply = await rawExchange(edge.port, ['FOO / HTTP/1.1\r\nHost: detect1.test\r\n', ...Array.from({ length: 40 }, () => chunk)]);
    expect(reply.closedByServer).toBe(true);
    expect(seen.length).toBe(before);
    const ok = await rawExchange(edge.port, `GET /after HTTP/1.1\r\nHost: detect1.test\r\nConnection: close\r\n\r\n`);
    expect(ok.statuses).toEqual([200]);
  });

  it('a head that stops before its blank line is answered at the head timeout, unjudged', async () => {
    const short = await startEdge([{ id: 2, domain: 'detect1.test', origin: origin.url, waf: { mode: 'detect', paranoia: 1, groups: CRS_ONLY } }], { inspector, limits: { headerTimeoutMs: 300 } });
    try {
      const before = seen.length;
      const reply = await rawExchange(short.port, ['FOO / HTTP/1.1\r\nHost: detect1.test\r\n']);
      expect(reply.statuses).toEqual([400]);
      expect(reply.closedByServer).toBe(true);
      const id = requestIdOf(reply.text);
      expect(short.sink.wafEvents.filter((e) => e.request_id === id).map((e) => e.rule_id)).toEqual(['parser-refused']);
      expect(seen.length).toBe(before);
    } finally {
      await short.close();
    }
  });

  it('bytes that are no head (a TLS hello on the HTTP port) are answered at once, unjudged', async () => {
    const before = seen.length;
    const hello = Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03]);
    // Well inside the head timeout (20 s): not waiting for a blank line that will never come.
    const reply = await rawExchange(edge.port, [hello], { waitMs: 10_000 });
    expect(reply.statuses).toEqual([400]);
    expect(reply.closedByServer).toBe(true);
    expect(seen.length).toBe(before);
  });
});
