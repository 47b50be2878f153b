// A management API in memory for the view tests: /waf-logs with the API's search semantics
// (exact IP, CIDR, rule id, group, URI substring) and paging, /waf-logs/{id} from `details`,
// /analytics per period (and its top lists), the two IP-rule POSTs and the DELETE. Only a stand-in inside unit tests; test/e2e/tui.test.ts runs the real daemon.
import { act } from 'react';
import { ApiError } from '../../../shared/api-client/index.js';
import type { Analytics, WafLogEntry } from '../../../shared/schemas/management-api.js';
import type { TopList } from '../../../shared/schemas/top-lists.js';
import type { WafRequestDetail } from '../../../shared/schemas/waf-request.js';
import type { ViewApi } from '../../../cli/views/view-api.js';

export function wafEntry(id: number, overrides: Partial<WafLogEntry> = {}): WafLogEntry {
  return {
    id,
    event_timestamp: new Date(Date.UTC(2026, 10, 22, 6, 0, id)).toISOString(),
    client_ip: `198.51.100.${id % 250}`,
    uri: `/wp-login.php?try=${id}`,
    waf_rule_id: id % 2 ? '942100' : '200001',
    group: id % 2 ? 'crs' : 'cms',
    host: 'shop.example.test',
    action: 'blocked',
    ...overrides,
  };
}

export class FakeViewApi implements ViewApi {
  /** Stored oldest first, like the store; served newest first. */
  entries: WafLogEntry[] = [];
  analytics = new Map<string, Analytics>();
  /** Top lists by `period:kind`, served as the daemon does: `data.top`, cut to `limit`. */
  tops = new Map<string, TopList>();
  /** GET /waf-logs/{id} answers by event id; a missing id is 404 not_found, like the daemon. */
  details = new Map<number, WafRequestDetail>();
  /** While set, GET /waf-logs/{id} waits for it: the test sees the loading state, then releases it. */
  detailGate?: Promise<void>;
  /** IPs on each list, for the DELETE: removing one that is not there is 404 not_found. */
  listed = { blacklist: new Set<string>(), whitelist: new Set<string>() };
  failWith?: ApiError;
  calls: Array<{ method: string; path: string; query?: Record<string, unknown>; body?: unknown }> = [];

  async get<T>(path: string, query: Record<string, string | number | undefined> = {}): Promise<T> {
    this.calls.push({ method: 'GET', path, query });
    if (this.failWith) throw this.failWith;
    if (path === '/analytics') {
      const data = this.analytics.get(String(query.period ?? '24h'));
      if (!data) throw new ApiError('not_found', 'no analytics', { status: 404 });
      if (query.top === undefined) return data as T;
      const top = this.tops.get(`${String(query.period ?? '24h')}:${String(query.top)}`);
      if (!top) throw new ApiError('not_found', `no top ${String(query.top)}`, { status: 404 });
      const limit = Number(query.limit ?? 10);
      return { ...data, top: { ...top, limit, items: top.items.slice(0, limit) } } as T;
    }
    const detailId = /^\/waf-logs\/(\d+)$/.exec(path);
    if (detailId) {
      await this.detailGate;
      const detail = this.details.get(Number(detailId[1]));
      if (!detail) throw new ApiError('not_found', `no WAF event of shop.example.test has the id ${detailId[1]}`, { status: 404 });
      return structuredClone(detail) as T;
    }
    const perPage = Number(query.per_page ?? 50);
    const page = Number(query.page ?? 1);
    const matching = [...this.entries].reverse().filter((e) => matches(e, String(query.search ?? '')));
    // Like the daemon: `action` is not a spec 2.4 field and is there only when asked for.
    const logs = matching.slice((page - 1) * perPage, page * perPage).map(({ action, ...row }) => (query.include === 'action' ? { ...row, action } : row));
    return { logs, pagination: { page, per_page: perPage, total: matching.length, total_pages: Math.max(1, Math.ceil(matching.length / perPage)) } } as T;
  }

  async request<T>(method: string, path: string, options: { body?: unknown } = {}) {
    this.calls.push({ method, path, body: options.body });
    if (this.failWith) throw this.failWith;
    if (method === 'DELETE') {
      const { ip, type } = options.body as { ip: string; type: 'blacklist' | 'whitelist' };
      if (!this.listed[type].delete(ip)) throw new ApiError('not_found', `${ip} is not in the ${type}`, { status: 404 });
      const message = `${ip} removed from the ${type}`;
      return { body: { success: true, message }, data: undefined as T, message, status: 200 };
    }
    const ip = (options.body as { ip: string }).ip;
    if (ip === '198.51.100.66') throw new ApiError('duplicate', `${ip} is already in the whitelist`, { status: 409 });
    const message = `${ip} added to the ${path.split('/').pop()}`;
    return { body: { success: true, message }, data: undefined as T, message, status: 201 };
  }
}

function matches(e: WafLogEntry, search: string): boolean {
  const term = search.trim().toLowerCase();
  if (!term) return true;
  if (term.endsWith('.0/24')) return e.client_ip.startsWith(term.slice(0, -4));
  return e.client_ip === term || e.waf_rule_id === term || e.group === term || e.uri.toLowerCase().includes(term);
}

/**
 * Types `keys` into an Ink view and returns once React has rendered the result and re-run its
 * effects (useInput re-subscribes its handler after each render: a key typed before that is handled
 * with the previous state). A fixed sleep did not do it: on a loaded machine the sleep's timer can
 * fire before React's scheduled work, so the next key or check saw the old frame.
 */
export async function typeKeys(stdin: { write(data: string): void }, keys: string): Promise<void> {
  const scope = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
  const before = scope.IS_REACT_ACT_ENVIRONMENT;
  scope.IS_REACT_ACT_ENVIRONMENT = true; // only while typing: the fake API's answers arrive outside act
  try {
    await act(async () => {
      stdin.write(keys);
      await new Promise((r) => setImmediate(r)); // Ink hands a lone ESC over on the next turn
    });
  } finally {
    scope.IS_REACT_ACT_ENVIRONMENT = before;
  }
}

/**
 * Waits until `check` passes (Ink renders and the fake answers asynchronously). The timeout is only
 * an upper bound for a check that never passes: a loaded machine may take a while.
 */
export async function eventually(check: () => void, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      check();
      return;
    } catch (error) {
      if (Date.now() > until) throw error;
      await new Promise((r) => setTimeout(r, 10));
    }
  }
}
