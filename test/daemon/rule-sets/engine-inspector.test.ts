// Header values reach the engine as the bytes the client sent: node:http hands them over as
// latin1 strings (one char per byte), which is what the engine reads, so they pass unchanged.
import { describe, expect, it } from 'vitest';
import { createEngineInspector } from '../../../daemon/rule-sets/engine-inspector.js';
import { engineHeaders } from '../../../daemon/rule-sets/engine-request.js';
import { RuleGroups } from '../../../daemon/rule-sets/rule-groups.js';
import { ruleSettings } from '../../../daemon/rule-sets/rule-settings.js';

/** An inspector over a rule set of `text` alone (no cms, no CRS), and a GET to inspect with it. */
function inspectorWith(name: string, text: string) {
  const groups = new RuleGroups(null, { prepareAnnounced: false });
  const rules = ruleSettings({
    paranoia: 1, inboundThreshold: 5, outboundThreshold: 4, groups: { cms: false, crs: false }, before: null,
    after: { name, text },
  });
  expect(groups.load(rules).ok).toBe(true);
  const inspector = createEngineInspector(groups);
  return (uri: string, headers: ReadonlyArray<readonly [string, string]>) => inspector.inspect({
    requestId: 'r', method: 'GET', uri, protocol: 'HTTP/1.1', headers,
    clientAddr: '203.0.113.9', clientPort: 1, serverAddr: '127.0.0.1', serverPort: 80, body: null,
    site: { id: 1, domain: 'a.test', mode: 'on', paranoia: 1, rules },
  });
}

describe('engineHeaders', () => {
  it('passes byte strings through as the same array (no copy per request)', () => {
    const headers = [['Host', 'a.test'], ['X-Name', 'Ã©t\u00ff']] as const;
    expect(engineHeaders(headers)).toBe(headers);
  });

  it('encodes only values that are not byte strings (chars above 0xff) as UTF-8 bytes', () => {
    const headers = [['Host', 'a.test'], ['X-Price', '5 €']] as const;
    const out = engineHeaders(headers);
    expect(out).not.toBe(headers);
    expect(out).toEqual([['Host', 'a.test'], ['X-Price', Buffer.from('5 €', 'utf8').toString('latin1')]]);
    expect(headers[1][1]).toBe('5 €'); // the caller's array is not touched
  });

  it('lets a rule match the UTF-8 bytes a client sent in a header', async () => {
    const inspect = inspectorWith('/t/bytes.conf', 'SecRule REQUEST_HEADERS:X-Name "@rx ^caf\\xc3\\xa9$" "id:1000003,phase:1,deny,status:403,log,msg:\'bytes\'"\n');
    // What node:http gives for the bytes 63 61 66 c3 a9 ("café" in UTF-8).
    const fromNode = Buffer.from('café', 'utf8').toString('latin1');
    const verdict = await inspect('/', [['Host', 'a.test'], ['X-Name', fromNode]]);
    expect(verdict?.block).toBe(true);
  });

  it('reports the rule counters a rule set (TX wafctl_counter_*) and nothing for a request that sets none', async () => {
    const inspectWith = inspectorWith('/t/counters.conf', 'SecAction "id:1000004,phase:1,pass,nolog,setvar:tx.other=1"\nSecRule REQUEST_URI "@beginsWith /login" "id:1000005,phase:1,pass,nolog,setvar:tx.wafctl_counter_login=1,setvar:tx.wafctl_counter_any=1"\n');
    const inspect = (uri: string) => inspectWith(uri, [['Host', 'a.test']]);
    expect((await inspect('/login'))?.counters).toEqual(['login', 'any']);
    expect(await inspect('/home')).toBeNull();
  });
});
