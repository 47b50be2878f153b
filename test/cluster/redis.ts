// The Redis the cluster tests run against. CI (.ci/run) starts one and exports WAFCTL_TEST_REDIS;
// under CI=true its absence is a failure, not a skip. Elsewhere, without the variable, a throwaway
// server is started from Debian's redis-server (scripts/test-services/redis.sh) and stopped after
// the file; without the binary the tests skip and say why. A test that stops Redis (SIGSTOP)
// gets a server of its own (privateRedis), never the shared one. Each file that counts on the
// shared server gets a database of its own (REDIS_DATABASES), so files that run at the same time
// never count into each other's keys, whatever sites and addresses they use.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO } from '../cli/cli-process.js';

const run = promisify(execFile);
const SCRIPT = join(REPO, 'scripts', 'test-services', 'redis.sh');

export type TestRedis =
  | { ok: true; url: string; stop(): Promise<void> }
  | { ok: false; skip: string };

export type OwnRedis =
  | { ok: true; url: string; pid: number; stop(): Promise<void>; restart(): Promise<void> }
  | { ok: false; skip: string };

/** The database of each test file on the shared Redis (0 is left to benchmarks and hand runs). */
export const REDIS_DATABASES = {
  counters: 1,
  'counter-breaker': 2,
  'redis-counter-store': 3,
  'cluster-status': 4,
  'cluster-join': 5,
  'bans-nodes': 6,
} as const;

export async function testRedis(database: keyof typeof REDIS_DATABASES | 0 = 0): Promise<TestRedis> {
  const db = database === 0 ? 0 : REDIS_DATABASES[database];
  const given = process.env.WAFCTL_TEST_REDIS;
  if (given) return { ok: true, url: inDatabase(given, db), stop: async () => undefined };
  if (process.env.CI === 'true') throw new Error('WAFCTL_TEST_REDIS is not set under CI=true: .ci/run starts Redis and exports it');
  const own = await privateRedis();
  return own.ok ? { ok: true, url: inDatabase(own.url, db), stop: own.stop } : own;
}

/** The URL with its database number set (redis://host:port/db). */
function inDatabase(url: string, db: number): string {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
}

/** A Redis of the test's own (it may be stopped with SIGSTOP): needs redis-server. */
export async function privateRedis(): Promise<OwnRedis> {
  if (!hasRedisServer()) {
    if (process.env.CI === 'true') throw new Error('no redis-server under CI=true: .ci/run installs it');
    return { ok: false, skip: 'cluster counter tests skipped: no WAFCTL_TEST_REDIS and no redis-server (apt-get install redis-server)' };
  }
  const dir = await mkdtemp(join(tmpdir(), 'wafctl-redis-'));
  const { stdout } = await run(SCRIPT, ['start', dir], { timeout: 60_000 });
  const pid = Number((await readFile(join(dir, 'redis.pid'), 'utf8')).trim());
  return {
    ok: true,
    url: stdout.trim(),
    pid,
    /** Stops it and starts an empty one on the same port (a Redis restart without persistence). */
    async restart() {
      await run(SCRIPT, ['restart', dir], { timeout: 60_000 });
    },
    async stop() {
      try { process.kill(pid, 'SIGCONT'); } catch { /* gone already */ }
      await run(SCRIPT, ['stop', dir], { timeout: 30_000 }).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function hasRedisServer(): boolean {
  return ['/usr/bin/redis-server', '/usr/local/bin/redis-server', '/usr/sbin/redis-server'].some((p) => existsSync(p));
}

/** Polls `condition` until it holds, bounded by tries (not by a time a loaded box can miss). */
export async function until(condition: () => boolean | Promise<boolean>, tries = 3000, everyMs = 10): Promise<boolean> {
  for (let i = 0; i < tries; i++) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  return false;
}
