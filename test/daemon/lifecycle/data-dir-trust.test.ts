import { chmod, chown, lchown, link, lstat, mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DaemonHarness } from './daemon-harness.js';

// Security review M3/L3, through a real daemon process: a data dir (or a file in it, or a dir on
// the way to it) that another user could control is refused with one line naming the path, what
// was found and the fix, before the daemon writes anything; links in place of its files are
// refused, never followed; an existing audit log is made 0600. Tests that need a second user
// chown to nobody (65534), which only root may do: they run where the suite runs as root (CI).

const harness = new DaemonHarness();
afterAll(() => harness.cleanup());

const uid = process.getuid!();
const isRoot = uid === 0;
const NOBODY = 65534;
const owner = isRoot ? 'root' : `the daemon's user (uid ${uid}) or root`;

/** Every path under dir (relative, links not followed): "nothing was written" is an equal listing. */
async function listing(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (sub: string): Promise<void> => {
    for (const name of (await readdir(join(dir, sub))).sort()) {
      const rel = sub ? `${sub}/${name}` : name;
      out.push(rel);
      if ((await lstat(join(dir, rel))).isDirectory()) await walk(rel);
    }
  };
  await walk('');
  return out;
}

/** A temp dir with a data dir (0700) in it, and a victim file outside the data dir. */
async function setup(): Promise<{ base: string; data: string; victim: string }> {
  const base = await harness.tempDir();
  const data = join(base, 'data');
  await mkdir(data, { mode: 0o700 });
  const victim = join(base, 'victim.txt');
  await writeFile(victim, 'root-owned victim file\n', { mode: 0o600 });
  return { base, data, victim };
}

async function refused(data: string, extra: string[] = []): Promise<string> {
  const result = await harness.start(data, extra);
  if (result.ok) throw new Error(`the daemon started on ${data}`);
  return result.reason;
}

describe('the data dir itself', { timeout: 120_000 }, () => {
  it.each(['0777', '0775', '0722', '1777'])('mode %s (writable by group or others, sticky or not) is refused, nothing written', async (shown) => {
    const { data } = await setup();
    const mode = parseInt(shown, 8);
    await chmod(data, mode);
    expect(await refused(data)).toBe(`data dir ${data} is not safe: ${data} is writable by group or others (owner uid ${uid}, mode ${shown}); fix: chmod go-w ${data}`);
    expect(await listing(data)).toEqual([]);
    expect((await stat(data)).mode & 0o7777).toBe(mode); // not "fixed" behind the operator's back either
  });

  it.runIf(isRoot)('owned by another user is refused, nothing written', async () => {
    const { data } = await setup();
    await chown(data, NOBODY, NOBODY);
    expect(await refused(data)).toBe(`data dir ${data} is not safe: ${data} is owned by another user (owner uid ${NOBODY}, mode 0700), not by root; fix: check what is in it, then chown 0 ${data}, or use another path`);
    expect(await listing(data)).toEqual([]);
  });
});

