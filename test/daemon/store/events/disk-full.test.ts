// A real full disk: a small tmpfs mounted for the test (needs root and mount rights; where
// they are missing the test is skipped with that reason, and jsonl-event-store.test.ts still
// covers write faults by injection).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EventStoreError } from '../../../../daemon/store/event-store.js';
import { openJsonlEventStore } from '../../../../daemon/store/events/jsonl-event-store.js';
import { memoryLogger, NOW, segmentLines, tempDir, wafEvent } from './helpers.js';

const mountPoint = tempDir('wafctl-full-');
let mounted = false;
try {
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', mountPoint], { stdio: 'ignore' });
  mounted = true;
} catch {
  mounted = false;
}
afterAll(() => {
  if (mounted) execFileSync('umount', [mountPoint]);
});

describe('disk full', () => {
  it.skipIf(!mounted)('rejects appends with ENOSPC, keeps what was acknowledged, serves on', async () => {
    const dir = path.join(mountPoint, 'events');
    const logger = memoryLogger();
    const s = await openJsonlEventStore({ dir, clock: () => NOW, logger, retentionEveryMs: 0, snapshotEveryMs: 0 });
    const acked: number[] = [];
    let failure: unknown = null;
    for (let i = 0; i < 200 && !failure; i++) {
      try {
        acked.push(...(await s.appendWafEvents(Array.from({ length: 10 }, (_, j) => wafEvent({ uri: `/${i}/${j}/${'x'.repeat(200)}` })))));
      } catch (err) {
        failure = err;
      }
    }
    expect(failure).toBeInstanceOf(EventStoreError);
    expect(String((failure as Error).message)).toMatch(/ENOSPC/);
    // Exactly the acknowledged entries are on disk and in the index.
    expect(segmentLines(dir, 'waf').map((l) => l.id)).toEqual(acked);
    const page = await s.searchWafLogs({ site_id: 1, page: 1, per_page: 10 });
    expect(page.pagination.total).toBe(acked.length);
    // Space comes back: appends work again.
    const file = path.join(dir, fs.readdirSync(dir).find((f) => f.startsWith('waf-'))!);
    await s.close().catch(() => undefined);
    fs.rmSync(file);
    const s2 = await openJsonlEventStore({ dir, clock: () => NOW, logger, retentionEveryMs: 0, snapshotEveryMs: 0 });
    const [id] = await s2.appendWafEvents([wafEvent()]);
    expect(id).toBeGreaterThan(acked[acked.length - 1]);
    await s2.close();
  });
});
