// Per-site WAF settings: what they cost per request and per configuration change.
//   node --expose-gc --import tsx bench/waf-settings/bench.ts [--requests 3000]
// Prints CPU time per operation (process.cpuUsage, robust on a shared machine) and same-run ratios:
//  1. header hand-over to the engine: the previous per-request Buffer.from(value,'utf8') re-encoding
//     of every header vs engineHeaders (values pass as node gives them);
//  2. the rule-set lookup per request: RuleGroups.forSite (per-site settings) vs the previous
//     forParanoia map lookup;
//  3. a whole benign GET through CRS PL1 with each header hand-over;
//  4. per configuration change: CPU to compile one new combination of settings, heap it holds, and
//     how many compiles 50 sites with 3 distinct settings cost.
import { defaultRegistries } from '../../daemon/engine/default-registries.js';
import type { Waf } from '../../daemon/engine/waf.js';
import type { InspectedRequest } from '../../daemon/proxy/inspector.js';
import { buildEdgeSnapshot } from '../../daemon/proxy/snapshot.js';
import { engineHeaders } from '../../daemon/rule-sets/engine-request.js';
import { findCrs, RuleGroups } from '../../daemon/rule-sets/rule-groups.js';
import { defaultRuleSettings, ruleSettings } from '../../daemon/rule-sets/rule-settings.js';

void defaultRegistries;
const argv = process.argv.slice(2);
const REQUESTS = Number(argv[argv.indexOf('--requests') + 1]) || 3000;
const gc = (globalThis as { gc?: () => void }).gc;

