import type { ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { clientResponseHeaders } from './forward-headers.js';
import { page } from './pages.js';
import { sendPage } from './respond.js';
import { upstreamErrorName } from './upstream-error.js';

// The origin's response, relayed to the client: an undici dispatch handler (the onConnect /
// onHeaders / onData / onComplete / onError contract of undici's core Request) that writes
// straight into the ServerResponse. It replaces pool.stream(), whose StreamHandler parses the
// headers into an object and watches res with stream.finished() (five listeners per request);
// here status and headers go out in one res.writeHead with a flat list, and the edge's single
// 'close' listener on res tells the relay when the client has gone (clientGone()).
//
// Backpressure: onData returns false when res.write() does, which pauses undici's parser on
// the origin socket; 'drain' on res resumes it. Failures: before the response head, a 502 page
// (504 for connect and response-header timeouts); after it, the client connection is cut,
// the only honest signal left that the body is incomplete. Either way the reason goes into the
// access entry (`upstream_error`), since the page tells the client nothing internal.

/** Where the relay records, for the access entry, the time to the origin's response head and why
 *  the exchange failed (upstream-error.ts), if it did. */
export interface UpstreamTiming { upstreamTimeS?: number; upstreamError?: string }

type Abort = (err?: Error) => void;

export class OriginRelay {
  private abortOrigin: Abort | null = null;
  private resume: (() => void) | null = null;
  /** The exchange with the origin has ended (completed or failed). */
  private settled = false;
  private readonly sentAt = performance.now();

  constructor(
    private readonly res: ServerResponse,
    private readonly requestId: string,
    private readonly timing: UpstreamTiming,
  ) {}

  /** The client connection closed: if the origin is still answering, stop it. */
  clientGone(): void {
    if (this.settled) return;
    this.settled = true;
    this.abortOrigin?.(new Error('client closed the connection'));
  }

  onConnect(abort: Abort): void {
    // The client may already have left while the request waited for a free origin connection.
    if (this.settled) abort(new Error('client closed the connection'));
    else this.abortOrigin = abort;
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[], resume: () => void): boolean {
    // 1xx: node's server has answered 100 Continue itself; other interim responses are not relayed.
    if (statusCode < 200) return true;
    this.headArrived();
    this.resume = resume;
    // A header node refuses to write throws here; undici turns that into onError (502).
    this.res.writeHead(statusCode, clientResponseHeaders(rawHeaders, this.requestId));
    return true;
  }

  /** Records the time to the origin's response head (once; an inspecting relay calls it before it
   *  holds the head back for phases 3-4, so the figure is the origin's, not the inspection's). */
  headArrived(): void {
    this.timing.upstreamTimeS ??= (performance.now() - this.sentAt) / 1000;
  }

  /** Body bytes held back for inspection, written at once: onData's backpressure for the last. */
  onDataHeld(chunks: readonly Buffer[]): boolean {
    for (let i = 0; i < chunks.length - 1; i++) this.res.write(chunks[i]);
    return chunks.length === 0 ? true : this.onData(chunks[chunks.length - 1]);
  }

  onData(chunk: Buffer): boolean {
    if (this.res.write(chunk)) return true;
    // undici stops calling onData until resume(): one listener per pause.
    this.res.once('drain', this.resume!);
    return false;
  }

  onComplete(): void {
    if (this.settled) return;
    this.settled = true;
    this.res.end();
  }

  onError(err: Error): void {
    if (this.settled) return;
    this.settled = true;
    this.timing.upstreamError = upstreamErrorName(err);
    if (!this.res.headersSent) sendPage(this.res, page(isTimeout(err) ? 504 : 502, this.requestId));
    else this.res.destroy();
  }
}

function isTimeout(err: Error): boolean {
  const code = (err as { code?: string }).code;
  return code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT';
}
