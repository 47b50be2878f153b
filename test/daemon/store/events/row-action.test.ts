// /waf-logs rows say what the edge did (a detect-mode row must not look like a block),
// only when asked, and the answer survives a restart from the index snapshot and a rebuild from
// the segments alike.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openJsonlEventStore } from '../../../../daemon/store/events/jsonl-event-store.js';
import { memoryLogger, NOW, tempDir, wafEvent } from './helpers.js';

const opts = (dir: string) => ({ dir, clock: () => NOW, logger: memoryLogger(), retentionEveryMs: 0, snapshotEveryMs: 0 });
const REQUEST_ID = '9abeafa8-7907-49ea-bd85-fbc41ceab8df';

async function seeded(): Promise<string> {
  const dir = tempDir();
  const s = await openJsonlEventStore(opts(dir));
  await s.appendWafEvents([
    wafEvent({ uri: '/blocked', action: 'block', request_id: REQUEST_ID }),
    wafEvent({ uri: '/detected', action: 'log' }),
    wafEvent({ uri: '/rate', action: 'block', group: 'rate-limit', rule_id: 'rate-limit' }),
    wafEvent({ uri: '/challenge', action: 'block', group: 'bot', rule_id: 'bot-challenge' }),
    wafEvent({ uri: '/ingested' }), // the ingestion API stores no action
  ]);
  await s.close();
  return dir;
}

const EXPECTED = { '/blocked': 'blocked', '/detected': 'detected', '/rate': 'rate-limited', '/challenge': 'challenged', '/ingested': 'unknown' };

async function actions(dir: string) {
  const s = await openJsonlEventStore(opts(dir));
  try {
    const asked = await s.searchWafLogs({ site_id: 1, page: 1, per_page: 10, with_action: true });
    const plain = await s.searchWafLogs({ site_id: 1, page: 1, per_page: 10 });
    const byRequest = await s.searchWafLogs({ site_id: 1, page: 1, per_page: 10, search: REQUEST_ID, with_action: true });
    return { asked: Object.fromEntries(asked.logs.map((l) => [l.uri, l.action])), plain: plain.logs, byRequest: byRequest.logs, usedSnapshot: s.openReport.waf.usedSnapshot };
  } finally {
    await s.close();
  }
}

describe('the action of a /waf-logs row', () => {
  it('is blocked, detected, rate-limited, challenged or unknown, from the snapshot and from the segments', async () => {
    const dir = await seeded();
    const fromSnapshot = await actions(dir);
    expect(fromSnapshot.usedSnapshot).toBe(true);
    expect(fromSnapshot.asked).toEqual(EXPECTED);
    fs.rmSync(path.join(dir, 'index'), { recursive: true, force: true });
    const rebuilt = await actions(dir);
    expect(rebuilt.usedSnapshot).toBe(false);
    expect(rebuilt.asked).toEqual(EXPECTED);
  });

  it('is left out unless asked, so the rows stay those of spec 2.4', async () => {
    const { plain, byRequest } = await actions(await seeded());
    expect(plain).toHaveLength(5);
    for (const row of plain) expect(Object.keys(row).sort()).toEqual(['client_ip', 'event_timestamp', 'group', 'host', 'id', 'uri', 'waf_rule_id']);
    // A request-id search reads the segment instead of the index: same field, same answer.
    expect(byRequest.map((l) => [l.uri, l.action])).toEqual([['/blocked', 'blocked']]);
  });
});
