// A TCP relay between one daemon and PostgreSQL that a test can cut: while cut, every connection
// through it is reset and new ones are refused at once, as a node cut off from its database sees
// it; the server itself keeps running for the other nodes (and for CI's shared server).
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface OutageProxy {
  /** The database URL with the relay's host and port in place of the server's. */
  url: string;
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function outageProxy(databaseUrl: string): Promise<OutageProxy> {
  const target = new URL(databaseUrl);
  const open = new Set<Socket>();
  let cut = false;
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
    client.pipe(upstream);
    upstream.pipe(client);
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
    restore() {
      cut = false;
    },
    async close() {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
