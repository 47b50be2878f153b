import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// The WordPress benign corpus (test/fixtures/wordpress-benign/): requests a WordPress site with
// WooCommerce and Elementor sends in ordinary use, written from the request shapes of their
// sources (README.md there). Each becomes one raw HTTP/1.1 request that asks for `Connection:
// close`, so the exchange ends when the proxy has answered it.

export interface CorpusRequest {
  id: string;
  /** What kind of traffic (page-view, customizer, elementor, ...): the table groups by it. */
  shape: string;
  /** Where the shape comes from (the script or template of WordPress, Gutenberg, WooCommerce, Elementor). */
  source: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  bodyBase64?: string;
}

const FILE = fileURLToPath(new URL('../fixtures/wordpress-benign/requests.json', import.meta.url));

export function loadCorpus(): CorpusRequest[] {
  return JSON.parse(readFileSync(FILE, 'utf8')) as CorpusRequest[];
}

export function corpusBytes(request: CorpusRequest, host: string): Buffer {
  const body = request.bodyBase64 !== undefined ? Buffer.from(request.bodyBase64, 'base64') : Buffer.from(request.body ?? '', 'utf8');
  const fields = [`Host: ${host}`, ...Object.entries(request.headers).map(([k, v]) => `${k}: ${v}`)];
  if (body.length > 0 || request.method === 'POST') fields.push(`Content-Length: ${body.length}`);
  fields.push('Connection: close');
  return Buffer.concat([Buffer.from(`${request.method} ${request.path} HTTP/1.1\r\n${fields.join('\r\n')}\r\n\r\n`, 'utf8'), body]);
}
