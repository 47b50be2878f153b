// What the edge (one process, or the primary of its workers) needs of the node's bans: the table
// its checks look in, and a look at each WAF event it reports, from which the ban service counts
// strikes (ban-service.ts).
import type { EventSink, WafEvent } from '../proxy/events.js';
import type { BanLookup } from './ban-table.js';

export interface EdgeBans {
  table: BanLookup;
  observe(event: WafEvent): void;
}

/** The edge's events to `sink`, each WAF event shown to the ban service on the way. */
export function watchedSink(sink: EventSink, bans: EdgeBans | undefined): EventSink {
  if (!bans) return sink;
  return {
    waf: (event) => { bans.observe(event); sink.waf(event); },
    access: (entry) => sink.access(entry),
  };
}
