import type { Duplex } from 'node:stream';
import { maxHeadBytes, readRefusedHead, type HeadLimits, type HeadReading } from './refused-head.js';

// The rest of a refused head. node's 'clientError' hands over only the read its parser failed in
// (err.rawPacket), measured on node 20: an unknown method in a head sent in three packets comes
// with the first packet alone, its Host and User-Agent still on the way. So when that read holds
// the start of a head but not its end, the following reads are taken from the socket (node's
// parser, failed, only reports them again) until the blank line, the head limit, the end of the
// connection or the head timeout, whichever comes first; then the head is read once more.
//
// Cost for an attacker who sends a byte at a time: the bytes are appended (at most the head
// limit, as node would hold) and the head is read again only on a chunk holding a line end, and
// every line end either completes a valid field (at most maxHeaders of them) or ends the
// collection as unreadable: a bounded number of reads of a bounded head.

export interface CollectLimits extends HeadLimits {
  /** How long the rest of the head may take (the edge's head timeout). */
  readonly headerTimeoutMs: number;
}

/** Calls `done` once with the reading of the head that starts `first` (now, or once more bytes came). */
export function collectRefusedHead(socket: Duplex, first: Buffer, limits: CollectLimits, done: (reading: HeadReading) => void): void {
  let reading = readRefusedHead(first, limits);
  if (reading.kind !== 'incomplete' || !socket.readable) { done(finalReading(reading)); return; }
  const cap = maxHeadBytes(limits);
  const chunks: Buffer[] = [first];
  let length = first.length;
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    socket.off('data', onData);
    socket.off('end', finish);
    socket.off('close', finish);
    done(finalReading(reading));
  };
  const onData = (chunk: Buffer) => {
    const room = cap + 1 - length; // one byte past the cap is enough to tell "over the limit"
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    chunks.push(part);
    length += part.length;
    if (part.includes(10 /* LF */) || length > cap) {
      reading = readRefusedHead(Buffer.concat(chunks, length), limits);
      if (reading.kind !== 'incomplete' || length > cap) finish();
    }
  };
  const timer = setTimeout(finish, limits.headerTimeoutMs);
  timer.unref();
  socket.on('data', onData);
  // Before node's own 'end' listener, which ends the socket when the client half-closes: the
  // answer is still written.
  socket.prependOnceListener('end', finish);
  socket.once('close', finish);
}

/** A head still incomplete when the collection ends (timeout, end of the connection) is not judged. */
function finalReading(reading: HeadReading): HeadReading {
  return reading.kind === 'incomplete' ? { kind: 'unreadable', reason: 'the head did not end' } : reading;
}
