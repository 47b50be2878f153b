// The tags of `logs show`: events stored before the edge kept tags (and ingested ones) still read,
// with an empty list; a hand-edited line's junk in `tags` is dropped, not passed on.
import { describe, expect, it } from 'vitest';
import type { StoredWafEvent } from '../../../../shared/schemas/events.js';
import { WafRequestDetailSchema } from '../../../../shared/schemas/waf-request.js';
import { requestDetail } from '../../../../daemon/api/v1/waf-request-detail.js';

function stored(id: number, extra: Record<string, unknown>): StoredWafEvent {
  return {
    id, site_id: 1, timestamp_ms: Date.UTC(2026, 10, 22), host: 'shop.example.test', client_ip: '203.0.113.7', uri: '/?q=x',
    method: 'GET', waf_file: 'REQUEST-941-APPLICATION-ATTACK-XSS.conf', rule_id: '941100', severity: 'CRITICAL',
    msg: 'XSS Attack Detected via libinjection', group: 'crs', request_id: '9abeafa8-7907-49ea-bd85-fbc41ceab8df', action: 'block',
    ...extra,
  } as StoredWafEvent;
}

describe('the tags of a rule in GET /waf-logs/{id}', () => {
  it('keeps stored tags, gives [] for an event stored without them, and drops what is not a string', () => {
    const detail = requestDetail([
      stored(1, { tags: ['attack-xss', 'paranoia-level/1'] }),
      stored(2, {}),
      stored(3, { tags: ['attack-xss', 7, { x: 1 }] }),
      stored(4, { tags: 'attack-xss' }),
    ], 403, 5);
    expect(detail.rules.map((r) => r.tags)).toEqual([['attack-xss', 'paranoia-level/1'], [], ['attack-xss'], []]);
    expect(WafRequestDetailSchema.parse(detail)).toEqual(detail);
  });
});
