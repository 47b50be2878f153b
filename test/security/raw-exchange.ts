import net from 'node:net';
import { ORIGIN_ANSWER } from './recording-origin.js';

// One connection, raw bytes out, everything back until the peer closes. Every probe ends with a
// request asking for `Connection: close`, so the close is the event waited for; the deadline is
// only a bound for a proxy that would hang (it shows as `timeout` in the results, never as a pass).

export interface RawResponse {
  status: number;
  /** The answer came from the origin (its marker header), not from the proxy. */
  fromOrigin: boolean;
  requestId: string | null;
}

export interface Exchange {
  responses: RawResponse[];
  timedOut: boolean;
}

export const PROBE_DEADLINE_MS = 20_000;

export function exchange(port: number, bytes: Buffer, deadlineMs = PROBE_DEADLINE_MS): Promise<Exchange> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let timedOut = false;
    const timer = setTimeout(() => { timedOut = true; socket.destroy(); }, deadlineMs);
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('error', () => {});
    socket.once('close', () => {
      clearTimeout(timer);
      resolve({ responses: parseResponses(Buffer.concat(chunks).toString('latin1')), timedOut });
    });
    socket.once('connect', () => socket.write(bytes, () => {}));
  });
}

/** Status lines and the headers the harness reads, response by response. */
export function parseResponses(text: string): RawResponse[] {
  const out: RawResponse[] = [];
  const re = /HTTP\/1\.[01] (\d{3})[^\r\n]*\r\n([\s\S]*?)\r\n\r\n/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const fields = m[2].toLowerCase();
    out.push({
      status: Number(m[1]),
      fromOrigin: fields.includes(`${ORIGIN_ANSWER}: 1`),
      requestId: /(?:^|\n)x-request-id: *([^\r\n]+)/.exec(m[2].replace(/\r/g, '').toLowerCase())?.[1] ?? null,
    });
  }
  return out;
}
