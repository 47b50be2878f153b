import { Edge } from '../../../daemon/proxy/edge.js';
import type { EventSink } from '../../../daemon/proxy/events.js';
import { buildEdgeSnapshot } from '../../../daemon/proxy/snapshot.js';
import type { Waf } from '../../../daemon/engine/waf.js';
import { createEngineInspector } from '../../../daemon/rule-sets/engine-inspector.js';
import { formatModSecurityLogLine } from './log-line.js';
import { startEmulatedOrigin, type EmulatedOrigin } from './origin-emulation.js';
import { recordingRuleSet, type RecordingRuleSet } from './recording-rule-set.js';

// The daemon's edge as the CRS conformance suite drives it: the same Edge, request handler and
// engine inspector the daemon builds (proxy/edge.ts, rule-sets/engine-inspector.ts), listening on a
// loopback port, in front of a real origin that answers like the reference origin. One site,
// `localhost` (the tests' Host) and the default site (for the tests with no or another Host),
// WAF in detect mode at paranoia 4 (CRS CI's profile; its rule set is DetectionOnly anyway).
// What the engine logged is read from the transactions the inspector opened, in ModSecurity's
// log-line format, since the tests are regexes over that log.

/** Counts the transactions whose request has finished: the edge writes a request's access entry
 *  after its phase 5 (CRS 980), and requests here are sequential, so every transaction opened by
 *  then has logged all it will. */
class FinishedRequests implements EventSink {
  private finished = 0;
  private wake: (() => void) | undefined;

  constructor(private readonly recorded: RecordingRuleSet) {}

  waf(): void {}

  access(): void {
    this.finished = this.recorded.transactions.length;
    this.wake?.();
  }

  /** Resolves once every transaction opened so far has finished, or after `limitMs` (a request the
   *  client gave up on may still be held by the edge: its log is read as it stands). */
  async settle(limitMs: number): Promise<void> {
    if (this.finished >= this.recorded.transactions.length) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, limitMs);
      this.wake = () => { if (this.finished >= this.recorded.transactions.length) done(); };
      function done() { clearTimeout(timer); resolve(); }
    });
    this.wake = undefined;
  }
}

export class EdgeUnderTest {
  private linesRead = 0;

  private constructor(
    readonly port: number,
    private readonly edge: Edge,
    private readonly origin: EmulatedOrigin,
    private readonly recorded: RecordingRuleSet,
    private readonly requests: FinishedRequests,
  ) {}

  /** `startOrigin`: the origin behind the edge (CRS 3's emulated one unless given; CRS 4 runs albedo). */
  static async start(waf: Waf, startOrigin: () => Promise<EmulatedOrigin> = startEmulatedOrigin): Promise<EdgeUnderTest> {
    const origin = await startOrigin();
    const recorded = recordingRuleSet(waf);
    const snapshot = buildEdgeSnapshot({
      sites: [{ id: 1, domain: 'localhost', isDefault: true, origin: origin.url, waf: { mode: 'detect', paranoia: 4 } }],
    });
    const requests = new FinishedRequests(recorded);
    const edge = new Edge({ snapshot, sink: requests, inspector: createEngineInspector(recorded.source) });
    const port = await edge.listenHttp({ port: 0, host: '127.0.0.1' });
    return new EdgeUnderTest(port, edge, origin, recorded, requests);
  }

  /** The log lines of every transaction opened since the last call (the requests are sequential),
   *  once their requests have finished: the client may read a response before the edge has run
   *  phase 5 on it. */
  async takeLogLines(limitMs = 2000): Promise<string[]> {
    await this.requests.settle(limitMs);
    const lines: string[] = [];
    const txs = this.recorded.transactions;
    for (; this.linesRead < txs.length; this.linesRead++) {
      const tx = txs[this.linesRead];
      const ctx = { clientAddr: tx.request.remoteAddr, hostname: tx.request.serverName, uri: tx.request.uri, uniqueId: tx.uniqueId };
      for (const match of tx.matches) lines.push(formatModSecurityLogLine(match, ctx));
    }
    return lines;
  }

  async close(): Promise<void> {
    await this.edge.close();
    await this.origin.close();
  }
}
