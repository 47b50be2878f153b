// How a daemon status reads for a human (daemon status, daemon start).
import type { DaemonStatusView } from '../../admin-api.js';
import type { EdgeLoad } from '../../../shared/schemas/admin.js';
import { configLine, countersLine, eventsLine } from '../cluster/cluster-lines.js';
import { crsLine } from './crs-line.js';
import { writeFailureFields } from './write-failures.js';

export function formatUptime(seconds: number): string {
  const s = Math.floor(seconds);
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const parts = d ? [`${d}d`, `${h}h`, `${m}m`] : h ? [`${h}h`, `${m}m`, `${s % 60}s`] : m ? [`${m}m`, `${s % 60}s`] : [`${s % 60}s`];
  return parts.join(' ');
}

/** `withLoad: false` for `daemon start`, where the edge has served nothing yet. */
export function statusFields(status: DaemonStatusView, { withLoad = true } = {}): Array<[string, string]> {
  return [
    ['pid', String(status.pid)],
    ['version', status.version],
    ['uptime', formatUptime(status.uptime_s)],
    ['data dir', status.data_dir],
    ['edge', `http :${status.ports.edge}, https :${status.ports.edge_tls}`],
    ['api_url', status.api_url],
    ['ca_file', status.ca_file ?? '(operator certificate)'],
    ['admin socket', status.admin_socket],
    ['sites', String(status.sites)],
    ['core rule set', crsLine(status.crs)],
    ['workers', String(status.workers)],
    ...(status.edge && withLoad ? [['edge load', formatEdgeLoad(status.edge)] as [string, string]] : []),
    ...(status.certificates ?? []).map((c): [string, string] => [`certificate ${c.site}`, certificateState(c)]),
    ...(status.cluster?.config ? [['cluster config', configLine(status.cluster.config)] as [string, string]] : []),
    ...(status.cluster?.events ? [['cluster events', eventsLine(status.cluster.events)] as [string, string]] : []),
    ...(status.cluster?.events?.access ? [['cluster access', eventsLine(status.cluster.events.access)] as [string, string]] : []),
    ...(status.cluster?.counters ? [['cluster counters', countersLine(status.cluster.counters)] as [string, string]] : []),
    ...writeFailureFields(status),
  ];
}

/** `valid until 2026-01-01T00:00:00.000Z`, `pending`, `failed: why (serving the one valid until ...)`. */
function certificateState(c: NonNullable<DaemonStatusView['certificates']>[number]): string {
  if (c.state === 'valid') return `ACME, valid until ${c.not_after}`;
  const served = c.not_after ? ` (serving the one valid until ${c.not_after})` : '';
  return c.state === 'pending' ? `ACME, pending${served}` : `ACME, failed: ${c.error}${served}`;
}

const count = (n: number) => n.toLocaleString('en-US');

/** `12 in flight, 10,482 admitted, 37 shed (35 in-flight limit, 2 loop stall), worst stall 612 ms` */
export function formatEdgeLoad(load: EdgeLoad): string {
  const shed = load.shed_in_flight + load.shed_loop_delay;
  const why = shed > 0 ? ` (${count(load.shed_in_flight)} in-flight limit, ${count(load.shed_loop_delay)} loop stall)` : '';
  return `${count(load.in_flight)} in flight, ${count(load.admitted)} admitted, ${count(shed)} shed${why}, worst stall ${count(load.worst_stall_ms)} ms`;
}
