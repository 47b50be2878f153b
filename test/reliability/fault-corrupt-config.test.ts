// A corrupt config.json, in the shapes a crash, a full disk or a careless edit leave: the daemon
// refuses to start with a reason naming the file, and the file is left byte-for-byte (and mtime)
// untouched. One clean start first, so the data dir is otherwise real. (test/e2e/foundation.test.ts
// covers one broken-JSON case through the CLI; this runs the process on each shape.)
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonFlags, startDaemon, startFailure } from './support/daemon-process.js';

const home = mkdtempSync(join(tmpdir(), 'wafctl-corrupt-'));
const configFile = join(home, 'data', 'config.json');
let good: string;

beforeAll(async () => {
  const d = await startDaemon(daemonFlags(home));
  await d.stop();
  good = await readFile(configFile, 'utf8');
}, 120_000);
afterAll(() => rmSync(home, { recursive: true, force: true }));

const SHAPES: Array<[string, (good: string) => string | Buffer, RegExp]> = [
  ['truncated mid-write', (g) => g.slice(0, Math.floor(g.length / 2)), /not valid JSON/],
  ['empty file', () => '', /not valid JSON/],
  ['binary garbage', () => Buffer.from([0x00, 0xff, 0x7b, 0x13, 0x37]), /not valid JSON/],
  ['valid JSON, not an object', () => '[1, 2, 3]\n', /invalid/],
  ['a field of the wrong type', (g) => g.replace(/"sites": \[/, '"sites": "many", "x": ['), /invalid/],
  ['a version from the future', (g) => g.replace(/"schema_version": \d+/, '"schema_version": 999'), /newer wafctl/],
];

describe('a corrupt config.json', () => {
  it.each(SHAPES)('%s: the daemon refuses to start, names the file, leaves it untouched', async (_name, corrupt, reason) => {
    const bytes = corrupt(good);
    expect(Buffer.from(bytes).equals(Buffer.from(good)), 'the corruption changed the file').toBe(false);
    await writeFile(configFile, bytes, { mode: 0o600 });
    const before = await stat(configFile);
    const failure = await startFailure(daemonFlags(home));
    expect(failure, 'the daemon must not start on a corrupt config.json').not.toBeNull();
    expect(failure).toContain(configFile);
    expect(failure).toMatch(reason);
    expect(Buffer.compare(await readFile(configFile), Buffer.from(bytes))).toBe(0);
    expect((await stat(configFile)).mtimeMs).toBe(before.mtimeMs);
  }, 60_000);

  it('starts again once the good file is back', async () => {
    await writeFile(configFile, good, { mode: 0o600 });
    const d = await startDaemon(daemonFlags(home));
    await d.stop();
  }, 60_000);
});
