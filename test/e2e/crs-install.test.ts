// `wafctl crs install|list|use|remove` as a real process against real archives: built from
// ../shared/crs4, signed with keys made here, served by a real local HTTP server that also answers
// GitHub's releases API. Every refusal must leave the data dir as it was.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWafctl, sandbox, type CliSandbox } from '../cli/cli-process.js';
import { buildArchive, FileServer, makeTestKey, sha256, sign, withDotDotEntry, withEscapingSymlink, type TestKey } from '../crs/release-fixture.js';
import { tempDir } from './daemon-harness.js';

let server: FileServer;
let key: TestKey;
let otherKey: TestKey;
let archive: Buffer;
let files: string;

beforeAll(async () => {
  files = await tempDir('crs-files-');
  [key, otherKey] = await Promise.all([makeTestKey(files), makeTestKey(files, 'someone else')]);
  archive = await buildArchive();
  server = await new FileServer().start();
  const signature = await sign(archive, key);
  const newest = server.publishRelease('4.28.0', archive, signature);
  // A newer pre-release and a 3.x release the default must pass over.
  const pre = server.publishRelease('4.99.0', Buffer.from('not an archive'), null, { prerelease: true });
  const old = server.publishRelease('3.3.9', Buffer.from('not an archive'), null);
  server.listReleases([pre, old, newest]);
});

afterAll(async () => {
  await server?.stop();
});

function box(): CliSandbox & { run(...args: string[]): ReturnType<typeof runWafctl> } {
  const b = sandbox();
  b.env.WAFCTL_CRS_TEST_KEY = key.publicFile;
  b.env.WAFCTL_CRS_RELEASES_API = server.url;
  return { ...b, run: (...args: string[]) => runWafctl(args, b.env, { timeoutMs: 60_000 }) };
}

/** What is under <data>/crs: the refusals below must leave nothing, not even a temporary tree. */
function crsTree(b: CliSandbox): string[] {
  const dir = join(b.dataDir, 'crs');
  return existsSync(dir) ? readdirSync(dir) : [];
}

/** Writes an archive (and, when given, its .asc) to a file for --from. */
function archiveFile(name: string, bytes: Buffer, signature?: string): string {
  const path = join(files, name);
  writeFileSync(path, bytes);
  if (signature !== undefined) writeFileSync(`${path}.asc`, signature);
  return path;
}

