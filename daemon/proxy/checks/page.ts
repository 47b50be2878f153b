import type { EdgeRequest } from '../edge-request.js';
import type { Block } from './outcome.js';

// Step 5. A protected path (prefix match, see path-prefix.ts; the most specific protected path
// applies) admits only its own IP list. The site whitelist has already returned before this.

export function checkPageProtection(req: EdgeRequest): Block | null {
  const table = req.site.pageProtection;
  if (table.size === 0) return null;
  const rule = table.match(req.path);
  if (!rule || rule.value.has(req.client)) return null;
  return {
    kind: 'block', group: 'page', ruleId: 'page-protection', severity: 'CRITICAL',
    msg: `Protected path ${rule.path} is restricted to its allowed addresses`,
    matchedVar: 'REQUEST_FILENAME', matchedData: req.path,
  };
}
