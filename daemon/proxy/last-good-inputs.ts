import type { SiteProblem } from './site-fallback.js';
import { siteInputProblem } from './snapshot.js';
import type { EdgeConfigInput } from './snapshot-input.js';

// Per-site isolation at the input, in the process that owns the config (the daemon's primary):
// each site's input is checked on its own before the edge is handed the config, and a site that
// does not compile is replaced by its last good input, or, never having compiled, by an input that
// serves it unavailable (503 on its hosts). Done once here rather than in each edge worker, so
// every worker (a respawned one included) serves the same thing: the verdict for a request never
// depends on which worker took it. A site whose input did not change is not checked again.

const HOSTNAME = /^[A-Za-z0-9.-]{1,253}$/;
const UNAVAILABLE_ORIGIN = 'http://unavailable.invalid/';

type SiteIn = EdgeConfigInput['sites'][number];

export class LastGoodInputs {
  private good = new Map<number, { readonly json: string; readonly input: SiteIn }>();

  /** The config to build: every site in it compiles on its own. `problems`: what was replaced, and why. */
  select(config: EdgeConfigInput): { config: EdgeConfigInput; problems: SiteProblem[] } {
    const problems: SiteProblem[] = [];
    const next = new Map<number, { json: string; input: SiteIn }>();
    const sites = config.sites.map((raw, i) => {
      const r = raw as unknown as Record<string, unknown>;
      const id = Number.isSafeInteger(r.id) && (r.id as number) >= 0 ? (r.id as number) : null;
      const json = JSON.stringify(raw);
      const known = id === null ? undefined : this.good.get(id);
      const reason = known?.json === json ? null : siteInputProblem(raw, `sites.${i}`);
      if (reason === null) {
        if (id !== null) next.set(id, { json, input: raw });
        return raw;
      }
      const domain = typeof r.domain === 'string' ? r.domain.slice(0, 253) : '';
      const off = r.status === 'inactive' || r.status === 'deleted';
      if (known && !off) {
        next.set(id!, known);
        problems.push({ siteId: id, domain, reason, served: 'last-good' });
        return known.input;
      }
      problems.push({ siteId: id, domain, reason, served: 'unavailable' });
      return unavailable(r, id);
    });
    this.good = next; // sites gone from the config are forgotten
    return { config: { sites }, problems };
  }
}

/** An input that always compiles and answers 503 on the site's (valid) host names. */
function unavailable(r: Record<string, unknown>, id: number | null): SiteIn {
  const hosts = [r.domain, ...(Array.isArray(r.aliases) ? r.aliases : [])].filter((h): h is string => typeof h === 'string' && HOSTNAME.test(h));
  return {
    id: id ?? 0,
    domain: typeof r.domain === 'string' && HOSTNAME.test(r.domain) ? r.domain : `site-${id ?? 'unknown'}.unavailable.invalid`,
    aliases: [...new Set(hosts.filter((h) => h !== r.domain))],
    origin: UNAVAILABLE_ORIGIN,
    status: r.status === 'deleted' ? 'deleted' : 'inactive',
    isDefault: r.isDefault === true,
  };
}
