import { describe, expect, it } from 'vitest';
import { configLine, countersLine, eventsLine } from '../../../../cli/commands/cluster/cluster-lines.js';
import { statusFields } from '../../../../cli/commands/daemon/status-fields.js';
import { runCli } from '../../../../cli/run.js';
import { DaemonStatusSchema } from '../../../../shared/schemas/admin.js';
import { harness, STATUS } from '../../fakes.js';

// `wafctl cluster status`: one line per shared part for a human, the daemon's object for --json,
// not_clustered (exit 1) for a daemon that runs alone. The real daemon's fields are checked in
// test/cluster/cluster-status.test.ts.

const SINCE = '2026-11-27T22:00:00.000Z';
const CONFIG = { backend: 'postgres' as const, postgres: 'wafctl@db.internal:5432/wafctl', version: 12, state: 'listening' as const, since: SINCE };
const EVENTS = {
  backend: 'postgres' as const, node: '3f2c9a56-0d6e-4b6f-9d1e-5b8a1c2e7f00', state: 'shipping' as const, since: SINCE,
  shipped_through_id: 1234, spool_last_id: 1240, caught_up: true, shipped_since_start: 1200,
};
const COUNTERS = { backend: 'redis' as const, redis: 'redis://10.0.0.7:6379', state: 'exact' as const, since: SINCE, failure_mode: 'open' as const, command_timeout_ms: 50, failed_calls: 0 };
const CLUSTER = { counters: COUNTERS, config: CONFIG, events: EVENTS };

describe('cluster status lines', () => {
  it('say how changes reach the node, in each state', () => {
    expect(configLine(CONFIG)).toBe(`PostgreSQL wafctl@db.internal:5432/wafctl, version 12, listening since ${SINCE}`);
    expect(configLine({ ...CONFIG, state: 'polling' })).toContain('polling every 5 s (the LISTEN connection is down)');
    expect(configLine({ ...CONFIG, state: 'unreachable' })).toContain('unreachable: serving the last config, writes answer 503');
  });

  it('say whether the spool is shipped, and where it stands when it is not', () => {
    expect(eventsLine(EVENTS)).toBe(`shipping since ${SINCE}, caught up through local id 1,234, 1,200 shipped since start`);
    expect(eventsLine({ ...EVENTS, state: 'unreachable', caught_up: false }))
      .toBe(`unreachable since ${SINCE}, shipped through local id 1,234 of 1,240 (the rest waits in the local spool), 1,200 shipped since start`);
    expect(eventsLine({ ...EVENTS, state: 'failing', caught_up: false })).toMatch(/^failing \(see the daemon log\)/);
  });

  it('say what a degraded counter does', () => {
    expect(countersLine(COUNTERS)).toBe(`Redis redis://10.0.0.7:6379, exact since ${SINCE}`);
    expect(countersLine({ ...COUNTERS, state: 'degraded' })).toContain('degraded, counting on this node');
    expect(countersLine({ ...COUNTERS, state: 'degraded', failure_mode: 'deny' })).toContain('degraded, answering counted requests 429');
    expect(countersLine({ ...COUNTERS, failed_calls: 1234 })).toBe(`Redis redis://10.0.0.7:6379, exact since ${SINCE}, 1,234 calls answered on this node since start (Redis too slow or gone)`);
  });
});

describe('wafctl cluster status', () => {
  it('prints a line per part, and --json the object daemon status carries', async () => {
    const h = harness();
    h.admin.status = async () => ({ ...STATUS, cluster: CLUSTER });
    expect(await runCli(['cluster', 'status'], h.deps)).toBe(0);
    const out = h.io.out();
    expect(out).toMatch(/node\s+3f2c9a56-0d6e-4b6f-9d1e-5b8a1c2e7f00 \(pid \d+\)/);
    expect(out).toContain(configLine(CONFIG));
    expect(out).toContain(eventsLine(EVENTS));
    expect(out).toContain(countersLine(COUNTERS));
    const j = harness();
    j.admin.status = async () => ({ ...STATUS, cluster: CLUSTER });
    expect(await runCli(['cluster', 'status', '--json'], j.deps)).toBe(0);
    expect(JSON.parse(j.io.out())).toEqual(CLUSTER);
  });

  it('says which parts a node does not share (Redis alone, or an older daemon without config and events)', async () => {
    const h = harness();
    h.admin.status = async () => ({ ...STATUS, cluster: { counters: COUNTERS } });
    expect(await runCli(['cluster', 'status'], h.deps)).toBe(0);
    expect(h.io.out()).toMatch(/config\s+this node's own config\.json \(no --cluster-postgres\)/);
    const j = harness();
    j.admin.status = async () => ({ ...STATUS, cluster: { counters: null, config: CONFIG, events: EVENTS } });
    expect(await runCli(['cluster', 'status', '--json'], j.deps)).toBe(0);
    expect(JSON.parse(j.io.out())).toEqual({ counters: null, config: CONFIG, events: EVENTS });
    const k = harness();
    k.admin.status = async () => ({ ...STATUS, cluster: { counters: null, config: CONFIG, events: EVENTS } });
    expect(await runCli(['cluster', 'status'], k.deps)).toBe(0);
    expect(k.io.out()).toMatch(/rate limits\s+counted on this node alone \(no --cluster-redis\)/);
  });

  it('refuses a daemon that runs alone with not_clustered, exit 1, and prints nothing on stdout', async () => {
    for (const cluster of [null, undefined]) {
      const h = harness();
      h.admin.status = async () => ({ ...STATUS, cluster });
      expect(await runCli(['cluster', 'status', '--json'], h.deps)).toBe(1);
      expect(h.io.out()).toBe('');
      expect(h.io.err()).toMatch(/not_clustered: this daemon runs alone/);
    }
  });

  it('daemon status shows the same lines, and its schema takes the object (older daemons: null)', () => {
    const labels = statusFields({ ...STATUS, cluster: CLUSTER }).map(([label]) => label);
    expect(labels).toEqual(expect.arrayContaining(['cluster config', 'cluster events', 'cluster counters']));
    const wire = { ...STATUS, demo: null };
    expect(DaemonStatusSchema.parse({ ...wire, cluster: CLUSTER }).cluster).toEqual(CLUSTER);
    expect(DaemonStatusSchema.parse({ ...wire, cluster: { counters: null } }).cluster).toEqual({ counters: null, config: null, events: null });
    expect(DaemonStatusSchema.safeParse({ ...wire, cluster: { ...CLUSTER, config: { ...CONFIG, state: 'asleep' } } }).success).toBe(false);
  });
});
