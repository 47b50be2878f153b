// The request a `rules exclude` replay sends through the engine, rebuilt from what the store kept:
// a WAF event holds the method, the request target (with its query), the host, the user agent,
// and per matched rule the variable and the rule's log data, not the whole request. CRS logs
// `Matched Data: X found within ARGS:post_content: <value>`, so each matched variable's value is
// put back where it came from: an argument missing from the query as a urlencoded form field, a
// header as a header, a cookie in the Cookie header. What the event did not keep (other fields,
// other headers, a body in another format) is not replayed: the replay is of the stored parts,
// and its verdict before the exclusion (`blocked_before`) says whether they reproduce the block.
import type { StoredWafEvent } from '../../../shared/schemas/events.js';
import type { EngineRequest } from '../../engine/request/model.js';

interface Placed {
  form: Array<[string, string]>;
  headers: Map<string, [string, string]>;
  cookies: Array<[string, string]>;
}

export function replayRequest(events: readonly StoredWafEvent[]): EngineRequest {
  const first = events[0];
  const query = queryNames(first.uri);
  const placed: Placed = { form: [], headers: new Map(), cookies: [] };
  const done = new Set<string>();
  for (const e of events) {
    if (e.matched_var === undefined || done.has(e.matched_var)) continue;
    const value = loggedValue(e);
    if (value === null) continue;
    done.add(e.matched_var);
    place(placed, e.matched_var, value, query);
  }
  const headers: Array<[string, string]> = [['Host', first.host], ['User-Agent', first.user_agent ?? ''], ['Accept', '*/*']];
  for (const [name, value] of placed.headers.values()) {
    const at = headers.findIndex(([n]) => n.toLowerCase() === name.toLowerCase());
    if (at === -1) headers.push([name, value]);
    else if (name.toLowerCase() !== 'host') headers[at] = [name, value];
  }
  if (placed.cookies.length > 0) headers.push(['Cookie', placed.cookies.map(([n, v]) => `${n}=${v}`).join('; ')]);
  let body: Buffer | undefined;
  if (placed.form.length > 0) {
    body = Buffer.from(placed.form.map(([n, v]) => `${encodeURIComponent(n)}=${encodeURIComponent(v)}`).join('&'));
    headers.push(['Content-Type', 'application/x-www-form-urlencoded'], ['Content-Length', String(body.length)]);
  }
  return { remoteAddr: first.client_ip, remotePort: 0, method: first.method, uri: first.uri, protocol: 'HTTP/1.1', headers, body };
}

function place(placed: Placed, matchedVar: string, value: string, query: ReadonlySet<string>): void {
  const colon = matchedVar.indexOf(':');
  if (colon <= 0) return; // a whole variable (REQUEST_URI, QUERY_STRING, ...): the target already carries it
  const collection = matchedVar.slice(0, colon);
  const key = matchedVar.slice(colon + 1);
  switch (collection) {
    case 'ARGS':
    case 'ARGS_POST':
      if (!query.has(key)) placed.form.push([key, value]);
      return;
    case 'ARGS_NAMES':
    case 'ARGS_POST_NAMES':
      if (!query.has(key)) placed.form.push([key, '']);
      return;
    case 'REQUEST_HEADERS':
      placed.headers.set(key.toLowerCase(), [key, value]);
      return;
    case 'REQUEST_COOKIES':
      placed.cookies.push([key, value]);
      return;
    case 'REQUEST_COOKIES_NAMES':
      placed.cookies.push([key, '']);
      return;
    default:
      // ARGS_GET is in the stored URI; FILES, XML, TX and the rest cannot be rebuilt from a log line.
      return;
  }
}

/** The matched variable's value from CRS's log data, or null when the rule logged it another way. */
export function loggedValue(e: Pick<StoredWafEvent, 'matched_var' | 'matched_data'>): string | null {
  if (e.matched_var === undefined || e.matched_data === undefined) return null;
  const marker = ` found within ${e.matched_var}: `;
  const at = e.matched_data.indexOf(marker);
  return at === -1 ? null : e.matched_data.slice(at + marker.length);
}

function queryNames(uri: string): Set<string> {
  const q = uri.indexOf('?');
  const names = new Set<string>();
  if (q === -1) return names;
  for (const [name] of new URLSearchParams(uri.slice(q + 1).split('#')[0])) names.add(name);
  return names;
}
