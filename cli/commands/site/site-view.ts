// How a site reads for a human: one table row (site list) or a field block (show, add, set...).
import type { SiteView } from '../../admin-api.js';
import type { Style } from '../../style.js';
import type { Column } from '../../table.js';

function paintStatus(text: string, style: Style): string {
  if (text === 'active') return style.green(text);
  if (text === 'deleted') return style.red(text);
  return style.yellow(text);
}

export const siteColumns: Column<SiteView>[] = [
  { header: 'ID', value: (s) => String(s.id), align: 'right' },
  { header: 'DOMAIN', value: (s) => s.domain },
  { header: 'ORIGIN', value: (s) => s.origin },
  { header: 'PLAN', value: (s) => s.plan },
  { header: 'STATUS', value: (s) => s.status, paint: paintStatus },
  { header: 'KEY', value: (s) => (s.has_key ? 'yes' : 'no') },
  { header: 'ALIASES', value: (s) => s.aliases.join(',') || '-' },
];

export function siteFields(site: SiteView): Array<[string, string]> {
  return [
    ['id', String(site.id)],
    ['domain', site.domain],
    ['aliases', site.aliases.join(', ') || '-'],
    ['origin', site.origin],
    ['plan', site.plan],
    ['status', site.status],
    ['api key', site.has_key ? 'set (only its hash is stored)' : 'none (create one with `wafctl site key ' + site.domain + '`)'],
    ...settingsFields(site),
    ['created', site.created_at],
    ['updated', site.updated_at],
  ];
}

// Shown only when it differs: at the same level it changes nothing.
function detection(s: NonNullable<SiteView['settings']>): string {
  return s.detection_paranoia !== undefined && s.detection_paranoia !== s.paranoia ? ` (detection ${s.detection_paranoia})` : '';
}

function settingsFields(site: SiteView): Array<[string, string]> {
  const s = site.settings;
  if (!s) return [];
  return [
    ['waf', `${s.mode}, paranoia ${s.paranoia}${detection(s)}, thresholds ${s.inbound_threshold}/${s.outbound_threshold}, crs ${s.groups.crs ? 'on' : 'off'}, cms ${s.groups.cms ? 'on' : 'off'}`],
    ['block response', s.block_response],
    ['engine error', s.on_engine_error === 'closed' ? 'closed (block)' : 'open (let through)'],
    ['body over limit', s.body_over_limit],
    ...(s.response_inspection ? [['response inspection', s.response_inspection] as [string, string]] : []),
    ...(s.block_user_enumeration !== undefined ? [['user enumeration', s.groups.cms ? (s.block_user_enumeration ? 'blocked' : 'allowed') : `${s.block_user_enumeration ? 'blocked' : 'allowed'} when cms is on`] as [string, string]] : []),
    ['default site', s.is_default ? 'yes' : 'no'],
    ['certificate', certificateLine(s)],
  ];
}

/** `ACME: valid until 2026-01-01T00:00:00.000Z (serial 0A1B)`, `ACME: pending`, `ACME: failed: why`. */
function certificateLine(s: NonNullable<SiteView['settings']>): string {
  if (s.tls === 'site') return "the site's own";
  if (s.tls !== 'acme' || !s.acme) return "the edge's generated one";
  const served = s.acme.not_after ? `, serving the one valid until ${s.acme.not_after}` : '';
  if (s.acme.state === 'valid') return `ACME: valid until ${s.acme.not_after} (serial ${s.acme.serial})`;
  if (s.acme.state === 'pending') return `ACME: pending (${s.acme.directory})${served}`;
  return `ACME: failed: ${s.acme.error}${served}`;
}
