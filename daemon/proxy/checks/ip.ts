import type { BanLookup } from '../../bans/ban-table.js';
import type { EdgeRequest } from '../edge-request.js';
import type { Block } from './outcome.js';

// Step 3 of the pipeline. The whitelist wins over everything (even the blacklist and bans): an
// operator who lists an address there means "never block this one". Then the site's live bans
// (daemon/bans/), then the blacklist.

export type IpOutcome = 'whitelisted' | Block | null;

export function checkIp(req: EdgeRequest, bans?: BanLookup): IpOutcome {
  const { site, client } = req;
  if (site.ipWhitelist.size > 0 && site.ipWhitelist.has(client)) return 'whitelisted';
  const ban = bans?.banned(site.id, client, req.receivedAt);
  if (ban) {
    return {
      kind: 'block', group: 'ban', ruleId: 'ban', severity: 'CRITICAL',
      msg: `Client address is banned until ${new Date(ban.expiresAtMs).toISOString()}${ban.reason ? ` (${ban.reason})` : ''}`,
      matchedVar: 'REMOTE_ADDR', matchedData: client.text,
    };
  }
  if (site.ipBlacklist.size > 0 && site.ipBlacklist.has(client)) {
    return {
      kind: 'block', group: 'ip', ruleId: 'ip-blacklist', severity: 'CRITICAL',
      msg: 'Client address is on the site blacklist', matchedVar: 'REMOTE_ADDR', matchedData: client.text,
    };
  }
  return null;
}
