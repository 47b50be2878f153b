import type { BanLookup } from '../bans/ban-table.js';
import type { CounterStore } from '../store/counter-store.js';
import type { BotGuard } from './checks/bot.js';
import { checkGeo } from './checks/geo.js';
import { checkIp } from './checks/ip.js';
import { ALLOW, type CheckOutcome } from './checks/outcome.js';
import { checkPageProtection } from './checks/page.js';
import { checkRateLimit } from './checks/rate-limit.js';
import type { EdgeRequest } from './edge-request.js';

// Steps 3-7 of DESIGN.md section 3, in that order; the first objection wins. Synchronous unless
// a check has to wait (a counter in the cluster primary, a DNS answer), so a request that meets
// no async check never leaves the current tick. The WAF rule groups (step 8) run after this,
// in the listener, because they may need the body.

export class CheckPipeline {
  constructor(private readonly counters: CounterStore, private readonly bots: BotGuard, private readonly bans?: BanLookup) {}

  run(req: EdgeRequest): CheckOutcome | Promise<CheckOutcome> {
    const ip = checkIp(req, this.bans);
    if (ip === 'whitelisted') return ALLOW;
    if (ip) return ip;
    const geo = checkGeo(req);
    if (geo) return geo;
    const page = checkPageProtection(req);
    if (page) return page;
    const rate = checkRateLimit(req, this.counters);
    if (rate instanceof Promise) return rate.then((r) => r ?? this.bots.check(req));
    if (rate) return rate;
    return this.bots.check(req);
  }
}
