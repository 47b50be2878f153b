// Retention: whole day segments older than the kept window are deleted. The caller runs
// this on the commit chain (no group is writing meanwhile) and then drops the same days
// from the index and the rollups, so all three agree.
import fs from 'node:fs';
import path from 'node:path';
import type { RetentionReport } from '../event-store.js';
import type { EventLogger } from './event-logger.js';
import { EVENT_KINDS, dayName, listSegments } from './segment-names.js';
import { fsyncDirectory, type SegmentFiles } from './segment-files.js';

/** Deletes segments of days before `firstKeptDay`. */
export async function dropOldSegments(dir: string, files: SegmentFiles, firstKeptDay: number, logger: EventLogger): Promise<RetentionReport> {
  const deleted: string[] = [];
  for (const kind of EVENT_KINDS) {
    for (const seg of listSegments(dir, kind)) {
      if (seg.day >= firstKeptDay) continue;
      files.forget(seg.file);
      try {
        await fs.promises.unlink(path.join(dir, seg.file));
        files.committed.delete(seg.file);
        deleted.push(seg.file);
      } catch (err) {
        logger.error('retention could not delete a segment', { file: seg.file, error: (err as Error).message });
      }
    }
  }
  if (deleted.length) {
    await fsyncDirectory(dir);
    logger.info('retention deleted day segments', { files: deleted.length, kept_from: dayName(firstKeptDay) });
  }
  return { deleted, kept_from: dayName(firstKeptDay) };
}
