// How the vulnerability database status reads for a human (vulndb status, import, refresh).
import type { RefreshStatus, VulnDbStatus } from '../../../shared/schemas/vulndb.js';

export function vulndbStatusFields(status: VulnDbStatus): Array<[string, string]> {
  const fields: Array<[string, string]> = [];
  if (!status.loaded) {
    fields.push(['loaded', 'no']);
    if (status.error !== undefined) fields.push(['error', status.error]);
  } else {
    fields.push(
      ['loaded', 'yes'],
      ['source', status.source],
      ['source kind', status.source_kind],
      ['variant', `${status.variant.api} ${status.variant.feed}`],
      ['imported at', status.imported_at],
      ['records', String(status.records)],
      ['skipped', String(status.skipped)],
      ['duplicates', String(status.duplicates)],
      ['sha256', status.sha256],
      ['size', formatBytes(status.bytes)],
      ['import took', formatDuration(status.duration_ms)],
    );
  }
  if (status.refresh !== undefined) fields.push(...refreshFields(status.refresh));
  return fields;
}

function refreshFields(refresh: RefreshStatus): Array<[string, string]> {
  const fields: Array<[string, string]> = [['refresh', `${refresh.url} every ${formatDuration(refresh.interval_s * 1000)}`]];
  if (refresh.last_attempt_at !== null) fields.push(['last refresh', `${refresh.last_attempt_at} (${refresh.last_result ?? 'running'})`]);
  if (refresh.last_error !== null) fields.push(['refresh error', refresh.last_error]);
  if (refresh.next_at !== null) fields.push(['next refresh', refresh.next_at]);
  return fields;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  const s = ms / 1000;
  if (s < 120) return `${s.toFixed(s < 10 ? 1 : 0)} s`;
  if (s < 3600) return `${Math.round(s / 60)} min`;
  return `${Number((s / 3600).toFixed(1))} h`;
}

/** The one-line advice when nothing is loaded. */
export const NO_DATABASE_HINT = 'import the Wordfence Intelligence feed with `wafctl vulndb import FILE|URL`';
