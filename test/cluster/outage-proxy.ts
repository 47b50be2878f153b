// A TCP relay between one daemon and PostgreSQL (or Redis) that a test can cut or hang: while cut,
// every connection through it is reset and new ones are refused at once, as a node cut off from its
// database sees it; while hung, connections stay open and bytes are held in both directions (a
// stopped server, a partition that drops packets), and released on restore, as SIGCONT would.
// The server itself keeps running for the other nodes (and for CI's shared server).
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface OutageProxy {
  /** The database URL with the relay's host and port in place of the server's. */
  url: string;
  cut(): void;
  /** Holds every byte either way (and accepts connections it does not forward) until restore(). */
  hang(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function outageProxy(databaseUrl: string): Promise<OutageProxy> {
  const target = new URL(databaseUrl);
  const open = new Set<Socket>();
  let cut = false;
  let hung = false;
  const held: Array<() => void> = [];
  /** Forwards from one socket to the other, or holds the bytes while hung. */
  const relay = (from: Socket, to: Socket) => from.on('data', (chunk: Buffer) => {
    if (hung) held.push(() => to.write(chunk));
    else to.write(chunk);
  });
  const server: Server = createServer((client) => {
    if (cut) {
      client.destroy();
      return;
    }
    const upstream = connect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => undefined);
    }
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    relay(client, upstream);
    relay(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as { port: number }).port);
  return {
    url: url.toString(),
    cut() {
      cut = true;
      for (const socket of open) socket.destroy();
    },
    hang() {
      hung = true;
    },
    restore() {
      cut = false;
      hung = false;
      for (const release of held.splice(0)) release();
    },
    async close() {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
