// PostgreSQL and Redis in a network namespace of their own, reached over one veth link
// (scripts/test-services/netns.sh), for the tests that cut the link for real: a partition drops
// packets and sends no RST, which a relay on loopback (outage-proxy.ts) only imitates. Needs root;
// the tests skip and say why where `ip netns add` is refused (the scale-out issue's CI rule).
import { execFile } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO } from '../cli/cli-process.js';

const run = promisify(execFile);
const SCRIPTS = join(REPO, 'scripts', 'test-services');

export type NetnsServices =
  | {
    ok: true;
    /** The server's URL (its `postgres` database) and Redis's, at the namespace's address. */
    postgresUrl: string;
    redisUrl: string;
    link(state: 'up' | 'down'): Promise<void>;
    stopPostgres(): Promise<void>;
    resumePostgres(): Promise<void>;
    close(): Promise<void>;
  }
  | { ok: false; skip: string };

export async function netnsServices(): Promise<NetnsServices> {
  if (process.getuid?.() !== 0) return { ok: false, skip: 'netns tests skipped: they need root (ip netns add)' };
  const name = `wafctl-${process.pid}`;
  const subnet = String(1 + (process.pid % 250));
  let address: string;
  try {
    address = (await run(join(SCRIPTS, 'netns.sh'), ['up', name, subnet], { timeout: 30_000 })).stdout.trim();
  } catch (error) {
    await run(join(SCRIPTS, 'netns.sh'), ['down', name]).catch(() => undefined);
    return { ok: false, skip: `netns tests skipped: ip netns add was refused (${(error as Error).message.split('\n')[0]})` };
  }
  const dir = await mkdtemp(join(tmpdir(), 'wafctl-netns-'));
  await chmod(dir, 0o755); // the postgres user must reach its data directory inside
  const env = { ...process.env, WAFCTL_PG_NETNS: name, WAFCTL_PG_LISTEN: address, WAFCTL_REDIS_NETNS: name, WAFCTL_REDIS_LISTEN: address };
  const pg = join(SCRIPTS, 'postgres.sh');
  const redis = join(SCRIPTS, 'redis.sh');
  const close = async (): Promise<void> => {
    await run(join(SCRIPTS, 'netns.sh'), ['link', name, 'up']).catch(() => undefined);
    await run(pg, ['stop', join(dir, 'postgres')], { env, timeout: 60_000 }).catch(() => undefined);
    await run(redis, ['stop', join(dir, 'redis')], { env, timeout: 30_000 }).catch(() => undefined);
    await run(join(SCRIPTS, 'netns.sh'), ['down', name]).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const postgresUrl = (await run(pg, ['start', join(dir, 'postgres')], { env, timeout: 120_000 })).stdout.trim();
    const redisUrl = (await run(redis, ['start', join(dir, 'redis')], { env, timeout: 60_000 })).stdout.trim();
    return {
      ok: true,
      postgresUrl,
      redisUrl,
      link: async (state) => { await run(join(SCRIPTS, 'netns.sh'), ['link', name, state]); },
      stopPostgres: async () => { await run(pg, ['stop', join(dir, 'postgres')], { env, timeout: 60_000 }); },
      resumePostgres: async () => { await run(pg, ['resume', join(dir, 'postgres')], { env, timeout: 60_000 }); },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
