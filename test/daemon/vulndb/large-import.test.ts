// A large synthetic feed, generated into a temp dir, imported with bounded memory.
// The 160-200 MB cases live in bench/vulndb/import.bench.ts (time and peak RSS, with the
// whole-document JSON.parse anchor); here a 40 MB feed keeps the test fast on a shared
// machine while still telling a streaming import from a whole-document one: JSON.parse of the
// whole file needs the file buffer, its string and the object tree, five times the file size
// or more, where the streaming import stays well under twice.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VulnDb } from '../../../daemon/vulndb/vulndb.js';
import { pluginSlug, writeSyntheticFeed } from '../../../bench/vulndb/synthetic-feed.js';
import { withTempDir } from './helpers.js';

const FEED_BYTES = 40 * 1024 * 1024;

describe('large import', () => {
  it('imports a 40 MB synthetic feed with peak RSS growth under twice the file size', async () => {
    await withTempDir(async (dir) => {
      const path = join(dir, 'feed.json');
      const info = await writeSyntheticFeed(path, { targetBytes: FEED_BYTES, seed: 7 });
      const db = await VulnDb.open(join(dir, 'vulndb'));
      const before = process.memoryUsage().rss;
      let peak = before;
      const sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().rss);
      }, 10);
      const started = performance.now();
      try {
        const { status } = await db.import(path);
        expect(status).toMatchObject({ loaded: true, records: info.records, skipped: 0, bytes: info.bytes });
      } finally {
        clearInterval(sampler);
      }
      peak = Math.max(peak, process.memoryUsage().rss);
      const delta = peak - before;
      console.log(
        `vulndb large import: ${(info.bytes / 1e6).toFixed(1)} MB, ${info.records} records in ${(performance.now() - started).toFixed(0)} ms; ` +
          `peak RSS +${(delta / 1e6).toFixed(1)} MB (${(delta / info.bytes).toFixed(2)}x the file)`,
      );
      expect(delta).toBeLessThan(2 * info.bytes);

      const parsed = db.parseCheckRequest({ cms_version: '6.4', plugins: [{ slug: pluginSlug(0), version: '1.0' }] });
      if (!parsed.ok) throw new Error(parsed.message);
      const r = db.check(parsed.request);
      expect(r.plugins[0].vulnerabilities.length).toBeGreaterThan(0); // the most popular slug has records at 1.0
      db.close();
    });
  });
});