describe('the directories leading to it', { timeout: 120_000 }, () => {
  it('a parent writable by others and not sticky is refused, and a missing data dir is not created under it', async () => {
    const base = await harness.tempDir();
    const shared = join(base, 'shared');
    await mkdir(shared);
    await chmod(shared, 0o777);
    const problem = `${shared} is writable by group or others and not sticky (owner uid ${uid}, mode 0777), so another user could replace what is under it; fix: chmod go-w ${shared} (or chmod +t ${shared} for a shared dir like /tmp)`;
    const missing = join(shared, 'new', 'data');
    expect(await refused(missing)).toBe(`data dir ${missing} is not safe: ${problem}`);
    expect(await listing(shared)).toEqual([]);
    const existing = join(shared, 'data');
    await mkdir(existing, { mode: 0o700 });
    expect(await refused(existing)).toBe(`data dir ${existing} is not safe: ${problem}`);
    expect(await listing(shared)).toEqual(['data']);
  });

  it('a group-writable grandparent is refused too (the whole chain up to / is checked)', async () => {
    const base = await harness.tempDir();
    const top = join(base, 'top');
    await mkdir(join(top, 'mid', 'data'), { recursive: true, mode: 0o700 });
    await chmod(top, 0o770);
    const data = join(top, 'mid', 'data');
    expect(await refused(data)).toMatch(new RegExp(`^data dir ${data} is not safe: ${top} is writable by group or others and not sticky \\(owner uid ${uid}, mode 0770\\)`));
    expect(await listing(data)).toEqual([]);
  });

  it.runIf(isRoot)('a parent owned by another user is refused (it could rename the data dir away and put its own)', async () => {
    const base = await harness.tempDir();
    const theirs = join(base, 'theirs');
    await mkdir(join(theirs, 'data'), { recursive: true, mode: 0o700 });
    await chown(theirs, NOBODY, NOBODY);
    const data = join(theirs, 'data');
    expect(await refused(data)).toBe(`data dir ${data} is not safe: ${theirs} is owned by another user (owner uid ${NOBODY}, mode 0700), not by root; fix: check what is in it, then chown 0 ${theirs}, or use another path`);
    expect(await listing(data)).toEqual([]);
  });

  it.runIf(isRoot)('a symbolic link on the way that another user owns is refused (in a sticky dir they may re-point it)', async () => {
    const { base, data } = await setup();
    const sticky = join(base, 'sticky');
    await mkdir(sticky);
    await chmod(sticky, 0o1777);
    const planted = join(sticky, 'wafctl');
    await symlink(data, planted);
    await lchown(planted, NOBODY, NOBODY);
    expect(await refused(planted)).toMatch(new RegExp(`^data dir ${planted} is not safe: ${planted} is owned by another user \\(owner uid ${NOBODY}, mode 0777\\)`));
    expect(await listing(data)).toEqual([]);
  });

  it('an admin socket in a directory others may write is refused', async () => {
    const { base, data } = await setup();
    const open = join(base, 'run');
    await mkdir(open);
    await chmod(open, 0o757);
    const socket = join(open, 'w.sock');
    expect(await refused(data, ['--admin-socket', socket])).toMatch(new RegExp(`^admin socket ${socket} is not safe: ${open} is writable by group or others and not sticky \\(owner uid ${uid}, mode 0757\\)`));
    expect(await listing(open)).toEqual([]);
  });
});

