import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import { clientResponseHeaders } from './forward-headers.js';
import type { CompiledSite } from './snapshot.js';

// The origin's side of an upgrade request. The request (head and the body the edge has read and
// inspected, re-framed with a Content-Length) goes out on a fresh connection through node's HTTP
// client, which parses the answer: a 101 hands over the origin socket for the tunnel (tunnel.ts);
// any other answer is an ordinary response, relayed to the client with `Connection: close`.
// Nothing the client sent after the request reaches the origin before its 101: an origin that
// does not switch protocols (most PHP, nginx and Node apps) keeps parsing HTTP on its connection,
// so raw client bytes on it would be requests nobody inspected. Upgrades do not use the keep-alive
// pools (an upgraded connection is never returned to a pool).

export interface OriginRequest {
  method: string;
  /** Origin-form target, the site's base path already prefixed. */
  path: string;
  /** Flat [name, value, ...] list (forward-headers.ts), hop-by-hop fields already removed. */
  headers: string[];
  body: Buffer | null;
  /** The Upgrade value to ask for; null: a plain request (the client's upgrade is not passed on). */
  upgrade: string | null;
}

export interface OriginAnswer {
  /** 101: the origin socket, and what the origin sent after its 101 head. */
  switched(res: IncomingMessage, upstream: net.Socket, head: Buffer): void;
  /** Any final status but 101. */
  answered(res: IncomingMessage): void;
  /** No answer: connect failure or timeout, reset, or an answer node cannot parse. */
  failed(timeout: boolean): void;
}

export interface UpgradeTimeouts {
  connectMs: number;
  /** Longest origin silence before its answer (and while a relayed answer streams). */
  idleMs: number;
}

/** Sends the request; returns how to abandon it (the client left). */
export function askOrigin(site: CompiledSite, request: OriginRequest, timeouts: UpgradeTimeouts, on: OriginAnswer): () => void {
  const { origin } = site;
  const secure = origin.protocol === 'https:';
  const headers = request.headers;
  if (request.upgrade !== null) headers.push('connection', 'Upgrade', 'upgrade', request.upgrade);
  else headers.push('connection', 'close');
  let settled = false;
  const settle = () => (settled ? false : (settled = true));
  let req: http.ClientRequest;
  try {
    req = (secure ? https : http).request({
      host: origin.hostname, port: Number(origin.port || (secure ? 443 : 80)), method: request.method, path: request.path,
      headers, setHost: false, agent: false, timeout: timeouts.connectMs,
      servername: secure && !net.isIP(origin.hostname) ? origin.hostname : undefined,
    });
  } catch {
    // A target or field node's client refuses to write: the same as an origin that failed.
    queueMicrotask(() => on.failed(false));
    return () => {};
  }
  req.once('socket', (s) => s.once(secure ? 'secureConnect' : 'connect', () => req.setTimeout(timeouts.idleMs)));
  req.on('timeout', () => {
    if (settle()) on.failed(true);
    req.destroy();
  });
  req.on('error', () => { if (settle()) on.failed(false); });
  req.on('upgrade', (res, socket: net.Socket, head: Buffer) => {
    socket.setTimeout(0);
    if (settle()) on.switched(res, socket, head); else socket.destroy();
  });
  req.on('response', (res) => { if (settle()) on.answered(res); else res.destroy(); });
  req.end(request.body ?? undefined);
  return () => { settled = true; req.destroy(); };
}

/** The origin's 101 head as the client gets it: its fields as sent, plus X-Request-Id unless it set one. */
export function switchingHead(res: IncomingMessage, requestId: string): string {
  let head = `HTTP/1.1 101 ${res.statusMessage || 'Switching Protocols'}\r\n`;
  const raw = res.rawHeaders;
  let hasId = false;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i].length === 12 && raw[i].toLowerCase() === 'x-request-id') hasId = true;
    head += `${raw[i]}: ${raw[i + 1]}\r\n`;
  }
  if (!hasId) head += `x-request-id: ${requestId}\r\n`;
  return head + '\r\n';
}

/**
 * A non-101 answer, relayed as the last response on the client connection (`Connection: close`):
 * the body as node decoded it, delimited by its Content-Length or by the close. `done` runs once
 * the response is written (or the relay broke and both sides were cut).
 */
export function relayAnswer(res: IncomingMessage, client: Duplex, requestId: string, done: () => void): void {
  const fields = clientResponseHeaders(res.rawHeaders, requestId);
  let head = `HTTP/1.1 ${res.statusCode} ${res.statusMessage ?? ''}\r\n`;
  for (let i = 0; i < fields.length; i += 2) head += `${fields[i]}: ${fields[i + 1]}\r\n`;
  client.write(head + 'connection: close\r\n\r\n', 'latin1');
  res.on('data', (chunk: Buffer) => { if (!client.write(chunk)) { res.pause(); client.once('drain', () => res.resume()); } });
  res.once('end', () => client.end(done));
  // The origin broke off mid-body: cutting the client is the only honest signal left.
  res.once('aborted', () => { client.destroy(); done(); });
  res.once('error', () => { client.destroy(); done(); });
}
