import net from 'node:net';
import tls from 'node:tls';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { CompiledSite } from './snapshot.js';

// WebSocket (any HTTP/1.1 Upgrade) passthrough: after the checks, the request head is written
// to a fresh origin connection and the two sockets are piped both ways; the origin's 101 and
// every frame after it pass through untouched. Upgrades do not use the keep-alive pools (an
// upgraded connection is never returned to a pool).

const HALF_OPEN_GRACE_MS = 30_000;

export function forwardUpgrade(
  site: CompiledSite,
  req: IncomingMessage,
  /** Flat [name, value, ...] list (forward-headers.ts), hop-by-hop fields already removed. */
  headers: readonly string[],
  client: Duplex,
  head: Buffer,
  connectTimeoutMs: number,
  onConnectError: () => void,
): void {
  const { origin } = site;
  const port = Number(origin.port || (origin.protocol === 'https:' ? 443 : 80));
  const upstream: net.Socket = origin.protocol === 'https:'
    ? tls.connect({ host: origin.hostname, port, servername: net.isIP(origin.hostname) ? undefined : origin.hostname })
    : net.connect({ host: origin.hostname, port });
  let connected = false;
  upstream.setTimeout(connectTimeoutMs, () => { if (!connected) upstream.destroy(new Error('connect timeout')); });
  upstream.once(origin.protocol === 'https:' ? 'secureConnect' : 'connect', () => {
    connected = true;
    upstream.setTimeout(0);
    let text = `${req.method} ${site.originBasePath}${req.url} HTTP/1.1\r\n`;
    for (let i = 0; i < headers.length; i += 2) text += `${headers[i]}: ${headers[i + 1]}\r\n`;
    text += `connection: Upgrade\r\nupgrade: ${req.headers.upgrade ?? 'websocket'}\r\n`;
    upstream.write(text + '\r\n', 'latin1');
    if (head.length) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  });
  upstream.on('error', () => {
    if (!connected) onConnectError(); else client.destroy();
  });
  // Sockets here are half-open capable: pipe() forwards a FIN as end(); a peer that never
  // closes its half would hold the pair forever, so both go 30 s after the first FIN.
  const reap = () => setTimeout(() => { client.destroy(); upstream.destroy(); }, HALF_OPEN_GRACE_MS).unref();
  client.once('end', reap);
  upstream.once('end', reap);
  client.on('error', () => upstream.destroy());
  client.on('close', () => upstream.destroy());
  upstream.on('close', () => client.destroy());
}
