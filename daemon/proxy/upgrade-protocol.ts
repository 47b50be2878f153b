import type { EdgeRequest } from './edge-request.js';
import { ruleEvent } from './edge-events.js';
import type { WafEvent } from './events.js';

// Which Upgrade requests may become a tunnel. A tunnel's bytes are never inspected, so it must
// not carry HTTP: `Upgrade: h2c` (cleartext HTTP/2, RFC 7540 3.2) turns the connection into an
// HTTP/2 session whose requests the edge would never see (h2c smuggling), and the same holds for
// `h2` and `HTTP/x` tokens. Such a request is served as plain HTTP/1.1, its Upgrade ignored, as
// nginx does with an upgrade it does not support (and as RFC 9110 7.8 lets a server do): the
// origin never hears of the upgrade. There is no per-site opt-in (see SECURITY.md).

/** The protocol names (before any "/version") that carry HTTP requests. */
const HTTP_CARRYING = new Set(['h2c', 'h2', 'http']);

/**
 * The Upgrade field value to send the origin, or null when the request must not be tunnelled
 * (an HTTP-carrying protocol is offered, or the list is empty).
 */
export function tunnelUpgrade(upgrade: string | undefined): string | null {
  if (!upgrade) return null;
  let any = false;
  for (const token of upgrade.split(',')) {
    const t = token.trim();
    if (!t) continue;
    if (carriesHttp(t)) return null;
    any = true;
  }
  return any ? upgrade : null;
}

/** One protocol token ("websocket", "h2c", "HTTP/2.0"). */
export function carriesHttp(token: string): boolean {
  const slash = token.indexOf('/');
  return HTTP_CARRYING.has((slash === -1 ? token : token.slice(0, slash)).trim().toLowerCase());
}

/** WAF event (action log: the request itself is served) for an upgrade the edge would not tunnel. */
export function upgradeIgnoredEvent(req: EdgeRequest, upgrade: string): WafEvent {
  return ruleEvent(req, {
    ruleId: 'upgrade-refused', group: 'edge', file: 'edge/upgrade',
    msg: 'Upgrade to a protocol that carries HTTP (h2c smuggling) refused: served as plain HTTP/1.1',
    severity: 'WARNING', matchedVar: 'REQUEST_HEADERS:Upgrade', matchedData: upgrade,
  }, false);
}