describe('wafctl crs install', () => {
  it('installs the newest signed 4.x release from the releases API, selects it, and a second install changes nothing', async () => {
    const b = box();
    const first = await b.run('--json', 'crs', 'install');
    expect(first.code, first.stderr).toBe(0);
    const report = JSON.parse(first.stdout);
    expect(report).toMatchObject({ version: '4.28.0', already_installed: false, selected: true, verified: { kind: 'signature' } });
    expect(report.rules).toBeGreaterThan(100);
    expect(existsSync(join(b.dataDir, 'crs', '4.28.0', 'rules', 'REQUEST-901-INITIALIZATION.conf'))).toBe(true);
    expect(crsTree(b).sort()).toEqual(['4.28.0', 'selected']);

    const again = await b.run('--json', 'crs', 'install', '4.28.0');
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ version: '4.28.0', already_installed: true, selected: true });
    expect(again.stderr).toContain('already installed');

    const list = await b.run('--json', 'crs', 'list');
    expect(JSON.parse(list.stdout)).toEqual([{ version: '4.28.0', path: join(b.dataDir, 'crs', '4.28.0'), selected: true }]);
  });

  it('refuses an archive signed by another key, and leaves nothing behind', async () => {
    const b = box();
    const path = archiveFile('coreruleset-4.28.0.tar.gz', archive, await sign(archive, otherKey));
    const result = await b.run('crs', 'install', '--from', path);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: crs_signature_invalid: /m);
    expect(crsTree(b)).toEqual([]);
  });

  it('refuses an archive that differs from the one signed', async () => {
    const b = box();
    const other = await buildArchive({ tamper: withDotDotEntry });
    const path = archiveFile('coreruleset-4.28.0.tar.gz', other, await sign(archive, key));
    const result = await b.run('crs', 'install', '--from', path);
    expect(result.stderr).toMatch(/^error: crs_signature_invalid: /m);
    expect(crsTree(b)).toEqual([]);
  });

  it('refuses an archive with neither a signature nor --sha256', async () => {
    const b = box();
    const dir = await tempDir('crs-unsigned-');
    writeFileSync(join(dir, 'coreruleset-4.28.0.tar.gz'), archive);
    const result = await b.run('crs', 'install', '--from', dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: crs_unsigned: coreruleset-4.28.0.tar.gz has no signature/m);
    expect(result.stderr).toMatch(/^hint: .*--sha256/m);
    expect(crsTree(b)).toEqual([]);
  });

  it('refuses a wrong --sha256, and accepts the right one from a mirror URL without .asc', async () => {
    const b = box();
    server.files.set('/mirror/coreruleset-4.28.0.tar.gz', { body: archive });
    const url = `${server.url}/mirror/coreruleset-4.28.0.tar.gz`;
    const wrong = await b.run('crs', 'install', '--from', url, '--sha256', 'ab'.repeat(32));
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/^error: crs_checksum_mismatch: /m);
    expect(crsTree(b)).toEqual([]);

    const right = await b.run('--json', 'crs', 'install', '--from', url, '--sha256', sha256(archive));
    expect(right.code, right.stderr).toBe(0);
    expect(JSON.parse(right.stdout)).toMatchObject({ version: '4.28.0', verified: { kind: 'sha256', sha256: sha256(archive) } });
  });

  it('refuses a truncated archive even when its checksum was given', async () => {
    const b = box();
    const cut = archive.subarray(0, Math.floor(archive.length / 2));
    const result = await b.run('crs', 'install', '--from', archiveFile('coreruleset-4.28.0.tar.gz', cut), '--sha256', sha256(cut));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: crs_archive_invalid: coreruleset-4.28.0.tar.gz is not a whole .tar.gz archive/m);
    expect(crsTree(b)).toEqual([]);
  });

  it.each([
    ['a ../ entry', withDotDotEntry, /leaves the archive's directory/],
    ['a symlink out of the tree', withEscapingSymlink, /is a SymbolicLink to \/etc/],
  ])('refuses an archive with %s', async (_what, tamper, reason) => {
    const b = box();
    const hostile = await buildArchive({ tamper });
    const result = await b.run('crs', 'install', '--from', archiveFile('coreruleset-4.28.0.tar.gz', hostile, await sign(hostile, key)));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: crs_archive_unsafe: /m);
    expect(result.stderr).toMatch(reason);
    expect(crsTree(b)).toEqual([]);
    expect(existsSync(join(b.dataDir, 'evil.conf'))).toBe(false);
  });

  it('refuses a release whose rules do not load, leaving no half-unpacked tree', async () => {
    const b = box();
    const broken = await buildArchive({ brokenRule: 'SecRule ARGS "@rx a" "id:1,phase:2,nosuchaction"\n' });
    const result = await b.run('crs', 'install', '--from', archiveFile('coreruleset-4.28.0.tar.gz', broken, await sign(broken, key)));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: crs_rules_invalid: the rules of coreruleset-4.28.0.tar.gz do not load: .*REQUEST-999-BROKEN.conf/m);
    expect(crsTree(b)).toEqual([]);
  });

  it('says in one line how to get a release when the releases API cannot be reached', async () => {
    const b = box();
    const closed = await new FileServer().start();
    await closed.stop(); // a port nothing listens on any more: the connection is refused
    b.env.WAFCTL_CRS_RELEASES_API = closed.url;
    const result = await b.run('crs', 'install');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: crs_unreachable: cannot reach 127.0.0.1:\d+: ECONNREFUSED$/m);
    expect(result.stderr).toMatch(/^hint: .*`wafctl crs install --from FILE`.*modsecurity-crs/m);
    expect(crsTree(b)).toEqual([]);
  });

  it('refuses a version that is not a release, and one that is not a version', async () => {
    const b = box();
    const missing = await b.run('crs', 'install', '4.1.0');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^error: crs_release_not_found: CRS 4.1.0 is not a CRS release/m);
    const typo = await b.run('crs', 'install', '4.x');
    expect(typo.code).toBe(2);
    expect(crsTree(b)).toEqual([]);
  });
});

describe('wafctl crs use and remove', () => {
  it('switches between installed versions, refuses a missing one, and never removes the selected one', async () => {
    const b = box();
    expect((await b.run('crs', 'install', '--from', archiveFile('coreruleset-4.28.0.tar.gz', archive, await sign(archive, key)))).code).toBe(0);
    const older = await buildArchive({ version: '4.27.0' });
    const second = await b.run('--json', 'crs', 'install', '--from', archiveFile('coreruleset-4.27.0.tar.gz', older, await sign(older, key)));
    expect(second.code, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ version: '4.27.0', selected: false });
    expect(second.stderr).toContain('wafctl crs use 4.27.0');

    const missing = await b.run('crs', 'use', '4.1.0');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^error: crs_not_installed: CRS 4.1.0 is not installed/m);

    const inUse = await b.run('crs', 'remove', '4.28.0');
    expect(inUse.code).toBe(1);
    expect(inUse.stderr).toMatch(/^error: crs_in_use: CRS 4.28.0 is the selected rule set/m);

    expect((await b.run('crs', 'use', 'v4.27.0')).code).toBe(0);
    const removed = await b.run('crs', 'remove', '4.28.0');
    expect(removed.code, removed.stderr).toBe(0);
    const list = await b.run('--json', 'crs', 'list');
    expect(JSON.parse(list.stdout)).toEqual([{ version: '4.27.0', path: join(b.dataDir, 'crs', '4.27.0'), selected: true }]);
    expect(crsTree(b).sort()).toEqual(['4.27.0', 'selected']);
  });

  it('lists nothing as [] with --json', async () => {
    const b = box();
    const list = await b.run('--json', 'crs', 'list');
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual([]);
  });
});
