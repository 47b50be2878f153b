import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OptionsError, parseDaemonArgv, resolveDaemonOptions } from '../../../daemon/options/resolve-options.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wafctl-opts-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const resolveWith = (argv: string[], env: NodeJS.ProcessEnv = {}) => resolveDaemonOptions(parseDaemonArgv(['--data-dir', dir, ...argv]), env, '/cwd');

describe('daemon options', () => {
  it('defaults', async () => {
    const options = await resolveWith([]);
    expect(options).toMatchObject({
      dataDir: dir, edgePort: 8080, edgeTlsPort: 8443, apiPort: 9443, adminSocket: join(dir, 'wafctl.sock'),
      crsDir: '/usr/share/modsecurity-crs', auditLog: null, demo: false, demoPort: 0, foreground: false,
      tlsCert: null, tlsKey: null, listenHost: '127.0.0.1', trustedProxies: [],
    });
    expect(options.workers).toBeGreaterThanOrEqual(1);
  });

  it('flags beat env, env beats daemon.json, daemon.json beats defaults', async () => {
    await writeFile(join(dir, 'daemon.json'), JSON.stringify({ api_port: 1001, edge_port: 1002, edge_tls_port: 1003, audit_log: 'audit.jsonl' }));
    const options = await resolveWith(['--api-port', '3001'], { WAFCTL_API_PORT: '2001', WAFCTL_EDGE_PORT: '2002' });
    expect(options.apiPort).toBe(3001);
    expect(options.edgePort).toBe(2002);
    expect(options.edgeTlsPort).toBe(1003);
    expect(options.auditLog).toBe(join(dir, 'audit.jsonl')); // relative to the data dir in daemon.json
    expect(options.workers).toBeGreaterThanOrEqual(1);
  });

  it('the data dir comes from --data-dir, then WAFCTL_DATA_DIR, then XDG_DATA_HOME', async () => {
    expect((await resolveDaemonOptions({}, { WAFCTL_DATA_DIR: dir })).dataDir).toBe(dir);
    expect((await resolveDaemonOptions({}, { XDG_DATA_HOME: dir })).dataDir).toBe(join(dir, 'wafctl'));
    expect((await resolveDaemonOptions({ 'data-dir': 'rel' }, {}, '/base')).dataDir).toBe('/base/rel');
  });

  it('trusted proxies: repeated flag, comma-separated env, array in daemon.json; canonical form', async () => {
    expect((await resolveWith(['--trusted-proxy', '10.0.0.1', '--trusted-proxy', '2001:DB8::/32'])).trustedProxies).toEqual(['10.0.0.1', '2001:db8::/32']);
    expect((await resolveWith([], { WAFCTL_TRUSTED_PROXIES: '::ffff:192.168.1.0/120, ::1' })).trustedProxies).toEqual(['192.168.1.0/24', '::1']);
    await expect(resolveWith([], { WAFCTL_TRUSTED_PROXIES: '192.168.1.7/24' })).rejects.toThrow(/host bits set: the network is 192\.168\.1\.0\/24/);
    await writeFile(join(dir, 'daemon.json'), JSON.stringify({ trusted_proxies: ['127.0.0.1'] }));
    expect((await resolveWith([])).trustedProxies).toEqual(['127.0.0.1']);
    await expect(resolveWith(['--trusted-proxy', 'proxy.example'])).rejects.toThrow(/--trusted-proxy: "proxy.example" is not an IP address or CIDR range/);
    expect((await resolveWith([], {})).trustedProxies).toEqual(['127.0.0.1']);
  });

  it('the cluster PostgreSQL URL: off by default, postgres:// or postgresql://, never echoed when refused', async () => {
    expect((await resolveWith([])).clusterPostgres).toBeNull();
    expect((await resolveWith(['--cluster-postgres', 'postgres://wafctl@db.internal:5432/wafctl'])).clusterPostgres).toBe('postgres://wafctl@db.internal:5432/wafctl');
    expect((await resolveWith([], { WAFCTL_CLUSTER_POSTGRES: 'postgresql://u:p@10.0.0.5/w' })).clusterPostgres).toBe('postgresql://u:p@10.0.0.5/w');
    for (const bad of ['http://u:secret@db/w', 'postgres://', 'db.internal:5432']) {
      const refused = await resolveWith(['--cluster-postgres', bad]).catch((error: Error) => error);
      expect(refused).toBeInstanceOf(OptionsError);
      expect((refused as Error).message).toMatch(/^--cluster-postgres: must be a PostgreSQL URL/);
      expect((refused as Error).message).not.toContain('secret');
    }
  });

  it('the cluster Redis URL: off by default, redis:// or rediss://, flag over env over daemon.json, never echoed when refused', async () => {
    expect((await resolveWith([])).clusterRedis).toBeNull();
    expect((await resolveWith(['--cluster-redis', 'redis://redis.internal:6379'])).clusterRedis).toBe('redis://redis.internal:6379');
    expect((await resolveWith([], { WAFCTL_CLUSTER_REDIS: 'rediss://:p@10.0.0.7:6380/2' })).clusterRedis).toBe('rediss://:p@10.0.0.7:6380/2');
    await writeFile(join(dir, 'daemon.json'), JSON.stringify({ cluster_redis: 'redis://from-file:6379' }));
    expect((await resolveWith([])).clusterRedis).toBe('redis://from-file:6379');
    expect((await resolveWith([], { WAFCTL_CLUSTER_REDIS: 'redis://from-env:6379' })).clusterRedis).toBe('redis://from-env:6379');
    expect((await resolveWith(['--cluster-redis', 'redis://from-flag:6379'], { WAFCTL_CLUSTER_REDIS: 'redis://from-env:6379' })).clusterRedis).toBe('redis://from-flag:6379');
    await writeFile(join(dir, 'daemon.json'), '{}');
    for (const bad of ['http://u:secret@redis/0', 'redis://', 'redis.internal:6379', 'redis://:secret@host/notadb']) {
      const refused = await resolveWith(['--cluster-redis', bad]).catch((error: Error) => error);
      expect(refused).toBeInstanceOf(OptionsError);
      expect((refused as Error).message).toMatch(/^--cluster-redis: must be a Redis URL/);
      expect((refused as Error).message).not.toContain('secret');
    }
  });

  it('the counter failure mode: open by default, open or deny', async () => {
    expect((await resolveWith([])).clusterCounterFailure).toBe('open');
    expect((await resolveWith(['--cluster-counter-failure', 'deny'])).clusterCounterFailure).toBe('deny');
    expect((await resolveWith([], { WAFCTL_CLUSTER_COUNTER_FAILURE: 'open' })).clusterCounterFailure).toBe('open');
    await expect(resolveWith(['--cluster-counter-failure', 'closed'])).rejects.toThrow(/--cluster-counter-failure: must be open or deny, got "closed"/);
  });

  it('booleans from flags and env', async () => {
    expect((await resolveWith(['--demo'])).demo).toBe(true);
    expect((await resolveWith([], { WAFCTL_DEMO: 'yes' })).demo).toBe(true);
    expect((await resolveWith([], { WAFCTL_DEMO: 'off' })).demo).toBe(false);
  });

  it.each([
    [['--api-port', 'abc'], {}, /--api-port: must be a port number 0-65535, got "abc"/],
    [['--edge-port', '70000'], {}, /--edge-port: must be a port/],
    [['--workers', '0'], {}, /--workers: must be a whole number/],
    [[], { WAFCTL_API_PORT: '-1' }, /WAFCTL_API_PORT: must be a port/],
    [[], { WAFCTL_DEMO: 'maybe' }, /WAFCTL_DEMO: must be true or false/],
    [['--listen-host', 'localhost'], {}, /--listen-host: must be an IP address/],
    [['--tls-cert', '/x.crt'], {}, /--tls-cert and --tls-key must be given together/],
  ])('refuses %j %j', async (argv, env, message) => {
    await expect(resolveWith(argv, env)).rejects.toThrow(message);
  });

  it('refuses unknown flags and positionals as usage errors', () => {
    expect(() => parseDaemonArgv(['--nope'])).toThrow(OptionsError);
    expect(() => parseDaemonArgv(['--nope'])).toThrow(/--nope/);
    expect(() => parseDaemonArgv(['extra'])).toThrow(OptionsError);
  });

  it('refuses a daemon.json that is not JSON, not an object, has unknown keys or bad values', async () => {
    const file = join(dir, 'daemon.json');
    await writeFile(file, '{');
    await expect(resolveWith([])).rejects.toThrow(/daemon\.json is not valid JSON/);
    await writeFile(file, '[]');
    await expect(resolveWith([])).rejects.toThrow(/must hold a JSON object/);
    await writeFile(file, '{"api_prot": 1}');
    await expect(resolveWith([])).rejects.toThrow(/unknown setting "api_prot"/);
    await writeFile(file, '{"api_port": "x"}');
    await expect(resolveWith([])).rejects.toThrow(/daemon\.json api_port: must be a port/);
  });
});
