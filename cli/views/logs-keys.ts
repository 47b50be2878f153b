// The logs view's keyboard, as a pure function: the state and one key in, the next state and what
// to do out (add or remove an IP rule, quit). LogsView.tsx only runs the effects, so every key is
// testable without a terminal.
import type { IpListType } from '../../shared/schemas/management-api.js';

export type LogsMode =
  | { kind: 'list' }
  | { kind: 'search'; draft: string }
  | { kind: 'detail' }
  /** A y/n question before an IP rule changes: `add` for b/w, `remove` for B/W. */
  | { kind: 'confirm'; op: IpRuleChange; list: IpListType; ip: string }
  | { kind: 'help' };

export interface LogsNav {
  page: number;
  totalPages: number;
  search: string;
  selected: number;
  /** Entries on the current page. */
  count: number;
  mode: LogsMode;
}

export type IpRuleChange = 'add' | 'remove';

export type LogsEffect = { kind: 'none' } | { kind: 'quit' } | { kind: 'ip-rule'; op: IpRuleChange; list: IpListType; ip: string };

/** The subset of Ink's Key this view reads. */
export interface KeyPress {
  upArrow?: boolean;
  downArrow?: boolean;
  return?: boolean;
  escape?: boolean;
  backspace?: boolean;
  delete?: boolean;
  ctrl?: boolean;
  pageUp?: boolean;
  pageDown?: boolean;
}

const none: LogsEffect = { kind: 'none' };

/** Lower case adds the selected IP to a list, upper case removes it (as `wafctl ip-rules add/remove`). */
const IP_RULE_KEYS: Record<string, { op: IpRuleChange; list: IpListType } | undefined> = {
  b: { op: 'add', list: 'blacklist' },
  w: { op: 'add', list: 'whitelist' },
  B: { op: 'remove', list: 'blacklist' },
  W: { op: 'remove', list: 'whitelist' },
};

export function onLogsKey(nav: LogsNav, input: string, key: KeyPress, selectedIp: string | undefined): [LogsNav, LogsEffect] {
  const mode = nav.mode;
  if (mode.kind === 'search') return [searchKey(nav, mode.draft, input, key), none];
  if (mode.kind === 'confirm') {
    if (input === 'y' || input === 'Y') return [{ ...nav, mode: { kind: 'list' } }, { kind: 'ip-rule', op: mode.op, list: mode.list, ip: mode.ip }];
    if (input === 'n' || input === 'N' || key.escape || input === 'q') return [{ ...nav, mode: { kind: 'list' } }, none];
    return [nav, none];
  }
  if (input === 'q') return [nav, { kind: 'quit' }];
  if (mode.kind === 'help' || mode.kind === 'detail') {
    if (key.escape || key.return || input === '?' || (mode.kind === 'help' && input === 'h')) return [{ ...nav, mode: { kind: 'list' } }, none];
    if (mode.kind === 'help') return [nav, none];
  }
  if (input === '?') return [{ ...nav, mode: { kind: 'help' } }, none];
  if (input === '/') return [{ ...nav, mode: { kind: 'search', draft: nav.search } }, none];
  if (key.upArrow || input === 'k') return [{ ...nav, selected: Math.max(0, nav.selected - 1) }, none];
  if (key.downArrow || input === 'j') return [{ ...nav, selected: Math.min(Math.max(0, nav.count - 1), nav.selected + 1) }, none];
  if (input === 'n' || key.pageDown) {
    return nav.page < nav.totalPages ? [{ ...nav, page: nav.page + 1, selected: 0 }, none] : [nav, none];
  }
  if (input === 'p' || key.pageUp) return nav.page > 1 ? [{ ...nav, page: nav.page - 1, selected: 0 }, none] : [nav, none];
  if (key.return && nav.count > 0) return [{ ...nav, mode: { kind: 'detail' } }, none];
  if (!selectedIp) return [nav, none];
  // The selected client's recent events: the API's exact-IP search, from the first page.
  if (input === 'i') return [{ ...nav, search: selectedIp, page: 1, selected: 0, mode: { kind: 'list' } }, none];
  const rule = IP_RULE_KEYS[input];
  if (rule) return [{ ...nav, mode: { kind: 'confirm', ...rule, ip: selectedIp } }, none];
  return [nav, none];
}

function searchKey(nav: LogsNav, draft: string, input: string, key: KeyPress): LogsNav {
  if (key.escape) return { ...nav, mode: { kind: 'list' } };
  // Same semantics as the API's `search`: the term is sent as typed (trimmed); empty clears it.
  if (key.return) return { ...nav, search: draft.trim(), page: 1, selected: 0, mode: { kind: 'list' } };
  if (key.backspace || key.delete) return { ...nav, mode: { kind: 'search', draft: [...draft].slice(0, -1).join('') } };
  if (key.ctrl && input === 'u') return { ...nav, mode: { kind: 'search', draft: '' } };
  if (input && !key.ctrl && !key.upArrow && !key.downArrow) return { ...nav, mode: { kind: 'search', draft: (draft + input).slice(0, 256) } };
  return nav;
}
