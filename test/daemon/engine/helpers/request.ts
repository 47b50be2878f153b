import type { EngineRequest } from '../../../../daemon/engine/request/model.js';

export function request(uri: string, extra: Partial<EngineRequest> = {}): EngineRequest {
  return {
    remoteAddr: '192.0.2.7',
    remotePort: 40000,
    method: 'GET',
    uri,
    protocol: 'HTTP/1.1',
    headers: [['Host', 'example.test'], ['User-Agent', 'test']],
    ...extra,
  };
}
