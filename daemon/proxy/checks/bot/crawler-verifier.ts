import { promises as dns } from 'node:dns';
import type { SearchEngine } from './user-agent-class.js';

// Google's documented way to tell a real Googlebot from a fake one (Bing, Yandex, Baidu and
// Apple say the same): the reverse DNS name of the address must be in the engine's domain, and
// a forward lookup of that name must give the address back (anyone can set a PTR record for
// their own address; only the domain owner can make the forward record match).
//
// Results are cached per address and engine. DNS that does not answer in time (or fails with
// anything but "no such name") gives 'unknown': the request is let through and the result is
// cached briefly; blocking real crawlers whenever a resolver is slow would hurt the site more
// than letting a fake one through for a minute.

export interface DnsResolver {
  reverse(ip: string): Promise<string[]>;
  /** A and AAAA addresses of a name. */
  lookup(hostname: string): Promise<string[]>;
}

/** Real DNS (not getaddrinfo: /etc/hosts must not vouch for a crawler). */
export const systemResolver: DnsResolver = {
  reverse: (ip) => dns.reverse(ip),
  lookup: async (hostname) => {
    const [v4, v6] = await Promise.allSettled([dns.resolve4(hostname), dns.resolve6(hostname)]);
    const found = [...(v4.status === 'fulfilled' ? v4.value : []), ...(v6.status === 'fulfilled' ? v6.value : [])];
    if (found.length === 0 && v4.status === 'rejected') throw v4.reason;
    return found;
  },
};

export type CrawlerVerdict = 'verified' | 'fake' | 'unknown';

export interface CrawlerVerifierOptions {
  resolver?: DnsResolver;
  timeoutMs?: number;
  /** How long a verified/fake answer is trusted (default 1 h). */
  ttlMs?: number;
  /** How long an 'unknown' answer is kept before asking DNS again (default 60 s). */
  unknownTtlMs?: number;
  maxEntries?: number;
}

const NOT_FOUND = new Set(['ENOTFOUND', 'ENODATA', 'NXDOMAIN']);

export class CrawlerVerifier {
  private readonly cache = new Map<string, { verdict: CrawlerVerdict; expires: number }>();
  private readonly pending = new Map<string, Promise<CrawlerVerdict>>();
  private readonly resolver: DnsResolver;
  private readonly timeoutMs: number;
  private readonly ttlMs: number;
  private readonly unknownTtlMs: number;
  private readonly maxEntries: number;

  constructor(options: CrawlerVerifierOptions = {}) {
    this.resolver = options.resolver ?? systemResolver;
    this.timeoutMs = options.timeoutMs ?? 2000;
    this.ttlMs = options.ttlMs ?? 3_600_000;
    this.unknownTtlMs = options.unknownTtlMs ?? 60_000;
    this.maxEntries = options.maxEntries ?? 50_000;
  }

  /** A cached verdict without waiting, or a promise of the DNS answer. */
  verify(ip: string, engine: SearchEngine, now = Date.now()): CrawlerVerdict | Promise<CrawlerVerdict> {
    const key = `${engine.name}|${ip}`;
    const cached = this.cache.get(key);
    if (cached && cached.expires > now) return cached.verdict;
    let pending = this.pending.get(key);
    if (!pending) {
      pending = this.ask(ip, engine).then((verdict) => {
        this.pending.delete(key);
        if (this.cache.size >= this.maxEntries) this.cache.clear();
        this.cache.set(key, { verdict, expires: Date.now() + (verdict === 'unknown' ? this.unknownTtlMs : this.ttlMs) });
        return verdict;
      });
      this.pending.set(key, pending);
    }
    return pending;
  }

  private async ask(ip: string, engine: SearchEngine): Promise<CrawlerVerdict> {
    try {
      const names = await this.withTimeout(this.resolver.reverse(ip));
      const inDomain = names.map((n) => n.toLowerCase().replace(/\.$/, ''))
        .filter((n) => engine.domains.some((d) => n.endsWith(`.${d}`)));
      if (inDomain.length === 0) return 'fake';
      for (const name of inDomain) {
        try {
          const addrs = await this.withTimeout(this.resolver.lookup(name));
          if (addrs.some((a) => sameAddress(a, ip))) return 'verified';
        } catch (err) {
          if (!NOT_FOUND.has((err as NodeJS.ErrnoException).code ?? '')) return 'unknown';
        }
      }
      return 'fake';
    } catch (err) {
      return NOT_FOUND.has((err as NodeJS.ErrnoException).code ?? '') ? 'fake' : 'unknown';
    }
  }

  private withTimeout<T>(p: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(Object.assign(new Error('DNS timeout'), { code: 'ETIMEOUT' })), this.timeoutMs);
      p.then((v) => { clearTimeout(timer); resolve(v); }, (e) => { clearTimeout(timer); reject(e); });
    });
  }
}

function sameAddress(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase() || a.replace(/^::ffff:/i, '') === b.replace(/^::ffff:/i, '');
}