describe('files in the data dir', { timeout: 120_000 }, () => {
  const linkProblem = (path: string) => `${path} is a symbolic link, which the daemon does not follow in its data dir; fix: replace it with the file itself (rm ${path})`;

  it('a symbolic link in place of daemon.log is refused, not appended to (also a dangling one)', async () => {
    const { base, data, victim } = await setup();
    const log = join(data, 'daemon.log');
    await symlink(victim, log);
    expect(await refused(data)).toBe(`data dir ${data} is not safe: ${linkProblem(log)}`);
    expect(await readFile(victim, 'utf8')).toBe('root-owned victim file\n');
    expect(await listing(data)).toEqual(['daemon.log']); // no pid file, no keys, no config

    const { data: other } = await setup();
    const nowhere = join(base, 'created-by-root');
    await symlink(nowhere, join(other, 'daemon.log'));
    expect(await refused(other)).toBe(`data dir ${other} is not safe: ${linkProblem(join(other, 'daemon.log'))}`);
    expect(await listing(base)).not.toContain('created-by-root');
  });

  it('a symbolic link in place of the CA key, or of tls/ itself, is refused; the key is never written through it', async () => {
    const { base, data } = await setup();
    const stolen = join(base, 'stolen-ca.key');
    await writeFile(stolen, '');
    await chmod(stolen, 0o666);
    await mkdir(join(data, 'tls'), { mode: 0o700 });
    const key = join(data, 'tls', 'ca.key');
    await symlink(stolen, key);
    expect(await refused(data)).toBe(`data dir ${data} is not safe: ${linkProblem(key)}`);
    expect(await readFile(stolen, 'utf8')).toBe('');

    const { data: other } = await setup();
    const elsewhere = join(base, 'their-tls');
    await mkdir(elsewhere, { mode: 0o700 });
    await symlink(elsewhere, join(other, 'tls'));
    expect(await refused(other)).toBe(`data dir ${other} is not safe: ${linkProblem(join(other, 'tls'))}`);
    expect(await listing(elsewhere)).toEqual([]);
  });

  it('a symbolic link as daemon.json is refused before it is read (its target is never quoted)', async () => {
    const { data, victim } = await setup();
    const settings = join(data, 'daemon.json');
    await symlink(victim, settings);
    const reason = await refused(data);
    expect(reason).toBe(`data dir ${data} is not safe: ${linkProblem(settings)}`);
    expect(reason).not.toContain('victim');
  });

  it('a link deep in events/, config.json as a link, a hard-linked log: all refused', async () => {
    const { data, victim } = await setup();
    await mkdir(join(data, 'events', 'index'), { recursive: true, mode: 0o700 });
    const deep = join(data, 'events', 'index', 'id-reserved');
    await symlink(victim, deep);
    expect(await refused(data)).toBe(`data dir ${data} is not safe: ${linkProblem(deep)}`);

    const { data: second } = await setup();
    await symlink(victim, join(second, 'config.json'));
    expect(await refused(second)).toBe(`data dir ${second} is not safe: ${linkProblem(join(second, 'config.json'))}`);

    const { data: third } = await setup();
    const log = join(third, 'daemon.log');
    await link(victim, log);
    expect(await refused(third)).toMatch(new RegExp(`^data dir ${third} is not safe: ${log} has 2 hard links`));
    expect(await readFile(victim, 'utf8')).toBe('root-owned victim file\n');
    expect(await listing(third)).toEqual(['daemon.log']);
  });

  it('a file others may write is refused (chmod go-w), one another user owns too (chown)', async () => {
    const { data } = await setup();
    const key = join(data, 'challenge.key');
    await writeFile(key, 'x'.repeat(32));
    await chmod(key, 0o646);
    expect(await refused(data)).toBe(`data dir ${data} is not safe: ${key} is writable by group or others (owner uid ${uid}, mode 0646); fix: chmod go-w ${key}`);
    expect(await listing(data)).toEqual(['challenge.key']);
    if (!isRoot) return;
    await chmod(key, 0o600);
    await chown(key, NOBODY, NOBODY);
    expect(await refused(data)).toBe(`data dir ${data} is not safe: ${key} is owned by another user (owner uid ${NOBODY}, mode 0600), not by ${owner}; fix: check what is in it, then chown 0 ${key}, or use another path`);
  });
});

describe('the audit log (--audit-log)', { timeout: 120_000 }, () => {
  it('an existing 0644 audit log is made 0600; a data dir reached through our own link in a sticky dir is accepted', async () => {
    const { base, data } = await setup();
    const sticky = join(base, 'sticky');
    await mkdir(sticky);
    await chmod(sticky, 0o1777);
    const via = join(sticky, 'wafctl');
    await symlink(data, via);
    const audit = join(base, 'audit.jsonl');
    await writeFile(audit, '');
    await chmod(audit, 0o644);
    const result = await harness.start(via, ['--audit-log', audit]);
    if (!result.ok) throw new Error(result.reason);
    expect((await stat(audit)).mode & 0o777).toBe(0o600);
    expect(await listing(data)).toContain('tls/ca.key');
  });

  it('a symbolic link as the audit log is refused at start, its target untouched', async () => {
    const { base, data, victim } = await setup();
    const audit = join(base, 'audit.jsonl');
    await symlink(victim, audit);
    expect(await refused(data, ['--audit-log', audit])).toBe(`audit log ${audit} is a symbolic link, which the daemon does not follow; fix: point --audit-log at the file itself`);
    expect(await readFile(victim, 'utf8')).toBe('root-owned victim file\n');
    expect((await stat(victim)).mode & 0o777).toBe(0o600);
  });

  it.runIf(isRoot)('an audit log another user owns is refused at start, its mode unchanged', async () => {
    const { base, data } = await setup();
    const audit = join(base, 'audit.jsonl');
    await writeFile(audit, '');
    await chmod(audit, 0o644);
    await chown(audit, NOBODY, NOBODY);
    expect(await refused(data, ['--audit-log', audit])).toBe(`audit log ${audit} is owned by uid ${NOBODY}, not by the daemon's user (uid 0); fix: chown 0 ${audit} (after checking it), or choose another file`);
    expect((await stat(audit)).mode & 0o777).toBe(0o644);
  });
});
