// The logs view's b/w/B/W after y: the same management API calls as `wafctl ip-rules add` and
// `wafctl ip-rules remove`, answered with the line the view shows.
import type { WafLogEntry } from '../../shared/schemas/management-api.js';
import type { IpListType } from '../../shared/schemas/management-api.js';
import type { IpRuleChange } from './logs-keys.js';
import type { ViewApi } from './view-api.js';

export interface IpRuleRequest {
  op: IpRuleChange;
  list: IpListType;
  ip: string;
}

/** What the view says while the call runs. */
export function pendingText({ op, list, ip }: IpRuleRequest): string {
  return op === 'add' ? `adding ${ip} to the ${list}…` : `removing ${ip} from the ${list}…`;
}

/** Runs the change; resolves to the API's message, rejects with its error (shown as `error: code: message`). */
export async function changeIpRule(api: ViewApi, change: IpRuleRequest, selected: WafLogEntry | undefined): Promise<string> {
  const { op, list, ip } = change;
  if (op === 'remove') {
    const result = await api.request('DELETE', '/ip-rules', { body: { ip, type: list } });
    return result.message ?? `${ip} removed from the ${list}`;
  }
  // The rule says where it came from (the spec caps a description at 100 characters).
  const description = selected ? `wafctl logs: rule ${selected.waf_rule_id} (${selected.group})` : 'wafctl logs';
  const result = await api.request('POST', `/ip-rules/${list}`, { body: { ip, description: description.slice(0, 100) } });
  return result.message ?? `${ip} added to the ${list}`;
}
