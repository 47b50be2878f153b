// Over-limit request bodies through a real edge (real sockets, a real origin, the daemon's rule set:
// base settings + CRS 3.3.4 at paranoia 1, the daemon's 40 ms time budget): refused with the site's
// block page, never forwarded, and logged as a WAF event (security review M2). The limits themselves are
// in test/daemon/engine/body-limits-crs.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngineInspector } from '../../../../daemon/rule-sets/engine-inspector.js';
import { RuleGroups, findCrs } from '../../../../daemon/rule-sets/rule-groups.js';
import { defaultRuleSettings } from '../../../../daemon/rule-sets/rule-settings.js';
import { request, startEdge, type RunningEdge } from '../helpers.js';
import { startRecordingOrigin, type RecordingOrigin } from './raw-client.js';
import { crsInstalled } from '../../../crs/ci-waf.js';

const B = 'xYzBoundary';
const fields = (count: number, value = 'x') =>
  Array.from({ length: count }, (_, i) => `--${B}\r\nContent-Disposition: form-data; name="a${i % 10}"\r\n\r\n${value}\r\n`).join('') + `--${B}--\r\n`;

describe.skipIf(!crsInstalled())('over-limit bodies at the edge', () => {
  let origin: RecordingOrigin;
  let edge: RunningEdge;
  beforeAll(async () => {
    origin = await startRecordingOrigin();
    const groups = new RuleGroups(findCrs('/usr/share/modsecurity-crs'), { prepareAnnounced: false });
    groups.forParanoia(1); // compiled before the first request, as the daemon's warm-up does
    edge = await startEdge([
      { id: 1, domain: 'shop.test', origin: origin.url },
      { id: 2, domain: 'watch.test', origin: origin.url, waf: { mode: 'detect', paranoia: 1 } },
    ], { inspector: createEngineInspector(groups, { timeBudgetMs: 40 }) });
  });
  afterAll(async () => { await edge.close(); await origin.close(); });

  const post = (host: string, path: string, body: string) => request({
    port: edge.port, host, method: 'POST', path, body: Buffer.from(body, 'latin1'),
    headers: { 'content-type': `multipart/form-data; boundary=${B}`, 'user-agent': 'Mozilla/5.0', accept: 'text/html' },
  });
  const eventsOf = (id: unknown) => edge.sink.wafEvents.filter((e) => e.request_id === id);
  const reached = (path: string) => origin.heads.filter((h) => h.url === path);

  it('a multipart body of 1,500 parts (over SecArgumentsLimit): 403, not forwarded, event 200002', async () => {
    const r = await post('shop.test', '/many', fields(1500));
    expect(r.status).toBe(403);
    expect(reached('/many')).toEqual([]);
    expect(eventsOf(r.headers['x-request-id'])).toContainEqual(expect.objectContaining({
      rule_id: '200002', action: 'block', msg: 'Failed to parse request body.',
    }));
  });

  it('the review\'s body (200,000 tiny parts, ~11 MiB): 403, not forwarded, an event', async () => {
    const r = await post('shop.test', '/review', fields(200_000));
    expect(r.status).toBe(403);
    expect(reached('/review')).toEqual([]);
    // The parse stops at the 1,001st part and the rules refuse (200002); should a GC pause push the
    // request's CPU time past the budget first, the budget refuses it: refused either way.
    const blocks = eventsOf(r.headers['x-request-id']).filter((e) => e.action === 'block');
    expect(blocks.map((e) => e.rule_id).filter((id) => id === '200002' || id === 'engine-budget')).toHaveLength(1);
  });

  it('field data over SecRequestBodyNoFilesLimit: 403, not forwarded, a body-limit event with ModSecurity\'s message', async () => {
    const r = await post('shop.test', '/text', fields(1, 'v'.repeat(200_000)));
    expect(r.status).toBe(403);
    expect(reached('/text')).toEqual([]);
    expect(eventsOf(r.headers['x-request-id'])).toEqual([expect.objectContaining({
      rule_id: 'body-limit', group: 'edge', action: 'block', severity: 'CRITICAL',
      msg: 'Request body no files data length is larger than the configured limit (131072).',
    })]);
  });

  it('a 1 MiB file upload with a few fields passes and reaches the origin whole', async () => {
    const body = `--${B}\r\nContent-Disposition: form-data; name="title"\r\n\r\nholiday\r\n`
      + `--${B}\r\nContent-Disposition: form-data; name="photo"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n${'\xff\xd8'.repeat(512 * 1024)}\r\n--${B}--\r\n`;
    const r = await post('shop.test', '/upload', body);
    expect(r.status).toBe(200);
    expect(origin.complete.find((c) => c.url === '/upload')?.body.length).toBe(body.length);
  });

  it('a site in detect mode forwards it, with the event as a log', async () => {
    const r = await post('watch.test', '/watched', fields(1500));
    expect(r.status).toBe(200);
    expect(reached('/watched')).toHaveLength(1);
    expect(eventsOf(r.headers['x-request-id'])).toContainEqual(expect.objectContaining({ rule_id: '200002', action: 'log' }));
  });
});
