// Bodies built to hold the worker (security review M2: 200,000 tiny multipart parts held it 1.7 s) end
// at a limit, through the daemon's own rule set (base settings + CRS 3.3.4 at paranoia 1): refused,
// with the error ModSecurity would set, and the body processor stopped early. Nothing here asserts
// a duration: `stoppedAt` (where the processor stopped reading) says how much was parsed.
import { beforeAll, describe, expect, it } from 'vitest';
import { Waf } from '../../../daemon/engine/waf.js';
import { defaultRegistries } from '../../../daemon/engine/default-registries.js';
import type { EngineRequest } from '../../../daemon/engine/request/model.js';
import { EngineBudgetExceeded } from '../../../daemon/engine/budget/time-budget.js';
import { warmUp } from '../../../daemon/engine/budget/warm-up.js';
import { ARGUMENT_LIMIT_MESSAGE } from '../../../daemon/engine/body-processors/argument-list.js';
import { compileRuleSet, findCrs } from '../../../daemon/rule-sets/rule-set-builder.js';
import { defaultRuleSettings, ruleSettings } from '../../../daemon/rule-sets/rule-settings.js';
import { crsInstalled } from '../../crs/ci-waf.js';

const base = { remoteAddr: '203.0.113.9', remotePort: 50000, serverAddr: '10.0.0.1', serverPort: 80, protocol: 'HTTP/1.1', method: 'POST', uri: '/form' };
function post(contentType: string, body: string): EngineRequest {
  return {
    ...base,
    headers: [['Host', 'shop.example.com'], ['User-Agent', 'Mozilla/5.0'], ['Accept', 'text/html'], ['Content-Type', contentType], ['Content-Length', String(body.length)]],
    body: Buffer.from(body, 'latin1'),
  };
}

const B = 'xYzBoundary';
const MP = `multipart/form-data; boundary=${B}`;
function fieldParts(count: number): string {
  const parts: string[] = [];
  for (let i = 0; i < count; i++) parts.push(`--${B}\r\nContent-Disposition: form-data; name="a${i % 10}"\r\n\r\nx\r\n`);
  return parts.join('') + `--${B}--\r\n`;
}
function fileParts(count: number): string {
  const parts: string[] = [];
  for (let i = 0; i < count; i++) parts.push(`--${B}\r\nContent-Disposition: form-data; name=f; filename=x\r\n\r\n\r\n`);
  return parts.join('') + `--${B}--\r\n`;
}
const repeat = (count: number, item: (i: number) => string) => Array.from({ length: count }, (_, i) => item(i));

