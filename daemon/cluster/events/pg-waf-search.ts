// /waf-logs over waf_events: the JSONL store's search semantics (the same term classifier, keys
// derived the same way by waf-event-row.ts), exact totals, newest first by event time (ts, then
// id: an hour-old batch shipped after an outage lands where its time puts it, not on top), and
// stable pages: `as_of_id` is the id sequence's last value, read while no shipping transaction
// holds uncommitted ids (ship-batch.ts), so pages fetched with it never gain or lose rows.
import type { Pool, PoolClient } from 'pg';
import type { WafLogEntry } from '../../../shared/schemas/events.js';
import { rfc5952 } from '../../../shared/ipv6-text.js';
import type { WafLogQuery, WafLogResult } from '../../store/event-store.js';
import { eventAction } from '../../store/events/event-action.js';
import type { Cidr } from '../../store/events/ip-address.js';
import { REQUEST_ID_RE } from '../../store/events/request-lookup.js';
import { checkQuery, classifySearch, NOT_LITERAL_IN_URI, type KnownKeys, type SearchFilter } from '../../store/events/waf-search.js';
import { WafctlError } from '../../../shared/errors.js';
import { isUnreachable } from '../unreachable.js';
import { checkout } from './checkout.js';
import { ADVISORY_LOCKS } from '../advisory-locks.js';
import { uriOnOneLine, withoutNul } from './waf-event-row.js';

/** WHERE conditions after site, visibility and snapshot ($1-$3), and their values from $4 on. */
interface Condition {
  sql: string;
  values: unknown[];
}

/**
 * How long a search's count and page may take together. The exact total of a URI substring found
 * in millions of events over 90 days can take seconds (design: 142-233 ms at 1M); rather than hold
 * a connection and the operator indefinitely, such a search answers 503 search_timeout and asks for
 * a narrower term (the decision the scale-out issue left open: a bound, not a period parameter,
 * since the spec's /waf-logs has none).
 */
export const SEARCH_TIMEOUT_MS = 10_000;

