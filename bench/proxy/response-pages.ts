// The cost of response inspection: the in-process edge with the engine (CRS at paranoia 1, as the
// daemon runs it) in front of an origin serving HTML pages of 20-200 KB (identity and gzip), the
// same site with --response-inspection on and off, measured in interleaved rounds. Prints the
// edge's CPU ms per request and requests/s for each, and the ratio. One process, so the figure is
// the edge's own cost, not a side-by-side with nginx + ModSecurity (run.sh does those).
// node --import tsx bench/proxy/response-pages.ts [requests per round, default 400] [rounds, default 3]
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { Edge } from '../../daemon/proxy/edge.js';
import { buildEdgeSnapshot } from '../../daemon/proxy/snapshot.js';
import { createEngineInspector } from '../../daemon/rule-sets/engine-inspector.js';
import { findCrs, RuleGroups } from '../../daemon/rule-sets/rule-groups.js';

const perRound = Number(process.argv[2] ?? 400);
const rounds = Number(process.argv[3] ?? 3);
const CONCURRENCY = 4;
const SIZES_KB = [20, 50, 100, 150, 200];

function page(bytes: number, seed: number): Buffer {
  let out = '<!doctype html><html><head><title>Shop</title></head><body>\n';
  for (let i = 0; out.length < bytes; i++) out += `<div class="item i${(i + seed) % 11}"><a href="/p/${i}">Product ${i}</a> <span>${(i * 7) % 100}.99</span> in stock</div>\n`;
  return Buffer.from(out.slice(0, bytes) + '</body></html>');
}
const pages = SIZES_KB.map((kb, i) => ({ plain: page(kb * 1024, i), gzip: zlib.gzipSync(page(kb * 1024, i)) }));

const origin = http.createServer((req, res) => {
  const [, n, enc] = /^\/(\d+)(\.gz)?/.exec(req.url ?? '') ?? [];
  const p = pages[Number(n) % pages.length];
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...(enc ? { 'content-encoding': 'gzip' } : {}) });
  res.end(enc ? p.gzip : p.plain);
});
await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
const originUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;

const crs = findCrs(process.env.CRS_DIR ?? '/usr/share/modsecurity-crs');
if (!crs) throw new Error('no CRS (set CRS_DIR)');
const groups = new RuleGroups(crs, { prepareAnnounced: false });
groups.forParanoia(1);
const edge = new Edge({
  snapshot: buildEdgeSnapshot({ sites: [
    { id: 1, domain: 'on.test', origin: originUrl },
    { id: 2, domain: 'off.test', origin: originUrl, responseInspection: false },
  ] }),
  sink: { waf: () => {}, access: () => {} },
  inspector: createEngineInspector(groups),
});
const port = await edge.listenHttp({ port: 0, host: '127.0.0.1' });
const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function get(host: string, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path, agent, headers: { host, 'user-agent': 'Mozilla/5.0 bench', accept: 'text/html' } }, (res) => {
      let n = 0;
      res.on('data', (c: Buffer) => { n += c.length; });
      res.on('end', () => (res.statusCode === 200 ? resolve(n) : reject(new Error(`${host}${path}: ${res.statusCode}`))));
    }).on('error', reject);
  });
}

async function round(host: string): Promise<{ cpuMs: number; wallMs: number }> {
  let next = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < perRound) { const i = next++; await get(host, `/${i % SIZES_KB.length}${i % 2 ? '.gz' : ''}?r=${i}`); }
  }));
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  // Client, origin and edge share the process: the off rounds carry the same client and origin work.
  return { cpuMs: (cpu.user + cpu.system) / 1000, wallMs };
}

await round('on.test'); await round('off.test'); // warm-up
const totals = { on: { cpuMs: 0, wallMs: 0 }, off: { cpuMs: 0, wallMs: 0 } };
for (let r = 0; r < rounds; r++) {
  for (const mode of (r % 2 ? ['off', 'on'] : ['on', 'off']) as Array<'on' | 'off'>) {
    const m = await round(`${mode}.test`);
    totals[mode].cpuMs += m.cpuMs; totals[mode].wallMs += m.wallMs;
  }
}
const n = perRound * rounds;
for (const mode of ['off', 'on'] as const) {
  console.log(`response inspection ${mode}: ${(totals[mode].cpuMs / n).toFixed(2)} CPU ms/request (process), ${(n / totals[mode].wallMs * 1000).toFixed(0)} req/s`);
}
console.log(`on/off: ${(totals.on.cpuMs / totals.off.cpuMs).toFixed(2)}x CPU per request, ${(totals.off.wallMs / totals.on.wallMs).toFixed(2)}x throughput`);
agent.destroy();
await edge.close();
origin.close();
