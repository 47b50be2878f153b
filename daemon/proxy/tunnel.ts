import type net from 'node:net';

// An established upgrade (after the origin's 101): the client and origin sockets piped both ways,
// untouched. Two things bound it, so an idle or half-closed tunnel cannot hold two descriptors and
// an origin connection forever:
// - idle: no byte either way for `idleMs` (edge limit tunnelIdleTimeoutMs, nginx's
//   proxy_read_timeout 60 s) closes both. Every tunnel byte is read on one socket and written on
//   the other, so the client socket's own timeout sees traffic in both directions;
// - half-open: pipe() forwards a FIN as end(); a peer that never closes its half would hold the
//   pair, so both go HALF_OPEN_GRACE_MS after the first FIN.

const HALF_OPEN_GRACE_MS = 30_000;

export function openTunnel(client: net.Socket, upstream: net.Socket, idleMs: number): void {
  const closeBoth = () => { client.destroy(); upstream.destroy(); };
  client.setTimeout(idleMs);
  client.on('timeout', closeBoth);
  upstream.on('error', () => client.destroy());
  client.on('error', () => upstream.destroy());
  client.once('close', () => upstream.destroy());
  upstream.once('close', () => client.destroy());
  const reap = () => setTimeout(closeBoth, HALF_OPEN_GRACE_MS).unref();
  client.once('end', reap);
  upstream.once('end', reap);
  upstream.pipe(client);
  client.pipe(upstream);
}
