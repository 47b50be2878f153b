import { readFileSync } from 'node:fs';
import { isbot } from 'isbot';
import { proxyAsset } from '../../assets.js';

// Sorts a User-Agent into what the bot check treats differently:
//   scanner  - on CRS's list of vulnerability scanners and attack tools (always blocked);
//   crawler  - claims to be a search engine we can verify by DNS (see crawler-verifier.ts);
//   automated - isbot recognises it as a non-browser client (curl, python-requests, other bots);
//   browser  - anything else.
// Matching follows CRS 913100 (@pmFromFile): case-insensitive substring. All patterns are
// compiled into one RegExp at load.

export type UaClass =
  | { kind: 'scanner'; match: string }
  | { kind: 'crawler'; engine: SearchEngine }
  | { kind: 'automated' }
  | { kind: 'browser' };

export interface SearchEngine {
  readonly name: string;
  /** Reverse DNS of a genuine crawler ends in one of these (each preceded by a dot). */
  readonly domains: readonly string[];
}

const ENGINES: ReadonlyArray<{ ua: RegExp; engine: SearchEngine }> = [
  { ua: /googlebot|adsbot-google|mediapartners-google|google-inspectiontool|googleother|storebot-google|apis-google/i,
    engine: { name: 'Google', domains: ['googlebot.com', 'google.com', 'googleusercontent.com'] } },
  { ua: /bingbot|msnbot|adidxbot|bingpreview/i, engine: { name: 'Bing', domains: ['search.msn.com'] } },
  { ua: /yandex(bot|images|mobilebot|accessibilitybot|renderresourcesbot)/i, engine: { name: 'Yandex', domains: ['yandex.ru', 'yandex.net', 'yandex.com'] } },
  { ua: /baiduspider/i, engine: { name: 'Baidu', domains: ['baidu.com', 'baidu.jp'] } },
  { ua: /applebot/i, engine: { name: 'Apple', domains: ['applebot.apple.com'] } },
  { ua: /yahoo! slurp/i, engine: { name: 'Yahoo', domains: ['crawl.yahoo.net'] } },
];

const SCANNER_LIST = proxyAsset('checks/bot/scanners-user-agents.data');

export function loadScannerPatterns(file: URL | string = SCANNER_LIST): string[] {
  return readFileSync(file, 'utf8').split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#'));
}

/** Distinct User-Agents remembered (real traffic repeats a few hundred); the cache is emptied when full. */
const CACHE_LIMIT = 10_000;

export class UserAgentClassifier {
  private readonly scanners: RegExp;
  // One cache per detectAutomated value: the regexes cost microseconds, a Map hit a fraction of one.
  private readonly cache = [new Map<string, UaClass>(), new Map<string, UaClass>()];

  constructor(scannerPatterns: readonly string[] = loadScannerPatterns()) {
    const escaped = scannerPatterns.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    this.scanners = escaped.length ? new RegExp(escaped.join('|'), 'i') : /$^/;
  }

  /** isbot's pattern is large (a few µs per call): it runs only when the caller needs 'automated'. */
  classify(userAgent: string, detectAutomated = true): UaClass {
    const cache = this.cache[detectAutomated ? 1 : 0];
    let found = cache.get(userAgent);
    if (found === undefined) {
      if (cache.size >= CACHE_LIMIT) cache.clear();
      found = this.classifyUncached(userAgent, detectAutomated);
      cache.set(userAgent, found);
    }
    return found;
  }

  private classifyUncached(userAgent: string, detectAutomated: boolean): UaClass {
    const scanner = this.scanners.exec(userAgent);
    if (scanner) return { kind: 'scanner', match: scanner[0] };
    for (const { ua, engine } of ENGINES) if (ua.test(userAgent)) return { kind: 'crawler', engine };
    // An empty User-Agent is automated too: every browser sends one.
    if (userAgent === '' || (detectAutomated && isbot(userAgent))) return { kind: 'automated' };
    return { kind: 'browser' };
  }
}
