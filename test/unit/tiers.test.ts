// The unit tier (test/tiers.ts) is what the other tiers leave, so a new test that starts a daemon or
// an edge on a socket lands there unless someone lists it. This keeps the line test/README.md draws:
// a unit-tier file that reaches for a daemon, a listening edge, a child process or nginx fails here,
// naming the file to add to SYSTEM.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL, CONFORMANCE, RELIABILITY, SYSTEM } from '../tiers.js';

const OUT_OF_UNIT = /\bstartEdge\(|daemon-harness|\bspawn\(|\bexecFile\(|startNginx|nginx-modsecurity|\bfork\(/;

/** Every file under test/, as the tier globs name them (`test/...`). */
function testFiles(dir = 'test'): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? testFiles(join(dir, e.name)) : [join(dir, e.name)]));
}

/** The tier globs are `dir/**\/*.test.ts(x)` or one file's path (node 20 has no fs.globSync). */
function matches(file: string, glob: string): boolean {
  const star = glob.indexOf('**/');
  if (star < 0) return file === glob;
  return file.startsWith(glob.slice(0, star)) && file.endsWith(glob.slice(glob.lastIndexOf('*') + 1));
}

function files(globs: string[]): Set<string> {
  return new Set(testFiles().filter((f) => globs.some((g) => matches(f, g))));
}

describe('test tiers', () => {
  it('no unit-tier file starts a daemon, an edge on a socket, a child process or nginx', () => {
    const elsewhere = files([...CONFORMANCE, ...RELIABILITY, ...SYSTEM]);
    const unit = [...files(ALL)].filter((f) => !elsewhere.has(f) && f !== 'test/unit/tiers.test.ts');
    expect(unit.length).toBeGreaterThan(100);
    const crossing = unit.filter((f) => OUT_OF_UNIT.test(readFileSync(f, 'utf8')));
    expect(crossing, 'add these to SYSTEM in test/tiers.ts').toEqual([]);
  });
});
