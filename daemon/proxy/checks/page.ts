import type { EdgeRequest } from '../edge-request.js';
import type { PrefixRule } from '../path-prefix.js';
import type { IpSet } from '../ip-set.js';
import type { Block } from './outcome.js';

// Step 5. A protected path (prefix match, see path-prefix.ts; the most specific protected path
// applies) admits only its own IP list. The site whitelist has already returned before this.
// A path with `..` segments is judged in both its forms (resolved, and as written, for origins
// that route on the raw path): refused if either lands on a protected path the client is not
// allowed on.

export function checkPageProtection(req: EdgeRequest): Block | null {
  const table = req.site.pageProtection;
  if (table.size === 0) return null;
  const denied = refusing(table.match(req.path), req) ?? (req.pathUnresolved ? refusing(table.match(req.pathUnresolved), req) : undefined);
  if (!denied) return null;
  return {
    kind: 'block', group: 'page', ruleId: 'page-protection', severity: 'CRITICAL',
    msg: `Protected path ${denied.path} is restricted to its allowed addresses`,
    matchedVar: 'REQUEST_FILENAME', matchedData: req.path,
  };
}

function refusing(rule: PrefixRule<IpSet> | undefined, req: EdgeRequest): PrefixRule<IpSet> | undefined {
  return rule && !rule.value.has(req.client) ? rule : undefined;
}
