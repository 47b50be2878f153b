// The cluster's advisory locks share one id space per database: two features with the same id
// would block each other (the secrets table's lock once had the events snapshot's id).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ADVISORY_LOCKS } from '../../../daemon/cluster/advisory-locks.js';

const CLUSTER_DIR = join(import.meta.dirname, '..', '..', '..', 'daemon', 'cluster');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

describe('advisory locks', () => {
  it('have one id each', () => {
    const ids = Object.values(ADVISORY_LOCKS);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('are taken only by name from the table, never by a number written elsewhere', () => {
    const offenders = sources(CLUSTER_DIR)
      .filter((file) => !file.endsWith('advisory-locks.ts'))
      .filter((file) => /advisory_\w*lock\w*\(\$1\)[^\n]*?['"`], \[(?!ADVISORY_LOCKS\.)/.test(readFileSync(file, 'utf8')));
    expect(offenders).toEqual([]);
  });
});
