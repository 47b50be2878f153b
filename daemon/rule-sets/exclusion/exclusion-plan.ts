// Which rules an exclusion for one blocked request names, on which variable, on which path
// (`wafctl rules exclude`). Decisions (also in man/wafctl-rules.1):
// - The request must be a WAF block or a detect-mode match (a site being tuned before `mode on`);
//   a rate limit, a bot challenge or an ingested event has nothing a rule exclusion could change.
// - The rules named are every CRS or cms rule that matched the request, except CRS's own
//   bookkeeping: the blocking evaluation (949xxx, 959xxx) and correlation (980xxx) rules. Those
//   add no score; they refuse because the others scored, so excluding the others is enough.
// - A variable with a plain name (`ARGS:post_content`, `REQUEST_HEADERS:User-Agent`,
//   `REQUEST_COOKIES:wp_session`) is narrowed to that member. Anything else (a whole variable such
//   as REQUEST_BODY or REQUEST_FILENAME, a count like &ARGS, TX:, a name with characters SecLang
//   would need quoted) cannot be written as one target, so the whole rule is removed on that path,
//   with a warning that says so.
import { WafctlError } from '../../../shared/errors.js';
import type { StoredWafEvent } from '../../../shared/schemas/events.js';
import type { ExcludedTarget } from '../../../shared/schemas/rule-exclusion.js';
import { requestAction } from '../../api/v1/waf-request-detail.js';

export interface ExclusionPlan {
  requestId: string;
  eventIds: number[];
  path: string;
  targets: ExcludedTarget[];
  warnings: string[];
}

/** Collections whose members a ctl:ruleRemoveTargetById can name one by one. */
const KEYED = new Set([
  'ARGS', 'ARGS_GET', 'ARGS_POST', 'ARGS_NAMES', 'ARGS_GET_NAMES', 'ARGS_POST_NAMES',
  'REQUEST_HEADERS', 'REQUEST_HEADERS_NAMES', 'REQUEST_COOKIES', 'REQUEST_COOKIES_NAMES', 'FILES', 'FILES_NAMES',
]);
/** A member name that needs no quoting inside an action list (no comma, quote, colon, space, macro). */
const PLAIN_KEY = /^[A-Za-z0-9_.\-[\]]{1,200}$/;
/** A path that can stand in "@streq ..." as it is: printable ASCII, no quote, backslash or macro. */
const PLAIN_PATH = /^\/[\x21\x23-\x5b\x5d-\x7e]{0,2047}$/;

/** CRS's blocking evaluation and correlation rules: they score nothing themselves. */
export function isBookkeepingRule(ruleId: string): boolean {
  return /^9(49|59|80)\d{3}$/.test(ruleId);
}

/** A rule whose match an exclusion can take away: CRS or cms, a numbered rule, not bookkeeping. */
export function isExcludableMatch(e: Pick<StoredWafEvent, 'group' | 'rule_id'>): boolean {
  return (e.group === 'crs' || e.group === 'cms') && /^\d+$/.test(e.rule_id) && !isBookkeepingRule(e.rule_id);
}

export function planExclusion(events: readonly StoredWafEvent[], ref: string): ExclusionPlan {
  const first = events[0];
  if (first.request_id === undefined) {
    throw new WafctlError('not_excludable', `event ${ref} was ingested through the API and has no request id: there is no request of this daemon to replay or exclude`);
  }
  const action = requestAction(events);
  if (action !== 'blocked' && action !== 'detected') {
    throw new WafctlError('not_excludable', `request ${first.request_id} was ${action}, not refused by a WAF rule: a rule exclusion would not change it`);
  }
  const path = requestPath(first.uri);
  if (!PLAIN_PATH.test(path) || path.includes('%{')) {
    throw new WafctlError('not_excludable', `the path of request ${first.request_id} (${JSON.stringify(path)}) cannot be written as a SecLang operand as it is`);
  }
  const targets: ExcludedTarget[] = [];
  const warnings: string[] = [];
  const seen = new Set<string>();
  for (const e of events.filter(isExcludableMatch)) {
    const target = narrowTarget(e.matched_var);
    const key = `${e.rule_id} ${target ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    targets.push({ rule_id: e.rule_id, target, matched_var: e.matched_var ?? null });
    if (target === null) {
      warnings.push(`rule ${e.rule_id} matched ${e.matched_var ?? 'no recorded variable'}, which cannot be narrowed to one target: the whole rule is removed on ${path}`);
    }
  }
  if (targets.length === 0) {
    throw new WafctlError('not_excludable', `request ${first.request_id} matched no CRS or cms rule that an exclusion could name (only ${[...new Set(events.map((e) => e.rule_id))].join(', ')})`);
  }
  return { requestId: first.request_id, eventIds: events.map((e) => e.id), path, targets, warnings };
}

/** The variable as one ctl target, or null when the whole rule has to go. */
export function narrowTarget(matchedVar: string | undefined): string | null {
  if (matchedVar === undefined) return null;
  const colon = matchedVar.indexOf(':');
  if (colon <= 0) return null;
  const collection = matchedVar.slice(0, colon);
  const key = matchedVar.slice(colon + 1);
  return KEYED.has(collection) && PLAIN_KEY.test(key) ? `${collection}:${key}` : null;
}

/** REQUEST_FILENAME at phase 1: the request target's path as sent, without query or fragment. */
export function requestPath(uri: string): string {
  let rest = uri;
  const scheme = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(rest);
  if (scheme) rest = rest.slice(scheme[0].length) || '/';
  const end = rest.search(/[?#]/);
  return end === -1 ? rest : rest.slice(0, end);
}
