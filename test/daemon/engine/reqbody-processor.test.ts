// REQBODY_PROCESSOR as ModSecurity sets it: at the request headers, so phase 1 sees it, changed by
// ctl:requestBodyProcessor, and kept when the body turns out empty (CRS 4 reads it in phase 1).
import { describe, expect, it } from 'vitest';
import { Waf } from '../../../daemon/engine/waf.js';
import { testRegistries } from './helpers/test-registries.js';
import { request } from './helpers/request.js';

const rules = `SecRuleEngine DetectionOnly
SecRequestBodyAccess On
SecRule REQBODY_PROCESSOR "@rx ^" "id:1,phase:1,pass,log,capture,msg:'p1 %{REQBODY_PROCESSOR}'"
SecRule REQUEST_HEADERS:Content-Type "^application/json" "id:2,phase:1,pass,nolog,t:lowercase,ctl:requestBodyProcessor=JSON"
SecRule REQBODY_PROCESSOR "@rx ^" "id:3,phase:1,pass,log,msg:'p1 after ctl %{REQBODY_PROCESSOR}'"
SecRule REQBODY_PROCESSOR "@rx ^" "id:4,phase:2,pass,log,msg:'p2 %{REQBODY_PROCESSOR}'"
SecRule REQBODY_ERROR "!@eq 0" "id:5,phase:2,pass,log,msg:'body error'"`;
const waf = Waf.load([{ text: rules, name: 'inline.conf' }], { registries: testRegistries });

function seen(contentType: string | undefined, body: string): string[] {
  const headers: [string, string][] = [['Host', 'example.test']];
  if (contentType !== undefined) headers.push(['Content-Type', contentType], ['Content-Length', String(body.length)]);
  const tx = waf.newTransaction(request('/', { method: 'POST', headers, body: Buffer.from(body) }));
  tx.processRequest();
  return tx.matches.map((m) => m.msg);
}

describe('REQBODY_PROCESSOR', () => {
  it('is set from the Content-Type before phase 1, as ModSecurity does', () => {
    expect(seen('application/x-www-form-urlencoded', 'a=1')).toEqual(['p1 URLENCODED', 'p1 after ctl URLENCODED', 'p2 URLENCODED']);
    expect(seen('multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--\r\n'))
      .toEqual(['p1 MULTIPART', 'p1 after ctl MULTIPART', 'p2 MULTIPART']);
  });

  it('follows ctl:requestBodyProcessor within phase 1', () => {
    expect(seen('application/json', '{"a":1}')).toEqual(['p1 ', 'p1 after ctl JSON', 'p2 JSON']);
  });

  it('is kept with an empty body, which is no body error', () => {
    expect(seen('application/json', '')).toEqual(['p1 ', 'p1 after ctl JSON', 'p2 JSON']);
    expect(seen('application/x-www-form-urlencoded', '')).toEqual(['p1 URLENCODED', 'p1 after ctl URLENCODED', 'p2 URLENCODED']);
  });

  it('is empty for a body no processor claims', () => {
    expect(seen('text/plain', 'hello')).toEqual(['p1 ', 'p1 after ctl ', 'p2 ']);
    expect(seen(undefined, '')).toEqual(['p1 ', 'p1 after ctl ', 'p2 ']);
  });
});
