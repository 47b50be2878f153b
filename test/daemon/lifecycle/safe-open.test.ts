import { chmod, link, lstat, mkdir, mkdtemp, readFile, readlink, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeAdminSocketPointer } from '../../../daemon/lifecycle/admin-socket-pointer.js';
import { createDaemonLogger } from '../../../daemon/lifecycle/daemon-log.js';
import { replaceFile, UnsafeFileError } from '../../../daemon/lifecycle/safe-open.js';
import { DurableJsonFile } from '../../../daemon/store/config/durable-json-file.js';
import { AuditLogError } from '../../../daemon/store/events/audit-log.js';
import { openJsonlEventStore } from '../../../daemon/store/events/jsonl-event-store.js';
import { ensureApiTls, TlsSetupError } from '../../../daemon/tls/api-tls.js';
import { dataPaths } from '../../../shared/paths.js';

// The second layer under the start-time check (data-dir-trust.test.ts): each of the daemon's own
// files, opened directly, refuses a symbolic link in its place instead of following it, even if
// one appeared after the check. The victim file outside must stay as it was.

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

const VICTIM_TEXT = 'victim\n';
async function setup(): Promise<{ dir: string; victim: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'wafctl-safe-open-'));
  dirs.push(dir);
  const victim = join(dir, 'victim.txt');
  await writeFile(victim, VICTIM_TEXT, { mode: 0o600 });
  return { dir, victim };
}

const linkMessage = (path: string) => `${path} is a symbolic link, which the daemon does not follow in its data dir; fix: replace it with the file itself (rm ${path})`;

describe('O_NOFOLLOW on the daemon\'s own files', () => {
  it('the daemon log: a link is refused, a dangling one creates nothing, an old 0644 log becomes 0600', async () => {
    const { dir, victim } = await setup();
    const log = join(dir, 'daemon.log');
    await symlink(victim, log);
    expect(() => createDaemonLogger(log)).toThrow(new UnsafeFileError(linkMessage(log)));
    const dangling = join(dir, 'dangling.log');
    await symlink(join(dir, 'made-by-daemon'), dangling);
    expect(() => createDaemonLogger(dangling)).toThrow(UnsafeFileError);
    await expect(lstat(join(dir, 'made-by-daemon'))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await readFile(victim, 'utf8')).toBe(VICTIM_TEXT);

    const old = join(dir, 'old.log');
    await writeFile(old, '');
    await chmod(old, 0o644);
    createDaemonLogger(old).info('hello');
    expect((await stat(old)).mode & 0o777).toBe(0o600);
  });

  it('TLS: a link as the CA key is refused; a new key replaces a link rather than writing through it', async () => {
    const { dir, victim } = await setup();
    const paths = dataPaths(join(dir, 'data'));
    await mkdir(paths.tlsDir, { recursive: true, mode: 0o700 });
    await writeFile(paths.caCert, 'x');
    await symlink(victim, paths.caKey);
    await expect(ensureApiTls(paths, {})).rejects.toThrow(new TlsSetupError(linkMessage(paths.caKey)));

    // Without ca.crt the pair is missing and is generated: written fresh and renamed over the link.
    await rm(paths.caCert);
    await ensureApiTls(paths, {});
    expect((await lstat(paths.caKey)).isFile()).toBe(true);
    expect(await readFile(paths.caKey, 'utf8')).toContain('PRIVATE KEY');
    expect(await readFile(victim, 'utf8')).toBe(VICTIM_TEXT);
  });

  it('replaceFile replaces a link with a 0600 file and leaves its target alone', async () => {
    const { dir, victim } = await setup();
    const key = join(dir, 'challenge.key');
    await symlink(victim, key);
    await replaceFile(key, 'secret', 0o600);
    expect((await lstat(key)).isSymbolicLink()).toBe(false);
    expect((await stat(key)).mode & 0o777).toBe(0o600);
    expect(await readFile(key, 'utf8')).toBe('secret');
    expect(await readFile(victim, 'utf8')).toBe(VICTIM_TEXT);
  });

  it('config.json: a link is not read, a link as its temp file is not written through', async () => {
    const { dir, victim } = await setup();
    const file = join(dir, 'config.json');
    await symlink(victim, file);
    await expect(new DurableJsonFile(file).read()).rejects.toThrow(new UnsafeFileError(linkMessage(file)));

    const other = join(dir, 'other.json');
    await symlink(victim, join(dir, '.other.json.tmp'));
    await expect(new DurableJsonFile(other).write({ a: 1 })).rejects.toMatchObject({ code: 'ELOOP' });
    expect(await readFile(victim, 'utf8')).toBe(VICTIM_TEXT);
  });

  it('the admin socket pointer is not written through a link', async () => {
    const { dir, victim } = await setup();
    const pointer = join(dir, 'wafctl.sock.path');
    await symlink(victim, pointer);
    expect(() => writeAdminSocketPointer(pointer, join(dir, 'wafctl.sock'))).toThrow(new UnsafeFileError(linkMessage(pointer)));
    expect(await readlink(pointer)).toBe(victim);
    expect(await readFile(victim, 'utf8')).toBe(VICTIM_TEXT);
  });
});

describe('the audit log', () => {
  const logger = { info: () => undefined, warn: () => undefined, error: () => undefined };
  const open = (dir: string, audit: string) => openJsonlEventStore({ dir: join(dir, 'events'), auditLogPath: audit, logger, retentionEveryMs: 0, snapshotEveryMs: 0 });

  it('an existing 0644 file is made 0600 at open; a new one is created 0600', async () => {
    const { dir } = await setup();
    const audit = join(dir, 'audit.jsonl');
    await writeFile(audit, '');
    await chmod(audit, 0o644);
    const store = await open(dir, audit);
    expect((await stat(audit)).mode & 0o777).toBe(0o600);
    await store.close();
    const fresh = join(dir, 'fresh.jsonl');
    const second = await open(dir, fresh);
    expect((await stat(fresh)).mode & 0o777).toBe(0o600);
    await second.close();
  });

  it('a link, a hard-linked file, or something that is not a file is refused when the store opens', async () => {
    const { dir, victim } = await setup();
    const linked = join(dir, 'linked.jsonl');
    await symlink(victim, linked);
    await expect(open(dir, linked)).rejects.toThrow(new AuditLogError(`audit log ${linked} is a symbolic link, which the daemon does not follow; fix: point --audit-log at the file itself`));
    const hard = join(dir, 'hard.jsonl');
    await link(victim, hard);
    await expect(open(dir, hard)).rejects.toThrow(new AuditLogError(`audit log ${hard} has 2 hard links; fix: give it its own file (mv ${hard} ${hard}.old)`));
    await expect(open(dir, dir)).rejects.toThrow(AuditLogError);
    expect(await readFile(victim, 'utf8')).toBe(VICTIM_TEXT);
    expect((await stat(victim)).mode & 0o777).toBe(0o600);
  });
});
