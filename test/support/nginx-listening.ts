// Starting a real nginx for a test (an origin in test/daemon/proxy, nginx + ModSecurity v3 in
// test/security): nginx takes its port from its config, so a test picks a free one first and then
// waits for nginx to listen on it, or to exit (the port was taken meanwhile, or the config is bad).
import type { ChildProcess } from 'node:child_process';
import net from 'node:net';

/** A port nothing listens on right now (the caller retries if nginx then loses the race for it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** True once the port accepts a connection, false if nginx exits first (port taken, bad config). */
export function listening(port: number, child: ChildProcess): Promise<boolean> {
  return new Promise((resolve) => {
    let done = false;
    child.once('exit', () => { if (!done) { done = true; resolve(false); } });
    const attempt = () => {
      if (done) return;
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => { socket.destroy(); done = true; resolve(true); });
      // Refused: nginx has not bound yet (or is still loading rules); try again shortly.
      socket.once('error', () => setTimeout(attempt, 10));
    };
    attempt();
  });
}
