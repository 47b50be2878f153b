// CRS 3.3.4's rules on multipart part headers (REQUEST-922-MULTIPART-ATTACK: 922100 `_charset_`,
// 922110 a part Content-Type with a charset outside the allowed list, 922120 Content-Transfer-
// Encoding) through a real edge listener, the daemon's own rule set and a real origin. The bodies
// end their lines with LF alone, as the CRS regression tests send them: the multipart parser
// flags that (MULTIPART_STRICT_ERROR), and the base settings' rule 200003 denies on the flag
// before CRS runs. A site in detect mode must still see the 922 rules, as ModSecurity's
// DetectionOnly does; a site in on mode is refused either way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngineInspector } from '../../../daemon/rule-sets/engine-inspector.js';
import { findCrs, RuleGroups } from '../../../daemon/rule-sets/rule-groups.js';
import { ruleSettings } from '../../../daemon/rule-sets/rule-settings.js';
import { request, startEdge, startOrigin, type Origin, type RunningEdge } from '../proxy/helpers.js';

const CRS = findCrs('/usr/share/modsecurity-crs');

const PART_HEADER_ATTACKS: Array<[string, string]> = [
  ['922100', '--b\nContent-Disposition: form-data; name="_charset_"\n\nutf-7\n--b\nContent-Disposition: form-data; name="note"\n\nhi\n--b--\n'],
  ['922110', '--b\nContent-Disposition: form-data; name="note"\nContent-Type: text/plain; charset=utf-7\n\nhello\n--b--\n'],
  ['922120', '--b\nContent-Disposition: form-data; name="note"\nContent-Transfer-Encoding: base64\n\naGVsbG8=\n--b--\n'],
];

describe.skipIf(CRS === null)('multipart part-header rules (922xxx) through the edge', () => {
  let origin: Origin;
  let edge: RunningEdge;
  beforeAll(async () => {
    const rules = ruleSettings({ paranoia: 1, inboundThreshold: 5, outboundThreshold: 4, groups: { cms: false, crs: true }, before: null, after: null });
    const groups = new RuleGroups(CRS, { prepareAnnounced: false });
    expect(groups.load(rules).ok).toBe(true);
    origin = await startOrigin();
    edge = await startEdge([
      { id: 1, domain: 'detect.test', origin: origin.url, waf: { mode: 'detect', paranoia: 1, groups: { cms: false, crs: true } } },
      { id: 2, domain: 'on.test', origin: origin.url, waf: { mode: 'on', paranoia: 1, groups: { cms: false, crs: true } } },
    ], { inspector: createEngineInspector(groups) });
  }, 60_000);
  afterAll(async () => {
    await edge?.close();
    await origin?.close();
  });

  const post = (host: string, body: string) => request({
    port: edge.port, host, method: 'POST', path: '/upload', headers: { 'content-type': 'multipart/form-data; boundary=b' }, body,
  });

  for (const [ruleId, body] of PART_HEADER_ATTACKS) {
    it(`a detect-mode site logs ${ruleId} and the origin gets the request`, async () => {
      const reply = await post('detect.test', body);
      expect(reply.status).toBe(200);
      const logged = edge.sink.wafEvents.filter((e) => e.site_id === 1 && e.uri === '/upload').map((e) => e.rule_id);
      edge.sink.wafEvents.length = 0;
      expect(logged).toContain(ruleId);
      expect(logged).toContain('200003'); // the strict-multipart flag is reported too
    });
  }

  it('an on-mode site refuses the same bodies (403) and the origin never sees them', async () => {
    const seenBefore = origin.seen.length;
    for (const [, body] of PART_HEADER_ATTACKS) expect((await post('on.test', body)).status).toBe(403);
    expect(origin.seen.length).toBe(seenBefore);
  });

  it('a benign multipart body with CRLF lines passes both sites without a 922 event', async () => {
    const body = '--b\r\nContent-Disposition: form-data; name="note"\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nhello\r\n--b--\r\n';
    edge.sink.wafEvents.length = 0;
    expect((await post('detect.test', body)).status).toBe(200);
    expect((await post('on.test', body)).status).toBe(200);
    expect(edge.sink.wafEvents.filter((e) => e.rule_id.startsWith('922'))).toEqual([]);
  });
});
