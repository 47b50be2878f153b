// Optional periodic refresh of the database from a URL (the daemon setting). A refresh is an
// ordinary import: a failure keeps the old database and is remembered for `vulndb status`;
// the next attempt is simply the next interval. The timer never keeps the process alive.

import type { RefreshStatus, VulnDbImportResult } from '../../shared/schemas/vulndb.js';
import type { VulnImportOptions } from './vulndb.js';
import { VulnDbError } from './vulndb-error.js';
import { redactUrl } from './feed-source.js';

export interface RefreshOptions {
  url: string;
  intervalMs: number;
  /** Delay before the first run (default: one interval). */
  initialDelayMs?: number;
  /** Bearer key for the v3 feed. */
  apiKey?: string;
  /** Called after every attempt (for the daemon log); `result` is null when the feed was unchanged. */
  onResult?: (result: { ok: true; result: VulnDbImportResult | null } | { ok: false; error: Error }) => void;
  runImport: (url: string, opts: VulnImportOptions) => Promise<VulnDbImportResult>;
  /** The validators of the live database when it came from this URL (conditional GET). */
  validators?: () => { ifNoneMatch?: string; ifModifiedSince?: string };
}

export const MIN_REFRESH_INTERVAL_MS = 1000;

export class Refresher {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private controller: AbortController | null = null;
  private stopped = false;
  private lastAttemptAt: string | null = null;
  private lastSuccessAt: string | null = null;
  private lastError: string | null = null;
  private lastResult: RefreshStatus['last_result'] = null;
  private nextAt: number | null = null;

  constructor(private readonly opts: RefreshOptions) {
    if (!Number.isFinite(opts.intervalMs) || opts.intervalMs < MIN_REFRESH_INTERVAL_MS) {
      throw new RangeError(`the refresh interval must be at least ${MIN_REFRESH_INTERVAL_MS} ms`);
    }
    const u = new URL(opts.url); // throws on a malformed URL
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new RangeError('the refresh URL must be http(s)');
  }

  start(): void {
    this.schedule(this.opts.initialDelayMs ?? this.opts.intervalMs);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.nextAt = null;
    this.controller?.abort();
  }

  /** One attempt now; concurrent callers share the attempt in flight. Never rejects: see status(). */
  runOnce(): Promise<void> {
    this.running ??= this.attempt().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  status(): RefreshStatus {
    return {
      url: redactUrl(this.opts.url),
      interval_s: Math.round(this.opts.intervalMs / 1000),
      last_attempt_at: this.lastAttemptAt,
      last_success_at: this.lastSuccessAt,
      last_error: this.lastError,
      last_result: this.lastResult,
      next_at: this.nextAt === null ? null : new Date(this.nextAt).toISOString(),
    };
  }

  private succeeded(result: 'imported' | 'not_modified'): void {
    this.lastSuccessAt = new Date().toISOString();
    this.lastError = null;
    this.lastResult = result;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.nextAt = Date.now() + delayMs;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.runOnce().then(() => this.schedule(this.opts.intervalMs));
    }, delayMs);
    this.timer.unref();
  }

  private async attempt(): Promise<void> {
    this.lastAttemptAt = new Date().toISOString();
    this.controller = new AbortController();
    try {
      const validators = this.opts.validators?.() ?? {};
      const result = await this.opts.runImport(this.opts.url, { apiKey: this.opts.apiKey, signal: this.controller.signal, ...validators });
      this.succeeded('imported');
      this.opts.onResult?.({ ok: true, result });
    } catch (err) {
      if (err instanceof VulnDbError && err.code === 'not_modified') {
        this.succeeded('not_modified');
        this.opts.onResult?.({ ok: true, result: null });
        return;
      }
      const error = err instanceof Error ? err : new Error(String(err));
      this.lastError = error.message;
      this.lastResult = 'failed';
      this.opts.onResult?.({ ok: false, error });
    } finally {
      this.controller = null;
    }
  }
}
