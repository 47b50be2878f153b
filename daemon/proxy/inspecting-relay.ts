import type { ResponseInspection, Verdict } from './inspector.js';
import type { OriginRelay } from './origin-relay.js';
import { decodingFor, ResponseCopy } from './response-copy.js';

// The origin's response through phases 3 and 4 before the client gets a byte of it: an undici
// dispatch handler in front of OriginRelay (which does the writing, the backpressure and the
// failures). On the head, phase 3; then, for a body the engine reads (its MIME types), the body is
// held back and copied (decoded when compressed, response-copy.ts) until the copy holds the limit
// (512 KB) or the origin is done, phase 4 runs, and either the held bytes go out followed by the
// rest as it streams (ProcessPartial past the limit), or the site's block response replaces the
// whole response and the origin request is aborted. Any other response runs phase 4 without a
// body at once and streams untouched. Raw bytes held are capped at the limit too (a compressed
// stream that decodes to little cannot make the edge hold more): past it the origin is paused
// until phase 4 has judged what was decoded.

/** What the request handler does with the response phases' outcomes (response-gate.ts). */
export interface ResponseGate {
  /** Logs the verdict's events; true when it blocks (mode on). */
  blocks(verdict: Verdict | null): boolean;
  /** Answers with the site's block response instead of the origin's (nothing was sent yet). */
  refuse(): void;
  /** The engine failed on the response: true to relay it uninspected, false when the gate answered. */
  failed(err: unknown): boolean;
}

type Abort = (err?: Error) => void;
type State = 'head' | 'buffer' | 'stream' | 'answered';

export class InspectingRelay {
  private state: State = 'head';
  private abort: Abort | null = null;
  private resume: (() => void) | null = null;
  private status = 0;
  private rawHeaders: Buffer[] = [];
  private copy: ResponseCopy | null = null;
  private readonly held: Buffer[] = [];
  private heldBytes = 0;
  private bodyLimit = 0;
  /** Phase 4 is running or waiting for the decoded copy: the origin stays paused meanwhile. */
  private judging = false;
  private paused = false;
  private originDone = false;

  constructor(
    private readonly inner: OriginRelay,
    private readonly exchange: ResponseInspection,
    private readonly gate: ResponseGate,
    private readonly method: string,
  ) {}

  clientGone(): void {
    this.copy?.close();
    if (this.state !== 'answered') this.inner.clientGone();
  }

  onConnect(abort: Abort): void {
    this.abort = abort;
    this.inner.onConnect(abort);
  }

  onHeaders(status: number, rawHeaders: Buffer[], resume: () => void): boolean {
    if (status < 200 || this.state !== 'head') return this.inner.onHeaders(status, rawHeaders, resume);
    this.inner.headArrived();
    this.status = status;
    this.rawHeaders = rawHeaders;
    this.resume = resume;
    const headers: Array<[string, string]> = [];
    for (let i = 0; i + 1 < rawHeaders.length; i += 2) headers.push([rawHeaders[i].toString('latin1'), rawHeaders[i + 1].toString('latin1')]);
    let head: ReturnType<ResponseInspection['head']>;
    try {
      head = this.exchange.head(status, headers);
    } catch (err) { return this.engineFailed(err); }
    if (this.gate.blocks(head.verdict)) { this.answerInstead(); return true; }
    const decoding = decodingFor(field(headers, 'content-encoding'));
    // HEAD, 204, 304 and an empty body have nothing to read; an encoding node:zlib cannot decode is
    // not read either (the README's decisions): phase 4 runs without a body and the response streams.
    const bodyless = this.method === 'HEAD' || status === 204 || status === 304 || field(headers, 'content-length')?.trim() === '0';
    if (!head.wantsBody || bodyless || decoding === null) return this.judgeThenRelay(null, false);
    this.state = 'buffer';
    this.bodyLimit = head.bodyLimit;
    this.copy = new ResponseCopy(decoding, head.bodyLimit, () => this.judge());
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.state === 'stream') return this.inner.onData(chunk);
    if (this.state !== 'buffer') return true;
    this.held.push(chunk);
    this.heldBytes += chunk.length;
    this.copy!.push(chunk);
    if (!this.judging && this.heldBytes >= this.bodyLimit) this.judge();
    if (!this.judging) return true;
    // Held until phase 4 has judged: undici stops calling onData until resume().
    this.paused = true;
    return false;
  }

  onComplete(): void {
    if (this.state === 'stream') { this.inner.onComplete(); return; }
    if (this.state !== 'buffer') return;
    this.originDone = true;
    if (!this.judging) this.judge();
  }

  onError(err: Error): void {
    this.copy?.close();
    if (this.state === 'answered') return;
    // Before or while the body was held nothing was sent: OriginRelay answers 502/504.
    this.state = 'answered';
    this.inner.onError(err);
  }

  /** Phase 4 on the copy once what was pushed so far is decoded. */
  private judge(): void {
    if (this.judging) return;
    this.judging = true;
    this.copy!.finish().then((body) => {
      if (this.state !== 'buffer') return; // the client left or the origin failed meanwhile
      // Partial: the copy reached the limit, or the raw limit was reached before the origin was done.
      this.judgeThenRelay(body, this.copy!.full || !this.originDone);
    }, (err) => { if (this.state === 'buffer') this.engineFailed(err); });
  }

  private judgeThenRelay(body: Buffer | null, partial: boolean): boolean {
    let verdict: Verdict | null;
    try {
      verdict = this.exchange.body(body, partial);
    } catch (err) { return this.engineFailed(err); }
    if (this.gate.blocks(verdict)) { this.answerInstead(); return true; }
    this.relay();
    return true;
  }

  /** From here on the origin's response goes to the client as it is: the held bytes, then the rest. */
  private relay(): void {
    const wasHolding = this.state === 'buffer';
    this.state = 'stream';
    try {
      this.inner.onHeaders(this.status, this.rawHeaders, this.resume!);
    } catch (err) {
      // A header node refuses to write: the 502 OriginRelay gives for it when it writes the head itself.
      this.state = 'answered';
      this.inner.onError(err as Error);
      if (!this.originDone) this.abort?.(err as Error);
      return;
    }
    if (!wasHolding) return;
    const flowing = this.inner.onDataHeld(this.held);
    this.held.length = 0;
    if (this.originDone) { this.inner.onComplete(); return; }
    // When the client's socket is full, OriginRelay resumes the origin on 'drain'; else now.
    if (this.paused && flowing) { this.paused = false; this.resume!(); }
  }

  private answerInstead(): void {
    this.state = 'answered';
    this.held.length = 0;
    this.copy?.close();
    if (!this.originDone) this.abort?.(new Error('response refused by the WAF'));
    this.gate.refuse();
  }

  private engineFailed(err: unknown): boolean {
    if (this.gate.failed(err)) { this.relay(); return true; }
    this.state = 'answered';
    this.copy?.close();
    if (!this.originDone) this.abort?.(new Error('WAF engine failed on the response'));
    return true;
  }
}

function field(headers: ReadonlyArray<readonly [string, string]>, lowerName: string): string | undefined {
  for (const [name, value] of headers) if (name.length === lowerName.length && name.toLowerCase() === lowerName) return value;
  return undefined;
}
