// The parts of `rules exclude` that need no daemon: which rules and targets a request's events
// give, the SecLang block and finding it again, and the request rebuilt from the stored parts.
// The whole path (real daemon, edge, CRS, CLI) is test/e2e/rules-exclude.test.ts.
import { describe, expect, it } from 'vitest';
import type { StoredWafEvent } from '../../../shared/schemas/events.js';
import { narrowTarget, planExclusion, requestPath } from '../../../daemon/rule-sets/exclusion/exclusion-plan.js';
import { appendExclusion, findExclusion, freeIds, removeExclusion, renderExclusion } from '../../../daemon/rule-sets/exclusion/exclusion-text.js';
import { loggedValue, replayRequest } from '../../../daemon/rule-sets/exclusion/replay-request.js';

const RID = '9abeafa8-7907-49ea-bd85-fbc41ceab8df';

function event(id: number, ruleId: string, matchedVar: string | undefined, extra: Partial<StoredWafEvent> = {}): StoredWafEvent {
  return {
    id, site_id: 1, timestamp_ms: 0, host: 'blog.test', client_ip: '203.0.113.9', uri: '/wp-admin/post.php?action=edit&post=7',
    method: 'POST', waf_file: 'REQUEST-942-APPLICATION-ATTACK-SQLI.conf', rule_id: ruleId, severity: 'CRITICAL', msg: 'm',
    group: 'crs', request_id: RID, action: 'log', user_agent: 'Mozilla/5.0',
    matched_var: matchedVar, matched_data: matchedVar ? `Matched Data: union select found within ${matchedVar}: union select 1` : undefined,
    ...extra,
  };
}

const blockedRequest = [
  event(1, '942190', 'ARGS:post_content'),
  event(2, '942270', 'ARGS:post_content'),
  event(3, '920000', 'REQUEST_HEADERS:X-Weird,Name'),
  event(4, '949110', 'TX:anomaly_score', { action: 'block', matched_data: undefined }),
];

describe('planExclusion', () => {
  it('names every scoring rule with its variable, not the blocking evaluation, and narrows only plain names', () => {
    const plan = planExclusion(blockedRequest, RID);
    expect(plan).toMatchObject({ requestId: RID, eventIds: [1, 2, 3, 4], path: '/wp-admin/post.php' });
    expect(plan.targets).toEqual([
      { rule_id: '942190', target: 'ARGS:post_content', matched_var: 'ARGS:post_content' },
      { rule_id: '942270', target: 'ARGS:post_content', matched_var: 'ARGS:post_content' },
      { rule_id: '920000', target: null, matched_var: 'REQUEST_HEADERS:X-Weird,Name' },
    ]);
    expect(plan.warnings).toEqual([expect.stringMatching(/^rule 920000 matched REQUEST_HEADERS:X-Weird,Name, which cannot be narrowed .* whole rule is removed on \/wp-admin\/post\.php$/)]);
  });

  it('refuses a rate-limited request and an ingested event, with not_excludable', () => {
    const limited = [event(5, 'rate-limit', undefined, { group: 'rate-limit', action: 'block' })];
    expect(() => planExclusion(limited, '5')).toThrow(expect.objectContaining({ code: 'not_excludable', message: expect.stringMatching(/was rate-limited/) }));
    const ingested = [event(6, '942100', 'ARGS:q', { request_id: undefined, action: undefined })];
    expect(() => planExclusion(ingested, '6')).toThrow(expect.objectContaining({ code: 'not_excludable', message: expect.stringMatching(/ingested through the API/) }));
  });

  it('refuses a path that cannot be an operand as it is', () => {
    const quoted = blockedRequest.map((e) => ({ ...e, uri: '/a"b?x=1' }));
    expect(() => planExclusion(quoted, RID)).toThrow(expect.objectContaining({ code: 'not_excludable' }));
    const backslash = blockedRequest.map((e) => ({ ...e, uri: '/a\\b' }));
    expect(() => planExclusion(backslash, RID)).toThrow(expect.objectContaining({ code: 'not_excludable' }));
    const macro = blockedRequest.map((e) => ({ ...e, uri: '/a%{tx.x}' }));
    expect(() => planExclusion(macro, RID)).toThrow(expect.objectContaining({ code: 'not_excludable' }));
  });

  it('narrowTarget and requestPath', () => {
    expect(narrowTarget('REQUEST_COOKIES:wp_session')).toBe('REQUEST_COOKIES:wp_session');
    expect(narrowTarget('REQUEST_BODY')).toBeNull();
    expect(narrowTarget('TX:anomaly_score')).toBeNull();
    expect(narrowTarget('ARGS:a b')).toBeNull();
    expect(requestPath('http://blog.test/x/y.php?z=1#f')).toBe('/x/y.php');
    expect(requestPath('/p%20q/?a')).toBe('/p%20q/');
  });
});

