import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { ChunkedDecoder, type ChunkedStep } from './chunked-body.js';

// The body of an upgrade request, read off the raw client socket. node:http hands an upgrade
// request over at the end of its head (the body, and whatever the client pipelined after it, is
// left unparsed on the socket), so the edge frames the body itself: Content-Length or chunked
// (node's parser has already refused both together, and the protocol guard any other coding).
// Whatever follows the body is put back on the paused socket, unread: it reaches the origin only
// through the tunnel, once the origin has answered 101.

export type UpgradeBody =
  | { readonly kind: 'whole'; readonly body: Buffer | null }
  /** Larger than the inspection limit: refused with 413 (an upgrade body is never passed uninspected). */
  | { readonly kind: 'over' }
  /** Framing the edge does not accept (400). */
  | { readonly kind: 'bad'; readonly reason: string }
  /** Nothing arrived for the body idle timeout (408). */
  | { readonly kind: 'idle' }
  /** The client closed or reset before the body was complete. */
  | { readonly kind: 'gone' };

/** Whether the request head announces a body (an upgrade handshake normally has none). */
export function upgradeHasBody(req: IncomingMessage): boolean {
  const len = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (len !== undefined && Number(len) > 0);
}

/** Reads the body from `socket` (paused on entry and on return). */
export function readUpgradeBody(req: IncomingMessage, socket: Duplex & { setTimeout(ms: number): unknown }, maxBytes: number, idleMs: number): Promise<UpgradeBody> {
  if (!upgradeHasBody(req)) return Promise.resolve({ kind: 'whole', body: null });
  const chunked = req.headers['transfer-encoding'] !== undefined;
  // llhttp has checked it is a plain decimal number.
  const length = chunked ? 0 : Number(req.headers['content-length']);
  if (!chunked && length > maxBytes) return Promise.resolve({ kind: 'over' });
  const decoder = chunked ? new ChunkedDecoder(maxBytes) : null;
  const chunks: Buffer[] = [];
  let size = 0;
  return new Promise((resolve) => {
    const finish = (result: UpgradeBody, rest?: Buffer) => {
      socket.off('data', onData);
      socket.off('timeout', onIdle);
      socket.off('close', onGone);
      socket.off('end', onGone);
      socket.setTimeout(0);
      socket.pause();
      if (rest?.length) socket.unshift(rest);
      resolve(result);
    };
    const onData = (data: Buffer) => {
      if (decoder) {
        const step: ChunkedStep = decoder.push(data);
        if (step.kind === 'done') finish({ kind: 'whole', body: Buffer.concat(decoder.chunks, decoder.size) }, step.rest);
        else if (step.kind !== 'more') finish(step);
        return;
      }
      const n = Math.min(length - size, data.length);
      chunks.push(data.subarray(0, n));
      size += n;
      if (size === length) finish({ kind: 'whole', body: Buffer.concat(chunks, size) }, data.subarray(n));
    };
    const onIdle = () => finish({ kind: 'idle' });
    const onGone = () => finish({ kind: 'gone' });
    socket.setTimeout(idleMs);
    socket.on('timeout', onIdle);
    socket.once('close', onGone);
    socket.once('end', onGone);
    socket.on('data', onData);
    socket.resume();
  });
}
