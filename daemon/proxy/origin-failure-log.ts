// The daemon log's line for an origin that failed (502/504 or a response cut short), as nginx's
// error log has one: the site, the origin, the reason and the request id. At most one line per site
// a minute: an origin that is down fails every request, and the log must not grow with the traffic
// (every request still has its reason in its access entry's `upstream_error`). The first failure
// after a quiet minute says how many were not logged since the last line.

const QUIET_MS = 60_000;

export interface OriginFailure {
  siteId: number;
  domain: string;
  origin: string;
  reason: string;
  status: number;
  requestId: string;
}

export class OriginFailureLog {
  private readonly lastLogged = new Map<number, { at: number; unlogged: number }>();

  constructor(
    private readonly write: (line: string) => void = (line) => console.warn(line),
    private readonly now: () => number = () => Date.now(),
  ) {}

  note(f: OriginFailure): void {
    const now = this.now();
    const last = this.lastLogged.get(f.siteId);
    if (last !== undefined && now - last.at < QUIET_MS) {
      last.unlogged++;
      return;
    }
    const more = last !== undefined && last.unlogged > 0 ? ` (${last.unlogged} more failures of this site since the last line)` : '';
    this.lastLogged.set(f.siteId, { at: now, unlogged: 0 });
    this.write(`edge: origin ${f.origin} of site ${f.domain} failed: ${f.reason}, answered ${f.status} to request ${f.requestId}${more}`);
  }
}