export async function searchWafLogsPg(pool: Pool, q: WafLogQuery, visibleFrom: number, timeoutMs = SEARCH_TIMEOUT_MS): Promise<WafLogResult> {
  checkQuery(q);
  const { client, release } = await checkout(pool);
  let broken: Error | undefined;
  let open = false;
  try {
    const asOf = q.before_id ?? (await snapshotId(client, timeoutMs));
    const term = q.search?.trim() ?? '';
    await client.query('BEGIN READ ONLY');
    open = true;
    await client.query(`SET LOCAL statement_timeout = ${Math.max(1, Math.floor(timeoutMs))}`);
    const condition = REQUEST_ID_RE.test(term)
      ? { sql: 'AND request_id = $4', values: [term] }
      : conditionOf(classifySearch(term, await knownKeys(client, q.site_id, term, visibleFrom)));
    const base = [q.site_id, new Date(visibleFrom).toISOString(), asOf, ...condition.values];
    const where = `WHERE site_id = $1 AND ts >= $2 AND id <= $3 ${condition.sql}`;
    const total = Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM waf_events ${where}`, base)).rows[0]!.n);
    const n = base.length;
    const page = await client.query<{ id: string; doc: Record<string, unknown> }>(
      `SELECT id, doc FROM waf_events ${where} ORDER BY ts DESC, id DESC LIMIT $${n + 1} OFFSET $${n + 2}`,
      [...base, q.per_page, (q.page - 1) * q.per_page],
    );
    await client.query('COMMIT');
    open = false;
    const logs = page.rows.map((r) => entryOf(Number(r.id), r.doc, q.with_action === true));
    return { logs, pagination: { page: q.page, per_page: q.per_page, total, total_pages: Math.ceil(total / q.per_page) }, as_of_id: asOf };
  } catch (error) {
    // A connection that failed is not given back; one that refused a term (ip:foo) is fine.
    if (isUnreachable(error)) broken = error as Error;
    else if (open) await client.query('ROLLBACK').catch((rollback: Error) => { broken = rollback; });
    // 57014 query_canceled: the statement timeout (nothing else cancels a search).
    if ((error as { code?: string }).code === '57014') throw new WafctlError('search_timeout', `The search took longer than ${timeoutMs / 1000} s; narrow it (an IP, a rule id, a longer URI substring) and retry.`);
    throw error;
  } finally {
    release(broken);
  }
}

/** The newest id every one of whose ids below is committed: taken while no shipper holds uncommitted ids. */
async function snapshotId(client: PoolClient, timeoutMs: number): Promise<number> {
  await client.query('BEGIN');
  try {
    // Bounded too: a shipping transaction stuck behind a lock would otherwise hold the search.
    await client.query(`SET LOCAL statement_timeout = ${Math.max(1, Math.floor(timeoutMs))}`);
    await client.query('SELECT pg_advisory_xact_lock($1)', [ADVISORY_LOCKS.eventsSnapshot]);
    const { rows } = await client.query<{ v: string }>('SELECT CASE WHEN is_called THEN last_value ELSE 0 END AS v FROM waf_events_id_seq');
    await client.query('COMMIT');
    return Number(rows[0]!.v);
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/**
 * A bare word is a rule id or a group when the site has events with it (as the JSONL index's
 * postings tell): asked only when the classifier would otherwise read the word as a URI.
 */
async function knownKeys(client: PoolClient, siteId: number, term: string, visibleFrom: number): Promise<KnownKeys | undefined> {
  if (classifySearch(term).kind !== 'uri' || /^(ip|rule|group|uri):/i.test(term)) return undefined;
  const key = withoutNul(term.toLowerCase());
  const from = new Date(visibleFrom).toISOString();
  const { rows } = await client.query<{ rule: boolean; grp: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM waf_events WHERE site_id = $1 AND rule_key = $2 AND ts >= $3) AS rule,
            EXISTS (SELECT 1 FROM waf_events WHERE site_id = $1 AND grp_key = $2 AND ts >= $3) AS grp`,
    [siteId, key, from],
  );
  const { rule, grp } = rows[0]!;
  return { byRule: { has: (k) => rule && k === term.toLowerCase() }, byGroup: { has: (k) => grp && k === term.toLowerCase() } };
}

function conditionOf(f: SearchFilter): Condition {
  switch (f.kind) {
    case 'none':
      return { sql: '', values: [] };
    case 'ip':
      return { sql: 'AND client_ip = $4::inet', values: [f.key] };
    case 'cidr':
      return { sql: 'AND client_ip <<= network($4::inet)', values: [cidrText(f.cidr)] };
    case 'rule':
      return { sql: 'AND rule_key = $4', values: [withoutNul(f.key)] };
    case 'group':
      return { sql: 'AND grp_key = $4', values: [withoutNul(f.key)] };
    case 'uri': {
      const pattern = `%${withoutNul(f.needle).replace(/[\\%_]/g, '\\$&')}%`;
      // As the index does: only a needle a request line cannot carry as it is looks at decoded URIs.
      const decoded = NOT_LITERAL_IN_URI.test(f.needle) && !f.needle.includes('\n');
      return { sql: decoded ? 'AND (uri_key LIKE $4 OR uri_decoded LIKE $4)' : 'AND uri_key LIKE $4', values: [pattern] };
    }
  }
}

function cidrText(c: Cidr): string {
  if (c.v4) return `${c.net >>> 24}.${(c.net >>> 16) & 255}.${(c.net >>> 8) & 255}.${c.net & 255}/${c.prefix}`;
  return `${rfc5952(c.groups!)}/${c.prefix}`;
}

function entryOf(id: number, doc: Record<string, unknown>, withAction: boolean): WafLogEntry {
  const entry: WafLogEntry = {
    id,
    event_timestamp: new Date(doc.timestamp_ms as number).toISOString(),
    client_ip: doc.client_ip as string,
    uri: uriOnOneLine(doc.uri as string),
    waf_rule_id: doc.rule_id as string,
    group: doc.group as string,
    host: doc.host as string,
  };
  if (withAction) entry.action = eventAction(typeof doc.action === 'string' ? doc.action : undefined, entry.group, entry.waf_rule_id);
  return entry;
}