describe('the SecLang block', () => {
  const plan = planExclusion(blockedRequest, RID);

  it('one rule per (rule, variable) with free reserved ids, found again by request id or event id, and removed cleanly', () => {
    const user = 'SecRule ARGS "@rx x" "id:100100,phase:2,pass,nolog"\n';
    const ids = freeIds(user, plan.targets.length)!;
    expect(ids).toEqual([100101, 100102, 100103]);
    const block = renderExclusion(plan, ids, '2026-11-27T07:33:34.000Z');
    expect(block.split('\n')).toEqual([
      `# wafctl rules exclude: request ${RID} (events 1,2,3,4), 2026-11-27T07:33:34.000Z`,
      'SecRule REQUEST_FILENAME "@streq /wp-admin/post.php" "id:100101,phase:1,pass,nolog,ctl:ruleRemoveTargetById=942190;ARGS:post_content"',
      'SecRule REQUEST_FILENAME "@streq /wp-admin/post.php" "id:100102,phase:1,pass,nolog,ctl:ruleRemoveTargetById=942270;ARGS:post_content"',
      'SecRule REQUEST_FILENAME "@streq /wp-admin/post.php" "id:100103,phase:1,pass,nolog,ctl:ruleRemoveById=920000"',
      '',
    ]);
    const text = appendExclusion(user, block);
    expect(findExclusion(text, '3')).not.toBeNull();
    expect(findExclusion(text, '33')).toBeNull();
    const found = findExclusion(text, RID.toUpperCase())!;
    expect(found.requestId).toBe(RID);
    const { text: after, removed } = removeExclusion(text, found);
    expect(after).toBe(user);
    expect(removed).toBe(block);
  });
});

describe('the replay request', () => {
  it('puts each logged value back where it came from; query arguments stay in the URI', () => {
    const events = [
      event(1, '942190', 'ARGS:post_content'),
      event(2, '942100', 'ARGS:action'),
      event(3, '941100', 'REQUEST_COOKIES:wp_pref'),
      event(4, '913100', 'REQUEST_HEADERS:User-Agent'),
    ];
    const r = replayRequest(events);
    expect(r).toMatchObject({ method: 'POST', uri: '/wp-admin/post.php?action=edit&post=7' });
    expect(r.body!.toString()).toBe('post_content=union%20select%201');
    expect(r.headers).toEqual(expect.arrayContaining([
      ['Host', 'blog.test'], ['User-Agent', 'union select 1'], ['Cookie', 'wp_pref=union select 1'],
      ['Content-Type', 'application/x-www-form-urlencoded'],
    ]));
  });

  it('loggedValue reads CRS log data, and nothing from another format', () => {
    expect(loggedValue({ matched_var: 'ARGS:a', matched_data: 'Matched Data: x found within ARGS:a: a: b x' })).toBe('a: b x');
    expect(loggedValue({ matched_var: 'ARGS:a', matched_data: 'something else' })).toBeNull();
  });
});
