// Where response inspection's CPU goes, rule by rule: the engine alone (CRS at paranoia 1, no
// proxy), phases 3-4 on a benign HTML page, each rule's operator timed by wrapping it. The figure
// per rule is µs per page (the wrapper's own cost, ~0.1 µs a call, is inside); the total is
// unwrapped phases 3+4 as timed around them, so the two can be compared.
// node --import tsx bench/proxy/response-rule-costs.ts [page KB, default 100] [pages, default 300]
import { findCrs, RuleGroups } from '../../daemon/rule-sets/rule-groups.js';
import type { Rule } from '../../daemon/engine/rules/rule.js';
import type { OperatorRuntime } from '../../daemon/engine/operators/types.js';

const kb = Number(process.argv[2] ?? 100);
const pages = Number(process.argv[3] ?? 300);
const crs = findCrs(process.env.CRS_DIR ?? '/usr/share/modsecurity-crs');
if (!crs) throw new Error('no CRS (set CRS_DIR)');
const waf = new RuleGroups(crs, { prepareAnnounced: false }).forParanoia(1);

// The same shop listing as response-pages.ts and response-anchor.sh.
let html = '<!doctype html><html><head><title>Shop</title></head><body>\n';
for (let j = 0; html.length < kb * 1024; j++) html += `<div class="item i${j % 11}"><a href="/p/${j}">Product ${j}</a> <span>${(j * 7) % 100}.99</span> in stock</div>\n`;
const body = Buffer.from(html.slice(0, kb * 1024) + '</body></html>');
// Every page differs (as every visitor's page does: a nonce, a cart count), so nothing the engine
// remembers of a body it has seen can answer for the next one.
const stamp = body.indexOf('<title>') + 7;
function page(i: number): Buffer {
  body.write(String(i % 100000).padStart(5, '0'), stamp, 'latin1');
  return body;
}

const perRule = new Map<string, bigint>();
for (const phase of [3, 4]) {
  for (const starter of waf.ruleSet.phases[phase]) {
    for (let rule: Rule | undefined = starter; rule; rule = rule.chained ? rule.chainNext : undefined) {
      const evaluate = rule.evaluate;
      if (evaluate === undefined) continue;
      const name = `phase ${phase} ${starter.id}${rule === starter ? '' : ' (chained)'}`;
      rule.evaluate = (input: string, runtime: OperatorRuntime) => {
        const t = process.hrtime.bigint();
        try { return evaluate(input, runtime); } finally { perRule.set(name, (perRule.get(name) ?? 0n) + process.hrtime.bigint() - t); }
      };
    }
  }
}

const WARM = 50;
let total = 0n;
for (let i = 0; i < WARM + pages; i++) {
  if (i === WARM) { perRule.clear(); total = 0n; }
  const tx = waf.newTransaction({
    method: 'GET', uri: `/list?page=${i}`, protocol: 'HTTP/1.1', remoteAddr: '127.0.0.1', remotePort: 40000, serverAddr: '127.0.0.1', serverPort: 80,
    headers: [['host', 'shop.test'], ['user-agent', 'Mozilla/5.0 bench'], ['accept', 'text/html']],
  });
  tx.processRequest();
  const t = process.hrtime.bigint();
  tx.processResponseHeaders({ status: 200, headers: [['content-type', 'text/html']] });
  tx.processResponseBody(page(i));
  total += process.hrtime.bigint() - t;
}
const us = (ns: bigint) => (Number(ns) / pages / 1000).toFixed(1);
console.log(`${kb} KB page, ${pages} pages: phases 3+4 ${us(total)} µs a page`);
for (const [name, ns] of [...perRule].sort((a, b) => Number(b[1] - a[1])).slice(0, 15)) console.log(`  ${name}: ${us(ns)} µs`);
