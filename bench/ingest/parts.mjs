#!/usr/bin/env node
// The daemon's per-entry ingestion steps in one process, each against what it replaced, same run,
// CPU time per entry (process.cpuUsage) and the ratio: the figures of bench/ingest/README.md that a
// loaded machine cannot disturb much. Batches of 100 WAF events of the end-to-end bench's shape.
//   node bench/ingest/parts.mjs [--rounds N]   (needs `npm run build`)
import { splitBatch } from '../../dist/daemon/ingest/batch.js';
import { ENTRY_CHECKS } from '../../dist/daemon/ingest/entry-check.js';
import { parseIngestJson } from '../../dist/daemon/ingest/json-body.js';
import { ruleGroupOf } from '../../dist/daemon/ingest/rule-group.js';
import { describeIssues } from '../../dist/shared/schemas/ingest.js';
import { parseIp } from '../../dist/daemon/store/events/ip-address.js';
import ipaddr from 'ipaddr.js';
import { IpAddressSchema } from '../../dist/shared/schemas/ip.js';
import { plainIpv6 } from '../../dist/shared/ipv6-text.js';
import { makeBatches } from './vector-mix-events.mjs';

const at = process.argv.indexOf('--rounds');
const ROUNDS = at > 0 ? Number(process.argv[at + 1]) : 300;
const BATCH = 100;
const now = Date.now();
const batches = Array.from({ length: 50 }, (_, b) =>
  JSON.stringify(
    Array.from({ length: BATCH }, (_, j) => {
      const i = b * BATCH + j;
      return {
        timestamp_ms: now - i,
        host: 'bench.example.test',
        client_ip: `203.0.${(i >> 8) & 255}.${i & 255}`,
        uri: `/wp-admin/admin-ajax.php?action=x&id=${i}%27%20OR%201=1--`,
        method: 'GET',
        waf_file: '/usr/share/modsecurity-crs/rules/REQUEST-942-APPLICATION-ATTACK-SQLI.conf',
        rule_id: '942100',
        severity: 'CRITICAL',
        msg: 'SQL Injection Attack Detected via libinjection',
        user_agent: 'Mozilla/5.0 (bench)',
        matched_var: 'ARGS:id',
        matched_data: `${i}' OR 1=1--`,
      };
    }),
  ),
);
const parsed = batches.map((text) => JSON.parse(text));
const CMS_FILE = /(^|[\\/])(cms[-_][^\\/]*|[^\\/]*wordpress[^\\/]*)$|[\\/]cms[\\/]/i;
const hostOk = () => null;

// JSON body: parseIngestJson (secure-json-parse) against bare JSON.parse, the floor. A version that
// skipped secure-json-parse's scans measured the same as the library (1.75 vs 1.70 us) and was dropped.

// The zod-only path the fast checks replaced (daemon/ingest/batch.ts before them).
function zodSplit(entries) {
  const accepted = [];
  const errors = [];
  entries.forEach((raw, index) => {
    const result = ENTRY_CHECKS.waf.schema.safeParse(raw);
    if (!result.success) return void errors.push({ index, error: describeIssues(result.error) });
    accepted.push({ index, entry: result.data });
  });
  return { accepted, errors };
}

// As the plugin's toStored does with the fresh object the fast twin built (last step: the objects it
// completes are the parsed ones, so the steps before see them untouched).
function completeInPlace(e) {
  e.site_id = 1;
  e.group = ruleGroupOf(e.waf_file, e.rule_id);
  return e;
}

// The event index's key of an IPv6 client (the shipper mix's addresses, 100 a "batch"): ipaddr.js as
// parseIp used it for every address with a colon, against parseIp's own reader of the plain forms.
const v6 = makeBatches({ count: 60_000, batch: 100, hosts: ['a.test'], now, spreadMs: 86_400_000 })
  .bodies.flatMap((b) => JSON.parse(b).map((e) => e.client_ip))
  .filter((ip) => ip.includes(':'));
const v6Batches = Array.from({ length: 50 }, (_, b) => Array.from({ length: BATCH }, (_, j) => v6[(b * BATCH + j) % v6.length]));
function viaIpaddr(t) {
  if (!ipaddr.IPv6.isValid(t)) return null;
  const a = ipaddr.process(t);
  const g = Uint16Array.from(a.parts);
  return { canonical: a.toString().toLowerCase(), v4: -1, v6: g, bucket: `6:${g[0]}:${g[1]}` };
}

const steps = [
  ['IPv6 check', 'IpAddressSchema', (i) => v6Batches[i].every((ip) => IpAddressSchema.safeParse(ip).success), 'plainIpv6', (i) => v6Batches[i].every((ip) => plainIpv6(ip) !== null)],
  ['IPv6 index key', 'ipaddr.js', (i) => v6Batches[i].map(viaIpaddr), 'parseIp', (i) => v6Batches[i].map(parseIp)],
  ['JSON body', 'JSON.parse', (i) => JSON.parse(batches[i]), 'parseIngestJson', (i) => parseIngestJson(batches[i])],
  ['entry checks', 'zod safeParse', (i) => zodSplit(parsed[i]), 'fast twin', (i) => splitBatch(parsed[i], ENTRY_CHECKS.waf, hostOk)],
  ['stored entry', 'spread + rule regex', (i) => parsed[i].map((e) => ({ ...e, site_id: 1, group: CMS_FILE.test(e.waf_file) ? 'cms' : 'crs' })), 'in place + memo', (i) => parsed[i].map(completeInPlace)],
];

function cpuUsPerEntry(fn) {
  for (let i = 0; i < batches.length * 5; i++) fn(i % batches.length); // warm up
  const before = process.cpuUsage();
  for (let r = 0; r < ROUNDS; r++) fn(r % batches.length);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / (ROUNDS * BATCH);
}

console.log(`ingest parts: CPU us per entry, batches of ${BATCH} WAF events, ${ROUNDS} batches a step`);
console.log('step           before                 us/entry   after              us/entry   after/before');
const results = [];
for (const [step, beforeName, before, afterName, after] of steps) {
  const b = cpuUsPerEntry(before);
  const a = cpuUsPerEntry(after);
  results.push({ step, before: beforeName, beforeUs: b, after: afterName, afterUs: a, ratio: a / b });
  console.log(`${step.padEnd(14)} ${beforeName.padEnd(22)} ${b.toFixed(2).padStart(8)}   ${afterName.padEnd(18)} ${a.toFixed(2).padStart(8)}   ${(a / b).toFixed(2).padStart(11)}x`);
}
console.log(JSON.stringify({ bench: 'ingest-parts', rounds: ROUNDS, results }));
