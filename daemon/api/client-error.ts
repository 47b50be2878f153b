import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorBody } from '../../shared/errors.js';

// Requests node's HTTP parser refuses before any route sees them (headers over 16 KiB, control
// characters in a header, a broken request line, a request that took too long) still get the
// documented error body. fastify's default answer has its own shape ({error: "Bad Request",
// statusCode}) and destroys the socket right after writing it, which over TLS loses the answer.
// The body carries both contracts: the envelope (success, error, message) for /api/v1 and the admin
// socket, and `errors` for ingestion clients, since the path is not known yet.

const LINGER_MS = 1_000;

const MESSAGES: Record<string, string> = {
  HPE_HEADER_OVERFLOW: 'the request headers are larger than the 16 KiB the server accepts',
  ERR_HTTP_REQUEST_TIMEOUT: 'the request was not received in time',
  HPE_HEADERS_TIMEOUT: 'the request headers were not received in time',
};

export function clientErrorResponse(code: string | undefined): string {
  const message = (code !== undefined && MESSAGES[code]) || 'the request is not valid HTTP/1.1';
  const body = JSON.stringify({ ...errorBody('bad_request', message), errors: [message] });
  return [
    'HTTP/1.1 400 Bad Request',
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/** Replaces the server's clientError handling (fastify installs its own at construction). */
export function answerClientErrors(server: Server): void {
  server.removeAllListeners('clientError');
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    // The parser can fail again on bytes that follow (a body after oversized headers): the answer is
    // already on its way out, and destroying now would lose it.
    if (socket.writableEnded) return;
    if (!socket.writable) return void socket.destroy();
    // end(), not write() + destroy(): the answer must be flushed through TLS before the close. Whatever
    // the client still sends (the body after oversized headers) is read and dropped for a moment:
    // closing with unread bytes would reset the connection and could swallow the answer.
    socket.end(clientErrorResponse(error.code));
    socket.on('data', () => undefined).resume();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  });
}
