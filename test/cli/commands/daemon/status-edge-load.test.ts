import { describe, expect, it } from 'vitest';
import { formatEdgeLoad, statusFields } from '../../../../cli/commands/daemon/status-fields.js';
import { DaemonStatusSchema } from '../../../../shared/schemas/admin.js';
import { runCli } from '../../../../cli/run.js';
import { harness, STATUS } from '../../fakes.js';

// `wafctl daemon status`: the edge's load on one line for a human, as the schema's object for --json.

const LOAD = { in_flight: 12, admitted: 10_482, shed_in_flight: 35, shed_loop_delay: 2, worst_stall_ms: 612 };

describe('daemon status: edge load', () => {
  it('reads as one line, thousands grouped, the shed split by reason', () => {
    expect(formatEdgeLoad(LOAD)).toBe('12 in flight, 10,482 admitted, 37 shed (35 in-flight limit, 2 loop stall), worst stall 612 ms');
    expect(formatEdgeLoad({ ...LOAD, in_flight: 0, shed_in_flight: 0, shed_loop_delay: 0, worst_stall_ms: 0 })).toBe('0 in flight, 10,482 admitted, 0 shed, worst stall 0 ms');
  });

  it('is a field of the human output when the daemon reports it, and absent when it does not', () => {
    expect(statusFields({ ...STATUS, edge: LOAD })).toContainEqual(['edge load', formatEdgeLoad(LOAD)]);
    expect(statusFields({ ...STATUS, edge: null }).map(([label]) => label)).not.toContain('edge load');
    // daemon start prints the same fields, but a just-started edge has served nothing: no line of zeros.
    expect(statusFields({ ...STATUS, edge: LOAD }, { withLoad: false }).map(([label]) => label)).not.toContain('edge load');
  });

  it('the CLI prints it, and --json passes the object through', async () => {
    const h = harness();
    h.admin.status = async () => ({ ...STATUS, edge: LOAD });
    expect(await runCli(['daemon', 'status'], h.deps)).toBe(0);
    expect(h.io.out()).toMatch(/edge load\s+12 in flight, 10,482 admitted, 37 shed \(35 in-flight limit, 2 loop stall\), worst stall 612 ms/);
    const j = harness();
    j.admin.status = async () => ({ ...STATUS, edge: LOAD });
    expect(await runCli(['daemon', 'status', '--json'], j.deps)).toBe(0);
    expect(JSON.parse(j.io.out()).edge).toEqual(LOAD);
  });

  it('the schema: the daemon\'s object is checked, and an older daemon without the field parses as null', () => {
    const wire = { ...STATUS, demo: null };
    expect(DaemonStatusSchema.parse({ ...wire, edge: LOAD }).edge).toEqual(LOAD);
    expect(DaemonStatusSchema.parse(wire).edge).toBeNull();
    expect(DaemonStatusSchema.safeParse({ ...wire, edge: { ...LOAD, admitted: -1 } }).success).toBe(false);
    expect(DaemonStatusSchema.safeParse({ ...wire, edge: { ...LOAD, admitted: undefined } }).success).toBe(false);
  });
});
