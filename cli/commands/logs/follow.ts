// `wafctl logs --follow` on a pipe: WAF events stored after it started, as NDJSON, one a line,
// oldest of each poll first, never the same id twice, until interrupted. Event ids grow in the order events are
// stored and /waf-logs lists newest first, so each poll reads pages from the newest until it
// meets an id already printed (or the end), then prints what it found in reverse.
import type { WafLogEntry, WafLogs } from '../../../shared/schemas/management-api.js';
import { ApiError } from '../../../shared/api-client/index.js';
import type { ViewApi } from '../../views/view-api.js';

export const FOLLOW_POLL_MS = 2000;
/** One poll reads at most this many pages: a burst larger than that is cut (and said so on stderr). */
const MAX_PAGES_PER_POLL = 20;
const PER_PAGE = 100;

export interface FollowOptions {
  search?: string;
  write(line: string): void;
  warn(message: string): void;
  sleep(ms: number): Promise<void>;
  /** Checked before every poll; the command never stops on its own (Ctrl+C or a closed pipe ends it). */
  stopped(): boolean;
  pollMs?: number;
}

export async function followLogs(api: ViewApi, options: FollowOptions): Promise<void> {
  let lastId: number | undefined;
  let first = true;
  while (!options.stopped()) {
    try {
      if (first) {
        // Like `tail -f` with no history: what is stored already is `wafctl logs --json`'s job.
        lastId = await newestId(api, options.search);
        first = false;
      } else {
        const fresh = await newerThan(api, lastId, options);
        for (const entry of [...fresh].reverse()) options.write(JSON.stringify(entry));
        if (fresh.length > 0) lastId = fresh[0].id;
      }
    } catch (error) {
      // A pipe into jq should survive a daemon restart or a rate limit; bad credentials or a bad
      // search will not get better by waiting, so those end the command.
      if (!isTransient(error)) throw error;
      options.warn(`${(error as ApiError).code}: ${(error as Error).message} (retrying)`);
    }
    if (options.stopped()) break;
    await options.sleep(options.pollMs ?? FOLLOW_POLL_MS);
  }
}

/** Entries with id > lastId (all of them when the store was empty at start), newest first. */
async function newerThan(api: ViewApi, lastId: number | undefined, options: FollowOptions): Promise<WafLogEntry[]> {
  const found: WafLogEntry[] = [];
  for (let page = 1; page <= MAX_PAGES_PER_POLL; page++) {
    const data = await api.get<WafLogs>('/waf-logs', { page, per_page: PER_PAGE, search: options.search, include: 'action' });
    for (const entry of data.logs) {
      if (lastId !== undefined && entry.id <= lastId) return found;
      found.push(entry);
    }
    if (page >= data.pagination.total_pages) return found;
  }
  options.warn(`more than ${MAX_PAGES_PER_POLL * PER_PAGE} new events since the last poll; older ones of this burst are skipped`);
  return found;
}

async function newestId(api: ViewApi, search: string | undefined): Promise<number | undefined> {
  const data = await api.get<WafLogs>('/waf-logs', { page: 1, per_page: 10, search });
  return data.logs[0]?.id;
}

function isTransient(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  return error.code === 'api_unreachable' || error.status === 429 || error.status >= 500;
}
