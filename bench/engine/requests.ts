// The benchmark's requests: a browser GET with cookies and a query string, a 1 KB form
// POST, an 8 KB JSON POST (all benign), an SQL injection GET, and the proxy bench's GET and
// WordPress comment POST (anchor-requests.ts).
import type { EngineRequest } from '../../daemon/engine/request/model.js';
import { anchorRequests } from './anchor-requests.js';

const browserHeaders: Array<[string, string]> = [
  ['Host', 'shop.example.com'],
  ['User-Agent', 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'],
  ['Accept', 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8'],
  ['Accept-Language', 'en-GB,en;q=0.9,de;q=0.8'],
  ['Accept-Encoding', 'gzip, deflate, br'],
  ['Referer', 'https://shop.example.com/products?category=shoes'],
  ['Cookie', 'session_id=6f1c2a9e4b7d4c3f9a8e2d1b0c9f8e7d; _ga=GA1.2.1234567890.1700000000; theme=dark; cart=3'],
  ['Connection', 'keep-alive'],
  ['Upgrade-Insecure-Requests', '1'],
];

function base(method: string, uri: string, headers: Array<[string, string]>, body?: Buffer): EngineRequest {
  return { remoteAddr: '203.0.113.9', remotePort: 51234, serverAddr: '10.0.0.1', serverPort: 443, method, uri, protocol: 'HTTP/1.1', headers, body };
}

function formBody(): Buffer {
  const fields: string[] = [];
  const words = ['alpha', 'bravo', 'charlie', 'delta', 'eagle', 'foxtrot', 'golf', 'hotel'];
  for (let i = 0; fields.join('&').length < 980; i++) {
    fields.push(`field_${i}=${encodeURIComponent(`${words[i % 8]} ${words[(i + 3) % 8]} ${i * 37} and some text`)}`);
  }
  const body = fields.join('&');
  return Buffer.from(body + '&pad=' + 'x'.repeat(Math.max(0, 1024 - body.length - 5)));
}

function jsonBody(): Buffer {
  const items = [];
  for (let i = 0; JSON.stringify({ items }).length < 8000; i++) {
    items.push({ id: i, name: `Product ${i}`, description: 'A comfortable running shoe with breathable mesh', price: 59.9 + i, tags: ['shoes', 'sport'], inStock: i % 3 !== 0 });
  }
  return Buffer.from(JSON.stringify({ customer: { id: 42, email: 'jane@example.com' }, items }));
}

export const benchRequests: Record<string, EngineRequest> = {
  'benign GET': base('GET', '/products/view?id=12345&category=shoes&sort=price_asc&page=2', browserHeaders),
  '1 KB form POST': base('POST', '/account/profile', [
    ...browserHeaders,
    ['Content-Type', 'application/x-www-form-urlencoded'],
    ['Content-Length', '1024'],
  ], formBody()),
  '8 KB JSON POST': base('POST', '/api/cart', [
    ...browserHeaders.filter(([n]) => n !== 'Accept'),
    ['Accept', 'application/json'],
    ['Content-Type', 'application/json'],
    ['Content-Length', String(jsonBody().length)],
  ], jsonBody()),
  'SQLi GET': base('GET', "/products/view?id=1%27%20UNION%20SELECT%20username,password%20FROM%20users--%20-", browserHeaders),
  ...anchorRequests,
};
