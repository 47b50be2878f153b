// The PostgreSQL the cluster tests run against. CI (.ci/run) starts one and exports
// WAFCTL_TEST_POSTGRES; under CI=true its absence is a failure, not a skip. Elsewhere, without the
// variable, a throwaway server is started from Debian's binaries (scripts/test-services/postgres.sh)
// and stopped after the file; without the binaries the tests skip and say why.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { REPO } from '../cli/cli-process.js';

const run = promisify(execFile);
const SCRIPT = join(REPO, 'scripts', 'test-services', 'postgres.sh');

export type TestPostgres =
  | { ok: true; url: string; stop(): Promise<void> }
  | { ok: false; skip: string };

export async function testPostgres(): Promise<TestPostgres> {
  const given = process.env.WAFCTL_TEST_POSTGRES;
  if (given) return { ok: true, url: given, stop: async () => undefined };
  if (process.env.CI === 'true') {
    throw new Error('WAFCTL_TEST_POSTGRES is not set under CI=true: .ci/run starts PostgreSQL and exports it');
  }
  if (!hasPostgresBinaries()) return { ok: false, skip: 'cluster tests skipped: no WAFCTL_TEST_POSTGRES and no PostgreSQL binaries (apt-get install postgresql)' };
  const dir = await mkdtemp(join(tmpdir(), 'wafctl-pg-'));
  await chmod(dir, 0o755); // the server runs as the postgres user when we are root
  const { stdout } = await run(SCRIPT, ['start', join(dir, 'pg')], { timeout: 120_000 });
  return {
    ok: true,
    url: stdout.trim(),
    async stop() {
      await run(SCRIPT, ['stop', join(dir, 'pg')], { timeout: 60_000 }).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function hasPostgresBinaries(): boolean {
  try {
    return readdirSync('/usr/lib/postgresql').some((version) => existsSync(join('/usr/lib/postgresql', version, 'bin', 'pg_ctl')));
  } catch {
    return false;
  }
}

/** A new, empty database on the server: each test's cluster has a config row of its own. */
export async function freshDatabase(serverUrl: string): Promise<string> {
  const name = `wafctl_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs one query on its own connection. */
export async function sql<T extends pg.QueryResultRow = pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}
