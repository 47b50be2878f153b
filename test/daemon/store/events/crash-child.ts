// Child of crash.test.ts: appends WAF events and access entries in a loop (several appends
// in flight, so groups form) and prints every acknowledged id on its own line, until killed.
import { openJsonlEventStore } from '../../../../daemon/store/events/jsonl-event-store.js';

const dir = process.argv[2];
const store = await openJsonlEventStore({ dir, logger: { info() {}, warn() {}, error() {} }, retentionEveryMs: 0, snapshotEveryMs: 50 });
const now = Date.now();
let n = 0;
async function writer(kind: 'waf' | 'access'): Promise<never> {
  for (;;) {
    const batch = Array.from({ length: 1 + (n++ % 7) }, (_, i) => i);
    const ids =
      kind === 'waf'
        ? await store.appendWafEvents(batch.map((i) => ({ site_id: 1 + (i % 3), timestamp_ms: now - i * 3_600_000, host: 'h.example', client_ip: `10.1.${i}.${n % 250}`, uri: `/p/${n}/${'x'.repeat(n % 300)}`, method: 'GET', waf_file: 'f.conf', rule_id: String(942100 + i), severity: 'WARNING' as const, msg: 'm', group: 'crs' })))
        : await store.appendAccessEntries(batch.map((i) => ({ site_id: 1, timestamp: Math.floor(now / 1000) - i * 3600, host: 'h.example', client_ip: `10.2.0.${i}`, uri: '/', method: 'GET', status: 200, bytes_sent: n })));
    process.stdout.write(ids.map((id) => `${kind} ${id}\n`).join(''));
  }
}
process.stdout.write('ready\n');
await Promise.all([writer('waf'), writer('waf'), writer('access'), writer('waf')]);
