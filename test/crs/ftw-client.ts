// Sends raw request bytes over a fresh TCP connection, like the Python ftw runner: no HTTP client
// in between that could tidy the request up. Reads until the response head is complete or the
// server closes: the edge keeps connections alive, and only the status is judged.
import { connect } from 'node:net';

export interface RawExchange {
  /** Response status, or undefined when there was no parsable HTTP response. */
  status: number | undefined;
  /** Why there was no response (timeout, reset, not HTTP). */
  error?: string;
}

export function sendRaw(port: number, bytes: Buffer, timeoutMs: number): Promise<RawExchange> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (error?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(chunks).toString('latin1');
      const m = /^HTTP\/\d\.\d (\d{3})/.exec(text);
      if (m) resolve({ status: Number(m[1]) });
      else resolve({ status: undefined, error: error ?? (text === '' ? 'no response' : 'not an HTTP response') });
    };
    const timer = setTimeout(() => finish('timeout'), timeoutMs);
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      if (Buffer.concat(chunks).includes('\r\n\r\n')) finish();
    });
    socket.on('end', () => finish());
    socket.on('close', () => finish());
    socket.on('error', (err) => finish(err.message));
    socket.write(bytes);
  });
}
