// The spool's disk warning: once when the disk passes 80 % while entries wait, once when it is
// back under, nothing while caught up or in between; a directory that cannot be looked at is quiet.
import { pino, type Logger } from 'pino';
import { describe, expect, it } from 'vitest';
import { watchSpool } from '../../../daemon/cluster/events/spool-watch.js';

function recorder(): { logger: Logger; lines: Array<{ level: number; msg: string }> } {
  const lines: Array<{ level: number; msg: string }> = [];
  const logger: Logger = pino({ level: 'info' }, { write: (text: string) => { const r = JSON.parse(text) as { level: number; msg: string }; lines.push({ level: r.level, msg: r.msg }); } });
  return { logger, lines };
}

describe('watchSpool', () => {
  it('warns once over 80 % with a backlog, says once when under again', async () => {
    const { logger, lines } = recorder();
    let behind = false;
    let used = 0.5;
    const watch = watchSpool({ dir: '/spool', behind: () => behind, logger, everyMs: 3_600_000, usedFraction: async () => used });
    try {
      used = 0.95;
      await watch.check(); // caught up: nothing to say, however full
      expect(lines).toEqual([]);
      behind = true;
      await watch.check();
      await watch.check();
      expect(lines).toEqual([{ level: 40, msg: expect.stringContaining('over 80 %') }]);
      used = 0.79;
      await watch.check();
      await watch.check();
      expect(lines).toHaveLength(2);
      expect(lines[1]).toEqual({ level: 30, msg: expect.stringContaining('under 80 % again') });
    } finally {
      watch.stop();
    }
  });

  it('stays quiet when the disk cannot be looked at', async () => {
    const { logger, lines } = recorder();
    const watch = watchSpool({ dir: '/nowhere', behind: () => true, logger, everyMs: 3_600_000, usedFraction: async () => { throw new Error('ENOENT'); } });
    await watch.check();
    watch.stop();
    expect(lines).toEqual([]);
  });
});
