// IP list lookup with 500 entries (IPv4 addresses, IPv4 CIDRs, IPv6 CIDRs): the compiled IpSet
// (sorted merged ranges, bisection) vs a linear scan of ipaddr.js-parsed entries (the anchor:
// what a straightforward implementation does). Includes parsing the client address once.
// usage: node --import tsx bench/proxy/ip-set.ts
import ipaddr from 'ipaddr.js';
import { performance } from 'node:perf_hooks';
import { compileIpSet, parseIp } from '../../daemon/proxy/ip-set.js';

const entries: string[] = [];
for (let i = 0; i < 250; i++) entries.push(`198.51.${i % 256}.${(i * 7) % 256}`);
for (let i = 0; i < 200; i++) entries.push(`203.0.${i}.0/24`);
for (let i = 0; i < 50; i++) entries.push(`2001:db8:${i.toString(16)}::/48`);
const clients = Array.from({ length: 1000 }, (_, i) => (i % 10 === 0 ? `2001:db8:${(i % 97).toString(16)}::${i}` : `${(i * 37) % 256}.${(i * 11) % 256}.${i % 256}.${(i * 3) % 256}`));

const set = compileIpSet(entries);
const parsed = entries.map((e) => (e.includes('/') ? ipaddr.parseCIDR(e) : [ipaddr.parse(e), ipaddr.parse(e).kind() === 'ipv4' ? 32 : 128] as const));
const linear = (ip: string) => {
  const a = ipaddr.process(ip);
  for (const [net, bits] of parsed) if (net.kind() === a.kind() && a.match(net as never, bits as number)) return true;
  return false;
};

const N = 200_000;
const time = (f: (ip: string) => boolean) => {
  let hits = 0;
  const t = performance.now();
  for (let i = 0; i < N; i++) if (f(clients[i % clients.length])) hits++;
  return { ns: ((performance.now() - t) * 1e6) / N, hits };
};
const keys = new Map(clients.map((c) => [c, parseIp(c)!]));
const runs = { set: [] as number[], linear: [] as number[], parse: [] as number[], has: [] as number[] };
let hitsSet = 0, hitsLinear = 0;
for (let r = 0; r < 5; r++) {
  const a = time((ip) => set.has(parseIp(ip)!)); runs.set.push(a.ns); hitsSet = a.hits;
  const b = time(linear); runs.linear.push(b.ns); hitsLinear = b.hits;
  runs.parse.push(time((ip) => parseIp(ip) !== null && false).ns);
  runs.has.push(time((ip) => set.has(keys.get(ip)!)).ns);
}
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[2];
if (hitsSet !== hitsLinear) throw new Error(`disagreement: ${hitsSet} vs ${hitsLinear}`);
console.log(`IP list of ${entries.length} entries, ${N} lookups x 5 rounds (median), ${hitsSet} hits each:`);
console.log(`  linear scan, ipaddr.js   ${med(runs.linear).toFixed(0)} ns/lookup  (anchor)`);
console.log(`  IpSet (parse + bisect)   ${med(runs.set).toFixed(0)} ns/lookup  (${(med(runs.linear) / med(runs.set)).toFixed(0)}x faster)`);
console.log(`    of which parseIp       ${med(runs.parse).toFixed(0)} ns (once per request, whatever the number of lists)`);
console.log(`    of which bisection     ${med(runs.has).toFixed(0)} ns (incl. a Map lookup of the parsed key in this harness)`);
