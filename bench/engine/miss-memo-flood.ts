// The operator-miss memo (daemon/engine/rules/miss-memo.ts) under a flood of values that never
// repeat: the proxy bench's requests with every letter and digit of the URI, header values and
// body replaced at random (request-copies.ts 'unique'), through the daemon's rule set at PL1.
// Prints, every `--every` requests: the memo's values and bytes, times it started over, heap
// used and RSS after a full GC. The memo must stay within its bounds whatever the count.
//
//   node --expose-gc --import tsx bench/engine/miss-memo-flood.ts [--requests 200000] [--every 25000]
//   (WAFCTL_MISS_MEMO=off for the same run without the memo)
import { compileRuleSet, findCrs } from '../../daemon/rule-sets/rule-set-builder.js';
import { defaultRuleSettings } from '../../daemon/rule-sets/rule-settings.js';
import { anchorRequests } from './anchor-requests.js';
import { requestCopies } from './request-copies.js';

const argv = process.argv.slice(2);
const option = (name: string, fallback: string) => Number(argv.includes(name) ? argv[argv.indexOf(name) + 1] : fallback);
const total = option('--requests', '200000');
const every = option('--every', '25000');
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with node --expose-gc');

const waf = compileRuleSet(defaultRuleSettings(1), findCrs('/usr/share/modsecurity-crs'));
const memo = waf.ruleSet.missMemo;
const mb = (bytes: number) => (bytes / 1048576).toFixed(1);
function report(done: number): void {
  gc!();
  const m = process.memoryUsage();
  console.log(`${String(done).padStart(8)} requests  memo ${String(memo.size).padStart(5)} values ${mb(memo.bytes).padStart(5)} MB  restarts ${String(memo.restarts).padStart(5)}  heap ${mb(m.heapUsed).padStart(6)} MB  rss ${mb(m.rss).padStart(6)} MB`);
}

const requests = [anchorRequests['proxy GET'], anchorRequests['proxy POST']];
report(0);
let done = 0;
while (done < total) {
  // Copies made in batches (each value new), so the flood does not hold them all at once.
  const batch = requests.flatMap((r) => requestCopies(r, 'unique', 500));
  for (const request of batch) {
    const tx = waf.newTransaction(request);
    tx.processRequest();
    tx.processLogging();
    if (++done % every === 0) report(done);
  }
}
