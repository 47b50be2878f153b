// Where a hostile value travels in a whole request: the query string, a form body, a JSON body, the
// User-Agent header, a cookie. Bodies stay under the inspection limit once encoded; the URI and
// headers under 8 KiB (nginx's default large_client_header_buffers).
import type { EngineRequest } from '../../daemon/engine/request/model.js';
import { BODY_LIMIT } from './pathological-inputs.js';

export const PLACEMENTS = ['query', 'form body', 'JSON body', 'User-Agent', 'Cookie'] as const;

function fitEncoded(value: string, limit: number, encode: (s: string) => string): string {
  let v = value;
  while (v.length > 0 && encode(v).length > limit) v = v.slice(0, Math.floor(v.length * 0.8));
  return v;
}

const browser: Array<[string, string]> = [['Host', 'shop.example.com'], ['User-Agent', 'Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0'], ['Accept', 'text/html']];
const base = { remoteAddr: '203.0.113.9', remotePort: 50000, serverAddr: '10.0.0.1', serverPort: 443, protocol: 'HTTP/1.1' };

export function requestsFor(value: string): Array<[(typeof PLACEMENTS)[number], EngineRequest]> {
  const inUri = fitEncoded(value, 8_000, encodeURIComponent);
  const inHeader = fitEncoded(value, 8_000, (s) => s).replace(/[\r\n\u0000]/g, ' ');
  const form = 'q=' + encodeURIComponent(fitEncoded(value, BODY_LIMIT - 100, encodeURIComponent));
  const json = JSON.stringify({ q: fitEncoded(value, BODY_LIMIT - 100, (s) => JSON.stringify(s)) });
  return [
    ['query', { ...base, method: 'GET', uri: `/search?q=${encodeURIComponent(inUri)}`, headers: browser }],
    ['form body', { ...base, method: 'POST', uri: '/comment', headers: [...browser, ['Content-Type', 'application/x-www-form-urlencoded'], ['Content-Length', String(form.length)]], body: Buffer.from(form, 'latin1') }],
    ['JSON body', { ...base, method: 'POST', uri: '/api/item', headers: [...browser, ['Content-Type', 'application/json'], ['Content-Length', String(json.length)]], body: Buffer.from(json, 'latin1') }],
    ['User-Agent', { ...base, method: 'GET', uri: '/', headers: [['Host', 'shop.example.com'], ['User-Agent', inHeader]] }],
    ['Cookie', { ...base, method: 'GET', uri: '/', headers: [...browser, ['Cookie', `session=${inHeader.replace(/[;=]/g, 'x')}`]] }],
  ];
}
