import type { EdgeRequest } from '../edge-request.js';
import type { Block } from './outcome.js';

// Step 3 of the pipeline. The whitelist wins over everything (even the blacklist): an operator
// who lists an address there means "never block this one".

export type IpOutcome = 'whitelisted' | Block | null;

export function checkIp(req: EdgeRequest): IpOutcome {
  const { site, client } = req;
  if (site.ipWhitelist.size > 0 && site.ipWhitelist.has(client)) return 'whitelisted';
  if (site.ipBlacklist.size > 0 && site.ipBlacklist.has(client)) {
    return {
      kind: 'block', group: 'ip', ruleId: 'ip-blacklist', severity: 'CRITICAL',
      msg: 'Client address is on the site blacklist', matchedVar: 'REMOTE_ADDR', matchedData: client.text,
    };
  }
  return null;
}
