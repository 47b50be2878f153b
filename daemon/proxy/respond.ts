import type { ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Block, Interstitial } from './checks/outcome.js';
import { page, type Page } from './pages.js';
import type { BlockResponse } from './snapshot.js';

// How a refusal reaches the client. 'drop' resets the connection without a single byte of
// response (a TCP RST where the socket allows it, so the client sees ECONNRESET at once).

/** Status recorded in the access log for a dropped connection (nginx's 444: no response). */
export const DROPPED_STATUS = 444;

export function blockPage(block: Block, mode: BlockResponse, requestId: string): Page | 'drop' {
  if (block.response) return page(block.response.status, requestId, block.response.headers);
  return siteBlockPage(mode, requestId);
}

export function siteBlockPage(mode: BlockResponse, requestId: string): Page | 'drop' {
  return mode === 'drop' ? 'drop' : page(mode, requestId);
}

export function drop(socket: Duplex): void {
  const s = socket as Duplex & { resetAndDestroy?: () => void };
  if (typeof s.resetAndDestroy === 'function') s.resetAndDestroy();
  else socket.destroy();
}

export function sendPage(res: ServerResponse, p: Page | Interstitial): void {
  res.writeHead(p.status, p.headers);
  res.end(p.body);
}

/** For upgrade requests, where there is no ServerResponse: a raw HTTP/1.1 response, then close. */
export function writeRawPage(socket: Duplex, p: Page | Interstitial): void {
  const body = Buffer.from(p.body);
  let head = `HTTP/1.1 ${p.status} ${p.status === 302 ? 'Found' : 'Refused'}\r\n`;
  for (const [k, v] of Object.entries({ ...p.headers, 'content-length': String(body.length), connection: 'close' })) head += `${k}: ${v}\r\n`;
  socket.end(Buffer.concat([Buffer.from(head + '\r\n', 'latin1'), body]));
}
