import type { IncomingMessage } from 'node:http';

// Slow bodies (slow POST, "R.U.D.Y."): node's headersTimeout covers the head only, and its
// requestTimeout would cut honest large uploads. Instead a body must keep moving: when no byte
// arrives on the socket for idleMs while the body is incomplete, the request is cut. Bytes are
// read off socket.bytesRead, so the watch never touches the body stream itself (it may be piped
// to the origin). A stall is noticed between idleMs and 1.25 x idleMs after the last byte.

export function watchBodyProgress(req: IncomingMessage, idleMs: number, onStall: () => void): () => void {
  if (idleMs <= 0 || req.complete) return () => {};
  const socket = req.socket;
  const step = Math.max(5, Math.floor(idleMs / 4));
  let lastBytes = socket.bytesRead;
  let lastMove = Date.now();
  const timer = setInterval(() => {
    if (req.complete || socket.destroyed) { stop(); return; }
    const now = Date.now();
    if (socket.bytesRead !== lastBytes) { lastBytes = socket.bytesRead; lastMove = now; return; }
    if (now - lastMove >= idleMs) { stop(); onStall(); }
  }, step);
  timer.unref();
  // The socket outlives the request on keep-alive connections: take the listener off again.
  const stop = () => {
    clearInterval(timer);
    req.off('end', stop);
    socket.off('close', stop);
  };
  req.once('end', stop);
  socket.once('close', stop);
  return stop;
}
