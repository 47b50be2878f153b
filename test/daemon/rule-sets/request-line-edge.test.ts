// REQUEST_LINE is the request line as the client sent it, through a real edge listener and a real
// origin: an absolute-form target (a proxy probe: `GET http://host/path HTTP/1.1`) stays absolute
// there, as ModSecurity shows it, while REQUEST_URI and the origin get the origin form.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngineInspector } from '../../../daemon/rule-sets/engine-inspector.js';
import { RuleGroups } from '../../../daemon/rule-sets/rule-groups.js';
import { ruleSettings } from '../../../daemon/rule-sets/rule-settings.js';
import { request, startEdge, startOrigin, type Origin, type RunningEdge } from '../proxy/helpers.js';

const RULES = {
  name: '/t/request-line.conf',
  text: [
    `SecRule REQUEST_LINE "@rx ^(.*)$" "id:1000010,phase:1,pass,log,capture,msg:'line %{TX.1}'"`,
    `SecRule REQUEST_URI "@rx ^(.*)$" "id:1000011,phase:1,pass,log,capture,msg:'uri %{TX.1}'"`,
  ].join('\n') + '\n',
};

describe('REQUEST_LINE through the edge', () => {
  let origin: Origin;
  let edge: RunningEdge;
  beforeAll(async () => {
    const groups = new RuleGroups(null, { prepareAnnounced: false });
    const rules = ruleSettings({ paranoia: 1, inboundThreshold: 5, outboundThreshold: 4, groups: { cms: false, crs: false }, before: null, after: RULES });
    expect(groups.load(rules).ok).toBe(true);
    origin = await startOrigin();
    edge = await startEdge([{
      id: 1, domain: 'rl.test', origin: origin.url,
      waf: { mode: 'detect', paranoia: 1, groups: { cms: false, crs: false }, rulesAfter: RULES },
    }], { inspector: createEngineInspector(groups) });
  }, 60_000);
  afterAll(async () => {
    await edge?.close();
    await origin?.close();
  });

  const logged = (uri: string) => {
    const msgs = edge.sink.wafEvents.filter((e) => e.uri === uri).map((e) => e.msg);
    edge.sink.wafEvents.length = 0;
    return msgs;
  };

  it('keeps an absolute-form target on the request line; REQUEST_URI and the origin get the origin form', async () => {
    const reply = await request({ port: edge.port, host: 'rl.test', path: 'http://rl.test/probe?x=1' });
    expect(reply.status).toBe(200);
    expect(origin.seen.at(-1)?.url).toBe('/probe?x=1');
    expect(logged('/probe?x=1')).toEqual(['line GET http://rl.test/probe?x=1 HTTP/1.1', 'uri /probe?x=1']);
  });

  it('an origin-form target reads the same on both', async () => {
    expect((await request({ port: edge.port, host: 'rl.test', path: '/plain?y=2' })).status).toBe(200);
    expect(logged('/plain?y=2')).toEqual(['line GET /plain?y=2 HTTP/1.1', 'uri /plain?y=2']);
  });
});
