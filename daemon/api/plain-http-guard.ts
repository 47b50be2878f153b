import { createServer, type Server, type Socket } from 'node:net';
import type { Server as TlsServer } from 'node:tls';
import { errorBody } from '../../shared/errors.js';

// One port, HTTPS only (spec 5.4, DESIGN.md section 5): a net.Server looks at the first byte of each
// connection. 0x16 opens a TLS handshake, so the socket goes to the HTTPS server; anything else is a
// plain-HTTP (or garbage) client, which gets 400 https_required in the envelope and is closed.

const TLS_HANDSHAKE = 0x16;
const FIRST_BYTE_TIMEOUT_MS = 10_000;
const LINGER_MS = 2_000;

const PLAIN_BODY = JSON.stringify(errorBody('https_required', 'This port speaks HTTPS only: use https:// (plain HTTP is refused).'));
const PLAIN_RESPONSE = [
  'HTTP/1.1 400 Bad Request',
  'Content-Type: application/json; charset=utf-8',
  `Content-Length: ${Buffer.byteLength(PLAIN_BODY)}`,
  'Connection: close',
  '',
  PLAIN_BODY,
].join('\r\n');

export function createHttpsOnlyListener(tlsServer: TlsServer): Server {
  return createServer((socket) => {
    socket.setTimeout(FIRST_BYTE_TIMEOUT_MS, () => socket.destroy());
    socket.once('data', (chunk: Buffer) => {
      socket.setTimeout(0);
      socket.pause();
      if (chunk[0] === TLS_HANDSHAKE) {
        socket.unshift(chunk);
        tlsServer.emit('connection', socket);
      } else {
        refusePlain(socket);
      }
    });
    socket.on('error', () => socket.destroy());
  });
}

function refusePlain(socket: Socket): void {
  socket.end(PLAIN_RESPONSE);
  // Keep reading what the client still sends, so closing does not turn into a reset that could
  // swallow the answer; then give up after a short linger.
  socket.resume();
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}
