// Crash test: a child appends in a loop and prints each acknowledged id; it is killed with
// SIGKILL at a random moment once it has acknowledged a random number of ids (counted, not timed:
// a loaded machine may take longer to get going); the store reopens: every acknowledged id is there
// exactly once, and no torn line remains in any segment.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openJsonlEventStore } from '../../../../daemon/store/events/jsonl-event-store.js';
import { memoryLogger, segmentLines, tempDir } from './helpers.js';

const child = path.join(path.dirname(fileURLToPath(import.meta.url)), 'crash-child.ts');

function runAndKill(dir: string, afterAcks: number, afterMs: number): Promise<{ waf: number[]; access: number[] }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--import', 'tsx', child, dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let timer: NodeJS.Timeout | undefined;
    p.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (!timer && out.includes('ready\n') && out.split('\n').length - 2 >= afterAcks) timer = setTimeout(() => p.kill('SIGKILL'), afterMs);
    });
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    p.on('error', reject);
    p.on('exit', (_code, signal) => {
      if (signal !== 'SIGKILL') return reject(new Error(`child exited by itself: ${err}`));
      const acked = { waf: [] as number[], access: [] as number[] };
      // Only whole lines count: the last one may have been cut by the kill.
      for (const line of out.split('\n').slice(0, -1)) {
        const [kind, id] = line.split(' ');
        if (kind === 'waf' || kind === 'access') acked[kind].push(Number(id));
      }
      resolve(acked);
    });
  });
}

describe('crash safety', () => {
  it('keeps every acknowledged id exactly once after SIGKILL, over several rounds', async () => {
    const dir = tempDir('wafctl-crash-');
    const acked = { waf: new Set<number>(), access: new Set<number>() };
    for (let round = 0; round < 3; round++) {
      const got = await runAndKill(dir, 20 + Math.floor(Math.random() * 200), Math.floor(Math.random() * 300));
      for (const id of got.waf) acked.waf.add(id);
      for (const id of got.access) acked.access.add(id);
      expect(got.waf.length + got.access.length).toBeGreaterThan(0);
      const logger = memoryLogger();
      const s = await openJsonlEventStore({ dir, logger, retentionEveryMs: 0, snapshotEveryMs: 0 });
      // No torn line remains after open.
      for (const f of fs.readdirSync(dir).filter((x) => x.endsWith('.jsonl'))) {
        const text = fs.readFileSync(path.join(dir, f), 'utf8');
        expect(text === '' || text.endsWith('\n')).toBe(true);
      }
      expect(s.stats().invalid_lines).toBe(0);
      for (const kind of ['waf', 'access'] as const) {
        const ids = segmentLines(dir, kind).map((l) => l.id as number);
        const counts = new Map<number, number>();
        for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
        for (const id of acked[kind]) expect(counts.get(id), `${kind} id ${id}`).toBe(1);
        expect([...counts.values()].every((c) => c === 1)).toBe(true);
      }
      // The index agrees with the segments (site 1..3 hold every WAF event).
      let total = 0;
      for (const site of [1, 2, 3]) total += (await s.searchWafLogs({ site_id: site, page: 1, per_page: 10 })).pagination.total;
      expect(total).toBe(segmentLines(dir, 'waf').length);
      await s.close();
    }
    expect(acked.waf.size).toBeGreaterThan(10);
  }, 60_000);
});
