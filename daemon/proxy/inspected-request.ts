import type { IncomingMessage } from 'node:http';
import type { EdgeRequest } from './edge-request.js';
import type { InspectedRequest } from './inspector.js';
import type { CompiledSite } from './snapshot.js';

// The engine's view of a request (inspector.ts): raw headers in arrival order, the body if read.

export function siteView(site: CompiledSite): InspectedRequest['site'] {
  return {
    id: site.id, domain: site.domain, mode: site.waf.mode as 'on' | 'detect', paranoia: site.waf.paranoia, rules: site.waf.rules,
    responses: site.responseInspection,
  };
}

export function inspectedRequest(edge: EdgeRequest, req: IncomingMessage, site: InspectedRequest['site'], body: Buffer | null): InspectedRequest {
  const raw = req.rawHeaders;
  const headers: Array<readonly [string, string]> = [];
  for (let i = 0; i < raw.length; i += 2) headers.push([raw[i], raw[i + 1]]);
  return {
    requestId: edge.requestId, method: edge.method, uri: edge.uri, target: req.url ?? edge.uri, protocol: `HTTP/${req.httpVersion}`, headers,
    clientAddr: edge.client.text, clientPort: req.socket.remotePort ?? 0,
    serverAddr: req.socket.localAddress ?? '', serverPort: req.socket.localPort ?? 0, body, site,
  };
}