const HEADERS: ReadonlyArray<readonly [string, string]> = [
  ['Host', 'shop.example.test'],
  ['User-Agent', 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0'],
  ['Accept', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'],
  ['Accept-Language', 'en-US,en;q=0.5'],
  ['Accept-Encoding', 'gzip, deflate, br, zstd'],
  ['Referer', 'https://shop.example.test/category/shoes/?orderby=price'],
  ['Cookie', 'wordpress_test_cookie=WP%20Cookie%20check; wp-settings-time-1=1732262400; woocommerce_items_in_cart=1'],
  ['Connection', 'keep-alive'],
  ['Upgrade-Insecure-Requests', '1'],
  ['Sec-Fetch-Dest', 'document'],
  ['Sec-Fetch-Mode', 'navigate'],
  ['Sec-Fetch-Site', 'same-origin'],
];

/** The previous hand-over: every value re-encoded, every request. */
function previousHeaders(headers: ReadonlyArray<readonly [string, string]>): Array<[string, string]> {
  return headers.map(([name, value]) => [name, Buffer.from(value, 'utf8').toString('latin1')] as [string, string]);
}

function cpuNsPerOp(ops: number, fn: () => void): number {
  for (let i = 0; i < Math.min(ops, 2000); i++) fn(); // warm-up
  const start = process.cpuUsage();
  for (let i = 0; i < ops; i++) fn();
  const used = process.cpuUsage(start);
  return ((used.user + used.system) * 1000) / ops;
}

let sink = 0;
const fmt = (ns: number) => (ns >= 10_000 ? `${(ns / 1000).toFixed(1)} us` : `${ns.toFixed(0)} ns`);
const line = (label: string, value: string) => console.log(`  ${label.padEnd(58)} ${value}`);

console.log(`WAF settings bench (node ${process.version}, load avg ${(await import('node:os')).loadavg().map((l) => l.toFixed(1)).join(' ')})`);

console.log('\n1. header hand-over per request (12 typical browser headers)');
const before = cpuNsPerOp(500_000, () => { sink += previousHeaders(HEADERS).length; });
const after = cpuNsPerOp(500_000, () => { sink += engineHeaders(HEADERS).length; });
line('previous: Buffer.from(value, utf8) on every header', fmt(before));
line('now: engineHeaders (byte strings pass as they are)', fmt(after));
line('ratio previous / now', `${(before / after).toFixed(1)}x`);

const crs = findCrs('/usr/share/modsecurity-crs');
const groups = new RuleGroups(crs, { prepareAnnounced: false });
const defaults = defaultRuleSettings(1);
groups.forParanoia(1);

console.log('\n2. rule-set lookup per request');
const snapshotRules = buildEdgeSnapshot({ sites: [{ id: 1, domain: 'shop.example.test', origin: 'http://127.0.0.1:9' }] }).sites[0].waf.rules;
groups.load(snapshotRules);
const lookupNew = cpuNsPerOp(2_000_000, () => { sink += groups.forSite(1, snapshotRules) ? 1 : 0; });
const lookupOld = cpuNsPerOp(2_000_000, () => { sink += groups.forParanoia(1) ? 1 : 0; });
line('previous: forParanoia(level)', fmt(lookupOld));
line('now: forSite(site, settings) (WeakMap by settings object)', fmt(lookupNew));

if (crs === null) {
  console.log('\n(CRS not found in /usr/share/modsecurity-crs: parts 3 and 4 skipped)');
} else {
  console.log(`\n3. a benign GET through CRS PL1 (${REQUESTS} requests each)`);
  const waf = groups.forSite(1, snapshotRules);
  const request = (headers: Array<[string, string]>) => ({
    remoteAddr: '203.0.113.9', remotePort: 40000, serverAddr: '127.0.0.1', serverPort: 8080,
    method: 'GET', uri: '/category/shoes/?orderby=price&paged=2', protocol: 'HTTP/1.1', headers,
  });
  const run = (w: Waf, convert: typeof engineHeaders) => cpuNsPerOp(REQUESTS, () => { sink += w.newTransaction(request(convert(HEADERS))).processRequest() === null ? 1 : 0; });
  const viaPrevious = run(waf, previousHeaders);
  const viaNow = run(waf, engineHeaders);
  line('with the previous header hand-over', fmt(viaPrevious));
  line('with engineHeaders', fmt(viaNow));
  line('saved per request', `${fmt(viaPrevious - viaNow)} (${(((viaPrevious - viaNow) / viaPrevious) * 100).toFixed(1)}%; noise on a busy machine)`);

  console.log('\n4. per configuration change');
  const heapBefore = (gc?.(), process.memoryUsage().heapUsed);
  const started = process.cpuUsage();
  const outcome = groups.load(ruleSettings({ ...defaults, inboundThreshold: 9 }));
  const compileCpu = process.cpuUsage(started);
  const heapAfter = (gc?.(), process.memoryUsage().heapUsed);
  if (!outcome.ok) throw new Error(outcome.error);
  line('CPU to compile one new combination (CRS PL1, thresholds 9/4)', `${((compileCpu.user + compileCpu.system) / 1000).toFixed(0)} ms`);
  line('heap it holds', gc ? `${((heapAfter - heapBefore) / 1048576).toFixed(1)} MB` : '(run with --expose-gc)');
  const combos = [defaults, ruleSettings({ ...defaults, paranoia: 2 }), ruleSettings({ ...defaults, inboundThreshold: 9 })];
  const sites = Array.from({ length: 50 }, (_, i) => ({ id: i + 1, domain: `s${i}.test`, origin: 'http://127.0.0.1:9', waf: { paranoia: combos[i % 3].paranoia, inboundThreshold: combos[i % 3].inboundThreshold } }));
  const snap = buildEdgeSnapshot({ sites });
  const distinct = new Set(snap.sites.map((s) => s.waf.rules));
  for (const s of distinct) groups.load(s);
  const wafs = new Set(snap.sites.map((s) => groups.forSite(s.id, s.waf.rules)));
  line('50 sites, 3 distinct settings: settings objects / compiled sets', `${distinct.size} / ${wafs.size}`);
}
if (sink === 42) console.log('');
