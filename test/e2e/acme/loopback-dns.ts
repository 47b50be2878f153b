import { createSocket, type Socket } from 'node:dgram';

// A DNS responder for pebble's -dnsserver: every name is 127.0.0.1 (A) and has no AAAA, so the CA
// validates HTTP-01 against the test's edge on loopback without touching the box's resolver.

const TYPE_A = 1;

export interface LoopbackDns {
  port: number;
  close(): Promise<void>;
}

export async function startLoopbackDns(): Promise<LoopbackDns> {
  const socket: Socket = createSocket('udp4');
  socket.on('message', (query, peer) => {
    const answer = respond(query);
    if (answer) socket.send(answer, peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return { port: socket.address().port, close: () => new Promise((resolve) => socket.close(() => resolve())) };
}

function respond(query: Buffer): Buffer | null {
  if (query.length < 12) return null;
  let end = 12;
  while (end < query.length && query[end] !== 0) end += query[end] + 1;
  end += 1; // the root label
  if (end + 4 > query.length) return null;
  const qtype = query.readUInt16BE(end);
  const question = query.subarray(12, end + 4);
  const header = Buffer.alloc(12);
  query.copy(header, 0, 0, 2); // id
  header.writeUInt16BE(0x8180, 2); // response, recursion desired and available, NOERROR
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(qtype === TYPE_A ? 1 : 0, 6);
  if (qtype !== TYPE_A) return Buffer.concat([header, question]);
  const record = Buffer.from([0xc0, 0x0c, 0, TYPE_A, 0, 1, 0, 0, 0, 60, 0, 4, 127, 0, 0, 1]);
  return Buffer.concat([header, question, record]);
}
