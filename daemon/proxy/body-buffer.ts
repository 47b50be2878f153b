import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';

// Request bodies the WAF wants to read are buffered up to the inspection limit. What happens to
// a body over the limit is the site's choice (bodyOverLimit): refused with 413, or forwarded
// uninspected — then the bytes already read go first and the rest streams on from the socket.

export type BufferedBody =
  | { readonly kind: 'whole'; readonly body: Buffer }
  /** Over the limit: reading has stopped (the request is paused) after `head`, at least limit + 1 bytes. */
  | { readonly kind: 'over'; readonly head: readonly Buffer[] };

export function hasBody(req: IncomingMessage): boolean {
  const len = req.headers['content-length'];
  return (len !== undefined && len !== '0') || req.headers['transfer-encoding'] !== undefined;
}

export function bufferBody(req: IncomingMessage, max: number): Promise<BufferedBody> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    const onData = (c: Buffer) => {
      size += c.length;
      chunks.push(c);
      if (size > max) {
        over = true;
        req.off('data', onData);
        req.pause();
        resolve({ kind: 'over', head: chunks });
      }
    };
    req.on('data', onData);
    req.once('end', () => { if (!over) resolve({ kind: 'whole', body: Buffer.concat(chunks, size) }); });
    req.once('error', reject);
  });
}

/** The whole body of an over-limit request: what was buffered, then the rest as it arrives. */
export function resumedBody(head: readonly Buffer[], req: IncomingMessage): Readable {
  return Readable.from((async function* () {
    yield* head;
    for await (const chunk of req) yield chunk as Buffer;
  })(), { objectMode: false });
}

/** Reads and drops what is left of a refused body, so the 413 reaches a client still sending. */
export function discardRest(req: IncomingMessage): void {
  req.resume();
}
