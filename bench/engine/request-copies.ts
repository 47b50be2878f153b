// Copies of a benchmark request, so that a run can look like real traffic rather than one
// request object replayed:
// - same: the request itself every time;
// - fresh: equal values in new string objects, as node:http makes them per request (nothing
//   that keys on string identity or a string's cached hash gets a free ride);
// - unique: every letter and digit of the URI, header values (but Host, Content-Length and
//   Content-Type) and body replaced at random by one of the same kind, %XX escapes kept: values
//   never repeat across requests (the worst case for anything remembered across requests),
//   their shape and byte classes stay alike (JSON literals kept), and no verdict of a benign
//   request should change (an attack's payload is scrambled too: not the same request);
// - mixed: a returning browser with new content: header and cookie values as in 'fresh'; the
//   values of query and form arguments as in 'unique', their names kept, and the path of a GET
//   too (the same forms and parameters, new pages, new content posted to the same place).
import type { EngineRequest } from '../../daemon/engine/request/model.js';

export type CopyMode = 'same' | 'fresh' | 'unique' | 'mixed';

const copy = (s: string) => Buffer.from(s, 'latin1').toString('latin1');
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
// No 0: a number never gets a leading zero (the JSON body stays valid JSON).
const DIGIT = '123456789';
const pick = (set: string) => set[Math.floor(Math.random() * set.length)];

/** Letters and digits of `s` at random (each of its kind), %XX escapes as they were. */
function scramble(s: string): string {
  return s.replace(/%[0-9A-Fa-f]{2}|\b(?:true|false|null)\b|[a-z]|[A-Z]|[0-9]/g, (c) => {
    if (c.length > 1) return c; // an escape, or a JSON literal (the body stays valid JSON)
    if (c >= '0' && c <= '9') return pick(DIGIT);
    const lower = pick(LOWER);
    return c >= 'a' ? lower : lower.toUpperCase();
  });
}

const KEEP = new Set(['host', 'content-length', 'content-type']);

/** The path and every `name=value`'s value scrambled, names kept. */
function scrambleContent(s: string, keepPath: boolean): string {
  const query = s.indexOf('?');
  const path = query < 0 ? s : s.slice(0, query);
  const rest = query < 0 ? '' : s.slice(query);
  const values = (text: string) => text.replace(/=([^&]*)/g, (_, v: string) => `=${scramble(v)}`);
  // A body (no leading '/') is all arguments; a URI has a path first.
  return s.startsWith('/') ? (keepPath ? path : scramble(path)) + values(rest) : values(s);
}

function copyOf(r: EngineRequest, mode: CopyMode): EngineRequest {
  if (mode === 'same') return r;
  const header = mode === 'unique' ? scramble : copy;
  const posted = r.body !== undefined;
  const content = mode === 'fresh' ? copy : mode === 'mixed' ? (s: string) => scrambleContent(s, posted) : scramble;
  return {
    ...r,
    uri: content(r.uri),
    headers: r.headers.map(([n, v]) => [copy(n), KEEP.has(n.toLowerCase()) ? copy(v) : header(v)] as [string, string]),
    body: r.body === undefined ? undefined : Buffer.from(content(r.body.toString('latin1')), 'latin1'),
  };
}

/** `count` copies of `request` (one for 'same'), to be used in turn. */
export function requestCopies(request: EngineRequest, mode: CopyMode, count = 256): EngineRequest[] {
  if (mode === 'same') return [request];
  if (!['fresh', 'unique', 'mixed'].includes(mode)) throw new Error(`--vary: same, fresh, unique or mixed, not "${mode}"`);
  return Array.from({ length: count }, () => copyOf(request, mode));
}
