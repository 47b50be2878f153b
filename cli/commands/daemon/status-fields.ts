// How a daemon status reads for a human (daemon status, daemon start).
import type { DaemonStatusView } from '../../admin-api.js';

export function formatUptime(seconds: number): string {
  const s = Math.floor(seconds);
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const parts = d ? [`${d}d`, `${h}h`, `${m}m`] : h ? [`${h}h`, `${m}m`, `${s % 60}s`] : m ? [`${m}m`, `${s % 60}s`] : [`${s % 60}s`];
  return parts.join(' ');
}

export function statusFields(status: DaemonStatusView): Array<[string, string]> {
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
    ['core rule set', status.crs.found ? status.crs.dir : `not found (looked in ${status.crs.dir})`],
    ['workers', String(status.workers)],
  ];
}
