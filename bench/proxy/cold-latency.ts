// Latency of one request at a time through a server (the edge, or any anchor), in three states:
//   warm  — back to back: what a saturated worker sees;
//   idle  — after a pause of --gap-ms: the worker (and the machine) went to sleep in between;
//   evict — after this process wrote --evict-mb of memory: the server's working set is pushed out
//           of the shared L3 cache, without a pause (what other tenants do to an idle server).
// At the latency bench's ~240 req/s each of 2 workers sleeps ~8 ms between requests; this tells
// how much of its latency is the same work run cold, and it does so on a busy machine too (the
// eviction is ours, not the neighbours'). README.md, "Latency at low load".
//
// usage: node --import tsx bench/proxy/cold-latency.ts --port P [--mix get|post] [--n 400] [--conns 2]
//          [--gap-ms 10] [--evict-mb 64] [--modes warm,idle,evict] [--pid SERVER_PID]
//   --conns: requests alternate over that many keep-alive connections (node:cluster gives each to a
//   worker in turn), one request in flight at a time. --pid: the server's CPU per request (the process
//   and its children, from /proc; 10 ms ticks, so use a few hundred requests).
// Prints one line per mode and a JSON line with every figure.
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { execFileSync } from 'node:child_process';
import { anchorRequests } from '../engine/anchor-requests.js';

const argv = process.argv.slice(2);
const opt = (name: string, fallback: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : fallback);
const port = Number(opt('--port', '0'));
const mix = opt('--mix', 'get');
const n = Number(opt('--n', '400'));
const conns = Number(opt('--conns', '2'));
const gapMs = Number(opt('--gap-ms', '10'));
const evictMb = Number(opt('--evict-mb', '64'));
const modes = opt('--modes', 'warm,idle,evict').split(',');
const pid = Number(opt('--pid', '0'));
if (!(port > 0) || !['get', 'post'].includes(mix) || !(n > 0) || !(conns > 0) || modes.some((m) => !['warm', 'idle', 'evict'].includes(m))) {
  console.error('usage: cold-latency.ts --port P [--mix get|post] [--n 400] [--conns 2] [--gap-ms 10] [--evict-mb 64] [--modes warm,idle,evict] [--pid PID]');
  process.exit(2);
}

// The proxy bench's requests (wrk's browser header set and mixes), as bytes on the wire.
const r = anchorRequests[mix === 'get' ? 'proxy GET' : 'proxy POST'];
const head = `${r.method} ${r.uri} HTTP/1.1\r\n${r.headers.map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`;
const wire = Buffer.concat([Buffer.from(head, 'latin1'), r.body ?? Buffer.alloc(0)]);

/** One keep-alive connection; send() resolves with the status once the whole response is in. */
class Connection {
  private buf = Buffer.alloc(0);
  private waiting: ((status: number) => void) | null = null;
  private constructor(private readonly socket: Socket) {
    socket.setNoDelay(true);
    socket.on('data', (d) => { this.buf = Buffer.concat([this.buf, d]); this.tryComplete(); });
    socket.on('error', (e) => { console.error(`connection failed: ${e.message}`); process.exit(1); });
  }
  static open(): Promise<Connection> {
    return new Promise((resolve, reject) => {
      const s = connect(port, '127.0.0.1', () => resolve(new Connection(s)));
      s.once('error', reject);
    });
  }
  send(): Promise<number> {
    return new Promise((resolve) => { this.waiting = resolve; this.socket.write(wire); });
  }
  close(): void { this.socket.end(); }
  private tryComplete(): void {
    const end = this.buf.indexOf('\r\n\r\n');
    if (end < 0 || !this.waiting) return;
    const headText = this.buf.subarray(0, end).toString('latin1');
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(headText);
    if (!length) { console.error(`response without Content-Length:\n${headText}`); process.exit(1); }
    const total = end + 4 + Number(length[1]);
    if (this.buf.length < total) return;
    this.buf = this.buf.subarray(total);
    const done = this.waiting;
    this.waiting = null;
    done(Number(headText.slice(9, 12)));
  }
}

const evictBuffer = Buffer.alloc(evictMb << 20);
/** Writes one byte per 64-byte line: every line of the buffer ends up in (and the server's lines out of) the cache. */
function evict(): void {
  for (let o = 0; o < evictBuffer.length; o += 64) evictBuffer[o]++;
}

const CLK_TCK = Number(execFileSync('getconf', ['CLK_TCK']).toString());
/** utime + stime (s) of pid and its direct children (node:cluster workers). */
function treeCpuS(root: number): number {
  if (!root) return 0;
  let children: number[] = [];
  try { children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(root)]).toString().trim().split(/\s+/).filter(Boolean).map(Number); } catch { /* none */ }
  let ticks = 0;
  for (const p of [root, ...children]) {
    try { const f = readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1].split(' '); ticks += Number(f[11]) + Number(f[12]); } catch { /* gone */ }
  }
  return ticks / CLK_TCK;
}

const quantile = (v: number[], q: number) => v[Math.min(v.length - 1, Math.floor(v.length * q))];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const connections = await Promise.all(Array.from({ length: conns }, () => Connection.open())).catch((e: Error) => {
  console.error(`cannot connect to 127.0.0.1:${port}: ${e.message}`);
  process.exit(1);
});
const results: Record<string, unknown> = { port, mix, n, conns, gap_ms: gapMs, evict_mb: evictMb, at: new Date().toISOString() };
// Warm-up: the server's JIT, the origin pool, the engine's caches.
for (let i = 0; i < 300; i++) await connections[i % conns].send();
for (const mode of modes) {
  const latencies: number[] = [];
  let bad = 0;
  const cpu0 = treeCpuS(pid);
  for (let i = 0; i < n; i++) {
    if (mode === 'idle') await sleep(gapMs);
    else if (mode === 'evict') evict();
    const t0 = process.hrtime.bigint();
    const status = await connections[i % conns].send();
    latencies.push(Number(process.hrtime.bigint() - t0) / 1e3);
    if (status < 200 || status > 299) bad++;
  }
  const cpuUs = pid ? ((treeCpuS(pid) - cpu0) * 1e6) / n : undefined;
  latencies.sort((a, b) => a - b);
  const [p50, p90, p99] = [0.5, 0.9, 0.99].map((q) => Math.round(quantile(latencies, q)));
  results[mode] = { p50_us: p50, p90_us: p90, p99_us: p99, server_cpu_us: cpuUs === undefined ? undefined : Math.round(cpuUs), non_2xx: bad };
  console.log(`${mode.padEnd(5)} p50 ${p50} us  p90 ${p90} us  p99 ${p99} us${cpuUs === undefined ? '' : `  server CPU ${Math.round(cpuUs)} us/request`}${bad ? `  NON-2XX ${bad}` : ''}`);
}
for (const c of connections) c.close();
console.log(`JSON:${JSON.stringify(results)}`);
