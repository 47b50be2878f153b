import type { EngineRequest } from '../engine/request/model.js';
import type { InspectedRequest } from '../proxy/inspector.js';

// The one adapter from a request the edge parsed to the engine's request model. The edge's
// inspector (engine-inspector.ts) and the CRS conformance suite (test/crs/) both go through it,
// so what the suite measures is what production traffic gets: the client address after
// X-Forwarded-For (when the peer is a trusted proxy), the origin form of the request target
// (request-handler.ts), node's raw header pairs in arrival order and the body as buffered.

export function engineRequestFrom(request: InspectedRequest): EngineRequest {
  return {
    remoteAddr: request.clientAddr,
    remotePort: request.clientPort,
    serverAddr: request.serverAddr,
    serverPort: request.serverPort,
    method: request.method,
    uri: request.uri,
    protocol: request.protocol,
    // REQUEST_LINE as sent (an absolute-form target, e.g. a proxy probe, stays absolute); REQUEST_URI
    // and the rest read the origin form the origin gets.
    requestLine: request.target === undefined || request.target === request.uri ? undefined : `${request.method} ${request.target} ${request.protocol}`,
    headers: engineHeaders(request.headers),
    body: request.body ?? undefined,
  };
}

// The engine reads bytes, one char per byte (engine/CONTRACT.md). node:http already hands header
// values over that way (it decodes them as latin1), so they pass as they are: no copy per request.
// (The previous Buffer.from(value, 'utf8') re-encoding also turned every non-ASCII byte into two.)
// Only a value with a char above 0xff, which node never produces but another caller might, is
// encoded as UTF-8 bytes.
const NOT_A_BYTE_STRING = /[^\x00-\xff]/;

export function engineHeaders(headers: InspectedRequest['headers']): Array<[string, string]> {
  let out: Array<[string, string]> | null = null;
  for (let i = 0; i < headers.length; i++) {
    const value = headers[i][1];
    if (!NOT_A_BYTE_STRING.test(value)) continue;
    out ??= headers.map(([n, v]) => [n, v] as [string, string]);
    out[i] = [headers[i][0], Buffer.from(value, 'utf8').toString('latin1')];
  }
  return out ?? (headers as Array<[string, string]>);
}
