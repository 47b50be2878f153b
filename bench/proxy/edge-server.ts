// The edge as a standalone server for benchmarks and the cluster test: one site, WAF off (no
// inspector), optional rate limit, under node:cluster with WORKERS processes (counters and
// events in the primary, as the daemon runs it).
// env: PORT (default 28110), ORIGIN (default http://127.0.0.1:28080), WORKERS (default 1),
//      HOST_NAME (default localhost), RATE_PATH + RATE_LIMIT (optional), SITES_JSON (optional, overrides).
import cluster from 'node:cluster';
import { Edge } from '../../daemon/proxy/edge.js';
import { IpcCounterStore, ipcEventSink, serveWorker } from '../../daemon/proxy/cluster-ipc.js';
import { BatchingEventSink, type AccessEntry, type WafEvent } from '../../daemon/proxy/events.js';
import { buildEdgeSnapshot } from '../../daemon/proxy/snapshot.js';
import { MemoryCounterStore } from '../../daemon/store/counter-store.js';

const port = Number(process.env.PORT ?? 28110);
const workers = Number(process.env.WORKERS ?? 1);
const sites = process.env.SITES_JSON ? JSON.parse(process.env.SITES_JSON) : [{
  id: 1, domain: process.env.HOST_NAME ?? 'localhost', isDefault: true, origin: process.env.ORIGIN ?? 'http://127.0.0.1:28080',
  waf: { mode: 'off', paranoia: 1 },
  rateLimits: process.env.RATE_PATH ? [{ path: process.env.RATE_PATH, perMinute: Number(process.env.RATE_LIMIT ?? 10) }] : [],
}];

/** Counts events in the primary (a stand-in for the event store: the benchmark measures the proxy). */
const counted = { waf: 0, access: 0 };
const countingSink = () => new BatchingEventSink({
  writeWaf: (e: WafEvent[]) => { counted.waf += e.length; },
  writeAccess: (e: AccessEntry[]) => { counted.access += e.length; },
});

async function worker(sink: ReturnType<typeof countingSink>, counters: MemoryCounterStore | IpcCounterStore): Promise<void> {
  const edge = new Edge({ snapshot: buildEdgeSnapshot({ sites }), sink, counters });
  const bound = await edge.listenHttp({ port, host: process.env.BIND ?? '127.0.0.1' });
  process.send?.({ type: 'listening', port: bound });
  const stop = () => { void edge.close().then(() => process.exit(0)); };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

if (workers <= 1) {
  await worker(countingSink(), new MemoryCounterStore());
  console.log(`edge listening on ${port} (1 process)`);
} else if (cluster.isPrimary) {
  const counters = new MemoryCounterStore();
  const sink = countingSink();
  let listening = 0;
  for (let i = 0; i < workers; i++) {
    const w = cluster.fork();
    serveWorker(w, counters, sink);
    w.on('message', (m: { type?: string; port?: number }) => {
      if (m?.type === 'listening' && ++listening === workers) console.log(`edge listening on ${m.port} (${workers} workers)`);
    });
  }
  const stop = () => { for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM'); setTimeout(() => process.exit(0), 500).unref(); };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.on('SIGUSR2', () => console.log(JSON.stringify(counted)));
} else {
  await worker(ipcEventSink(), new IpcCounterStore());
}
