// What the edge reports. WafEvent is spec 2.8 plus group/site_id/request_id/action/country;
// AccessEntry is spec 2.9 plus blocked (and site_id/request_id/country so the two can be joined).
// The proxy calls EventSink.waf()/access() synchronously on the hot path; a sink must only
// queue there and write elsewhere (BatchingEventSink below does that).

export type Severity = 'CRITICAL' | 'WARNING' | 'NOTICE';

export interface WafEvent {
  timestamp_ms: number;
  host: string;
  client_ip: string;
  uri: string;
  method: string;
  waf_file: string;
  rule_id: string;
  severity: Severity;
  msg: string;
  user_agent?: string;
  referer?: string;
  matched_var?: string;
  matched_data?: string;
  /** The matched rule's tags, when it has any (older events have none). */
  tags?: string[];
  /** 'ip' | 'ban' | 'geo' | 'page' | 'rate-limit' | 'bot' for the edge checks; 'cms' | 'crs' for rule groups. */
  group: string;
  site_id: number;
  request_id: string;
  /** block: the request was refused; log: matched but passed (detect mode, or a non-disruptive rule). */
  action: 'block' | 'log';
  /** ISO 3166-1 alpha-2 from geoip-country, or '' when unknown (private or unlisted address). */
  country: string;
}

export interface AccessEntry {
  timestamp: number;
  host: string;
  client_ip: string;
  uri: string;
  method: string;
  status: number;
  /** Bytes written to the client socket for this response, headers included (nginx's $bytes_sent). */
  bytes_sent: number;
  user_agent?: string;
  referer?: string;
  request_time: number;
  upstream_time?: number;
  /** Why the exchange with the origin failed (ECONNREFUSED, ECONNRESET, UND_ERR_HEADERS_TIMEOUT, ...);
   *  absent when it did not. Not in spec 2.9: the edge's own, like blocked and request_id. */
  upstream_error?: string;
  blocked: boolean;
  site_id: number;
  request_id: string;
  country: string;
}

export interface EventSink {
  waf(event: WafEvent): void;
  access(entry: AccessEntry): void;
}

/** Where batches go: e.g. EventStore appends, an audit log file, IPC to the primary. */
export interface EventBatchWriter {
  writeWaf(events: WafEvent[]): Promise<void> | void;
  writeAccess(entries: AccessEntry[]): Promise<void> | void;
}

export const DISCARD_EVENTS: EventSink = { waf() {}, access() {} };

export interface BatchingOptions {
  /** Flush when this many entries are queued (default 500). */
  maxBatch?: number;
  /** ...or this long after the first queued entry (default 200 ms). */
  maxDelayMs?: number;
  /**
   * Entries of a kind queued or being written beyond this are dropped (and counted) rather than
   * let memory grow without bound when the writer is slower than the traffic (default 100,000).
   */
  maxQueued?: number;
  onError?: (err: unknown) => void;
  /** Told how many entries were dropped since it was last told (after a write completes, at most once a second). */
  onDropped?: (count: number) => void;
}

/**
 * Queues on the hot path, writes in batches from a timer. Order is kept per kind, and a
 * request's WAF events are queued before its access entry. Writes never overlap: the next batch
 * waits for the previous write.
 */
export class BatchingEventSink implements EventSink {
  private wafQueue: WafEvent[] = [];
  private accessQueue: AccessEntry[] = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  /** Entries refused because the queue was full. */
  dropped = 0;
  private droppedReported = 0;
  private droppedReportedAt = 0;
  /**
   * Entries handed to flush() whose write has not finished, per kind: they count against
   * maxQueued too. (Counting the queue alone let a slow writer pile batches up in the chain of
   * writes without limit: the queue is emptied every maxBatch entries.)
   */
  private wafWriting = 0;
  private accessWriting = 0;
  private readonly maxBatch: number;
  private readonly maxDelayMs: number;
  private readonly maxQueued: number;

  constructor(private readonly writer: EventBatchWriter, private readonly options: BatchingOptions = {}) {
    this.maxBatch = options.maxBatch ?? 500;
    this.maxDelayMs = options.maxDelayMs ?? 200;
    this.maxQueued = options.maxQueued ?? 100_000;
  }

  waf(event: WafEvent): void {
    if (this.wafQueue.length + this.wafWriting >= this.maxQueued) { this.dropped++; return; }
    this.wafQueue.push(event);
    this.schedule(this.wafQueue.length);
  }

  access(entry: AccessEntry): void {
    if (this.accessQueue.length + this.accessWriting >= this.maxQueued) { this.dropped++; return; }
    this.accessQueue.push(entry);
    this.schedule(this.accessQueue.length);
  }

  /** Writes everything queued; resolves when written. */
  flush(): Promise<void> {
    if (this.timer) { clearTimeout(this.timer); this.timer = null; }
    const waf = this.wafQueue;
    const access = this.accessQueue;
    this.wafQueue = [];
    this.accessQueue = [];
    this.wafWriting += waf.length;
    this.accessWriting += access.length;
    this.writing = this.writing.then(async () => {
      try {
        if (waf.length) await this.writer.writeWaf(waf);
        if (access.length) await this.writer.writeAccess(access);
      } catch (err) {
        (this.options.onError ?? ((e) => console.error('edge: event write failed:', e)))(err);
      } finally {
        this.wafWriting -= waf.length;
        this.accessWriting -= access.length;
        if (this.dropped > this.droppedReported && Date.now() - this.droppedReportedAt >= 1000) {
          const n = this.dropped - this.droppedReported;
          this.droppedReported = this.dropped;
          this.droppedReportedAt = Date.now();
          this.options.onDropped?.(n);
        }
      }
    });
    return this.writing;
  }

  private schedule(queued: number): void {
    if (queued >= this.maxBatch) { void this.flush(); return; }
    if (!this.timer) {
      this.timer = setTimeout(() => { this.timer = null; void this.flush(); }, this.maxDelayMs);
      this.timer.unref();
    }
  }
}