describe.skipIf(!crsInstalled())('request body limits with the daemon\'s rule set (CRS 3.3.4, paranoia 1)', () => {
  let waf: Waf;
  /** The same, with SecRequestBodyNoFilesLimit raised to 12.5 MiB (an operator's "before" file),
   *  so that bodies of every type are big enough to reach the other limits. */
  let raised: Waf;
  beforeAll(() => {
    const crs = findCrs('/usr/share/modsecurity-crs');
    waf = compileRuleSet(defaultRuleSettings(1), crs);
    raised = compileRuleSet(ruleSettings({
      ...defaultRuleSettings(1), before: { name: '/test/raise-no-files-limit.conf', text: 'SecRequestBodyNoFilesLimit 13107200\n' },
    }), crs);
    warmUp(waf);
    warmUp(raised);
  });

  function run(on: Waf, request: EngineRequest) {
    const tx = on.newTransaction(request);
    const interruption = tx.processRequest();
    return { tx, interruption, ids: tx.matches.map((m) => m.id), msg: tx.body.error };
  }

  it('the review\'s body: 200,000 tiny multipart fields (~11 MiB) stop at the 1,001st part, refused by 200002', () => {
    const body = fieldParts(200_000);
    expect(body.length).toBeGreaterThan(11 * 1024 * 1024);
    const { tx, interruption, ids, msg } = run(waf, post(MP, body));
    expect(interruption).toMatchObject({ action: 'deny', ruleId: 200002 });
    expect(ids).toContain(200002);
    expect(msg).toBe(ARGUMENT_LIMIT_MESSAGE);
    expect(tx.body.multipartFlags.get('MULTIPART_STRICT_ERROR')).toBe(1);
    expect(tx.body.argsPost.entries).toHaveLength(1000);
    expect(tx.body.multipart!.partHeaders).toHaveLength(1000);
    expect(tx.body.stoppedAt).toBe(fieldParts(1000).length - `--${B}--\r\n`.length);
  });

  it('file parts count too: 170,000 empty file parts (~12 MiB) stop at the 1,001st', () => {
    const body = fileParts(170_000);
    expect(body.length).toBeLessThan(12_500_000);
    const { tx, interruption, msg } = run(waf, post(MP, body));
    expect(interruption).toMatchObject({ action: 'deny', ruleId: 200002 });
    expect(msg).toBe(ARGUMENT_LIMIT_MESSAGE);
    expect(tx.body.files.entries).toHaveLength(1000);
    expect(tx.body.stoppedAt).toBeLessThan(body.length / 100);
  });

  it('the query\'s arguments count: 990 in the query leave 10 for the body', () => {
    const request = post(MP, fieldParts(11));
    request.uri = '/form?' + repeat(990, (i) => `q${i}=1`).join('&');
    const { interruption, msg, tx } = run(waf, request);
    expect(interruption).toMatchObject({ ruleId: 200002 });
    expect(msg).toBe(ARGUMENT_LIMIT_MESSAGE);
    expect(tx.body.argsPost.entries).toHaveLength(10);
    expect(run(waf, { ...request, body: Buffer.from(fieldParts(10), 'latin1') }).msg).toBeUndefined();
  });

  it('an operator\'s SecArgumentsLimit (wafctl rules set --before) lets a bigger form through', () => {
    const more = compileRuleSet(ruleSettings({ ...defaultRuleSettings(1), before: { name: '/test/args.conf', text: 'SecArgumentsLimit 2000\n' } }), findCrs('/usr/share/modsecurity-crs'));
    const { tx, interruption, msg } = run(more, post(MP, fieldParts(1500)));
    expect(msg).toBeUndefined();
    expect(interruption).toBeNull();
    expect(tx.body.argsPost.entries).toHaveLength(1500);
  });

  it('part headers and field values count against SecRequestBodyNoFilesLimit (128 KiB) as in ModSecurity: 413', () => {
    const body = `--${B}\r\nContent-Disposition: form-data; name="text"\r\n\r\n${'v'.repeat(200_000)}\r\n--${B}--\r\n`;
    const { tx, interruption } = run(waf, post(MP, body));
    expect(interruption).toEqual({
      action: 'deny', status: 413, ruleId: 0, phase: 2,
      msg: 'Request body no files data length is larger than the configured limit (131072).',
    });
    expect(tx.inboundDataError).toBe(true);
    // A file of the same size is not field data: it passes.
    const file = body.replace('name="text"', 'name="f"; filename="a.txt"');
    expect(run(waf, post(MP, file)).interruption).toBeNull();
  });

  it('urlencoded: 200,000 arguments stop at the 1,001st, refused by 200002', () => {
    const body = repeat(200_000, (i) => `a${i}=1`).join('&');
    const { tx, interruption, msg } = run(raised, post('application/x-www-form-urlencoded', body));
    expect(interruption).toMatchObject({ action: 'deny', ruleId: 200002 });
    expect(msg).toBe(ARGUMENT_LIMIT_MESSAGE);
    expect(tx.body.argsPost.entries).toHaveLength(1000);
    expect(tx.body.stoppedAt).toBe(repeat(1000, (i) => `a${i}=1&`).join('').length);
    // Under the daemon's own 128 KiB limit the same body is refused before any parsing.
    expect(run(waf, post('application/x-www-form-urlencoded', body)).interruption).toMatchObject({ status: 413, ruleId: 0 });
  });

  it('JSON: 200,000 keys stop at the 1,001st, refused by 200002', () => {
    const body = '{' + repeat(200_000, (i) => `"k${i}":1`).join(',') + '}';
    const { tx, interruption, msg } = run(raised, post('application/json', body));
    expect(interruption).toMatchObject({ action: 'deny', ruleId: 200002 });
    expect(msg).toBe(`JSON parsing error: ${ARGUMENT_LIMIT_MESSAGE}`);
    expect(tx.body.argsPost.entries).toHaveLength(1000);
    expect(tx.body.stoppedAt).toBeLessThan(body.length / 100);
  });

  it.each([
    ['arrays', '['.repeat(200_000) + ']'.repeat(200_000)],
    ['objects', '{"a":'.repeat(200_000) + '1' + '}'.repeat(200_000)],
  ])('JSON nested 200,000 deep (%s) stops at SecRequestBodyJsonDepthLimit 512, refused by 200002', (_kind, body) => {
    const { tx, interruption, msg } = run(raised, post('application/json', body));
    expect(interruption).toMatchObject({ action: 'deny', ruleId: 200002 });
    expect(msg).toBe('JSON parsing error: JSON depth limit exceeded');
    expect(tx.body.stoppedAt).toBeLessThanOrEqual(514 * '{"a":'.length); // ~512 levels read of 200,000
  });

  it('XML nested 200,000 deep stops at libxml2\'s 256 levels, refused by 200002', () => {
    const body = '<a>'.repeat(200_000) + 'x' + '</a>'.repeat(200_000);
    const { interruption, msg } = run(raised, post('text/xml', body));
    expect(interruption).toMatchObject({ action: 'deny', ruleId: 200002 });
    expect(msg).toBe(`XML parser error: Excessive depth in document: 256 use XML_PARSE_HUGE option at offset ${256 * 3 + 1}`);
  });

  it('XML with 200,000 elements is over the daemon\'s 128 KiB limit: 413 before parsing', () => {
    const body = '<r>' + '<e a="1">x</e>'.repeat(200_000) + '</r>';
    expect(run(waf, post('text/xml', body)).interruption).toMatchObject({ status: 413, ruleId: 0 });
  });

  it('the base rules keep ModSecurity\'s ids, so an exclusion written for ModSecurity reaches them', () => {
    const broken = post('application/json', '{"a":');
    expect(run(waf, broken).interruption).toMatchObject({ action: 'deny', ruleId: 200002 });
    const excluded = compileRuleSet(ruleSettings({
      ...defaultRuleSettings(1), after: { name: '/test/modsecurity-style-exclusion.conf', text: 'SecRuleRemoveById 200002\n' },
    }), findCrs('/usr/share/modsecurity-crs'));
    const { interruption, ids } = run(excluded, broken);
    expect(ids).not.toContain(200002);
    expect(interruption?.ruleId).not.toBe(200002);
  });

  it('XML text is kept once, not per nesting level: 255 levels with 100,000 text pieces inside', () => {
    // Each level used to copy its descendants' text (255 x 100,000 pieces); XML:/* is the whole text.
    const body = '<a>'.repeat(255) + 'x<!---->'.repeat(100_000) + '</a>'.repeat(255);
    const { tx, interruption } = run(raised, post('text/xml', body));
    expect(interruption).toBeNull();
    expect(tx.body.xml!.select('/*')).toEqual(['x'.repeat(100_000)]);
  });

  it('a parse past the time budget stops inside the body processor (EngineBudgetExceeded, no rule named)', () => {
    // 11 MiB of lines that all look almost like the boundary: the parser's slowest shape (each line
    // is checked), tens of ms of CPU on any machine; a 1 ms budget ends it in the parse.
    const body = `--${B}\r\nContent-Disposition: form-data; name="f"; filename="a"\r\n\r\n${`--${B.slice(0, -1)}\n`.repeat(900_000)}\r\n--${B}--\r\n`;
    const tx = waf.newTransaction(post(MP, body));
    expect(tx.processRequestHeaders()).toBeNull();
    tx.setTimeBudget(1);
    let err: unknown;
    try { tx.processRequestBody(); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(EngineBudgetExceeded);
    expect((err as EngineBudgetExceeded).phase).toBe(2);
    expect((err as EngineBudgetExceeded).ruleId).toBeUndefined();
    expect(tx.body.processor).toBe(''); // the body never reached the rules
  });
});

describe('SecRequestBodyNoFilesLimit on multipart with ProcessPartial', () => {
  it('keeps what was read, with INBOUND_DATA_ERROR and the body in error (no 413)', () => {
    const waf = Waf.load([{ text: [
      'SecRuleEngine On', 'SecRequestBodyAccess On', 'SecRequestBodyNoFilesLimit 150', 'SecRequestBodyLimitAction ProcessPartial',
      'SecRule REQBODY_ERROR "!@eq 0" "id:1,phase:2,deny,status:400,log,msg:\'body error\'"',
    ].join('\n'), name: '<partial>' }], { registries: defaultRegistries });
    const tx = waf.newTransaction(post(MP, fieldParts(10)));
    expect(tx.processRequest()).toMatchObject({ status: 400, ruleId: 1 });
    expect(tx.inboundDataError).toBe(true);
    expect(tx.body.error).toBe('Request body no files data length is larger than the configured limit (150).');
    expect(tx.body.argsPost.entries.length).toBeGreaterThan(0);
  });
});
