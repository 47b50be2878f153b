// node:http's parsed request -> EngineRequest. Node hands over the URL and header values as
// latin1 strings (one char per byte), which is exactly the engine's byte-string model.
import type { IncomingMessage } from 'node:http';
import type { EngineRequest } from './model.js';

export function engineRequestFromNode(req: IncomingMessage, body: Buffer | undefined): EngineRequest {
  const headers: Array<[string, string]> = [];
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) headers.push([req.rawHeaders[i], req.rawHeaders[i + 1]]);
  const protocol = `HTTP/${req.httpVersion}`;
  const method = req.method ?? '';
  const uri = req.url ?? '';
  return {
    remoteAddr: req.socket.remoteAddress ?? '',
    remotePort: req.socket.remotePort ?? 0,
    serverAddr: req.socket.localAddress ?? '',
    serverPort: req.socket.localPort ?? 0,
    method,
    uri,
    protocol,
    requestLine: `${method} ${uri} ${protocol}`,
    headers,
    body: body && body.length > 0 ? body : undefined,
  };
}
