// A freshly loaded rule set is cold: V8 compiles each regex on its first exec (to bytecode) and
// again on its second (to machine code), and the engine's own functions are not optimised yet.
// Measured on the shared 2-core box (load ~8): the 265 CRS regexes take ~200 ms to compile and ~60
// ms to tier up, and the first 8 KB JSON request on a new PL1 set takes ~230 ms against ~1.5 ms warm.
// Under a time budget of tens of ms that would refuse the first benign requests after every start
// or rule change, so whoever serves traffic with a budget runs these requests through a new set
// first (no budget, results thrown away): each request shape twice, so every regex they reach is
// compiled and tiered up. Regex code is not flushed by later garbage collections (checked with 12
// forced full GCs: the next exec of all 265 took 0.4 ms).
import type { Waf } from '../waf.js';
import type { EngineRequest } from '../request/model.js';

const base = { remoteAddr: '192.0.2.10', remotePort: 40000, serverAddr: '192.0.2.1', serverPort: 80, protocol: 'HTTP/1.1' };
const browser: Array<[string, string]> = [
  ['Host', 'warm-up.invalid'],
  ['User-Agent', 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0'],
  ['Accept', 'text/html,application/xhtml+xml'],
  ['Accept-Language', 'en-GB,en;q=0.9'],
  ['Referer', 'http://warm-up.invalid/list?page=2'],
  ['Cookie', 'session=3f1c2a9e4b7d; theme=dark'],
];

function post(uri: string, contentType: string, body: string): EngineRequest {
  return { ...base, method: 'POST', uri, headers: [...browser, ['Content-Type', contentType], ['Content-Length', String(body.length)]], body: Buffer.from(body, 'latin1') };
}

const boundary = '----warmup7MA4YWxkTrZu0gW';
const multipart = [
  `--${boundary}`, 'Content-Disposition: form-data; name="title"', '', 'Hello there',
  `--${boundary}`, 'Content-Disposition: form-data; name="file"; filename="notes.txt"', 'Content-Type: text/plain', '', 'plain text notes',
  `--${boundary}--`, '',
].join('\r\n');

// Lists of 16 or more entries take the engine's shared-values path (collections/keyed-list.ts): a
// JSON array of similar objects and a longer form warm that path too.
const items = Array.from({ length: 24 }, (_, i) => ({ id: i, sku: `SKU-${1000 + i}`, name: `Item ${i}`, qty: (i % 3) + 1, gift: i % 5 === 0 }));
const longForm = Array.from({ length: 20 }, (_, i) => `field_${i}=value+number+${i}`).join('&');

/** Benign requests of every body shape the edge sees. */
export const WARM_UP_REQUESTS: readonly EngineRequest[] = [
  { ...base, method: 'GET', uri: '/products/list.php?category=shoes&sort=price&q=red+running+shoes', headers: browser },
  post('/comment', 'application/x-www-form-urlencoded', 'name=Jane+Doe&email=jane%40example.com&comment=Nice+article%2C+thanks%21&rating=5'),
  post('/api/items', 'application/json', JSON.stringify({ id: 42, name: 'Running shoe', tags: ['red', 'sport'], price: { amount: 79.9, currency: 'EUR' }, note: 'size 42, delivery next week' })),
  post('/api/cart', 'application/json', JSON.stringify({ cart: items, coupon: null })),
  post('/signup', 'application/x-www-form-urlencoded', longForm),
  post('/api/soap', 'text/xml', '<?xml version="1.0"?><order><item id="7">Running shoe</item><qty>2</qty></order>'),
  post('/upload', `multipart/form-data; boundary=${boundary}`, multipart),
];

/** Rounds of warm-up: two compile and tier up the regexes, a third lets V8 optimise more of the engine (first 8 KB JSON at PL4 after 3 rounds: ~12-19 ms CPU, after 2: ~59). */
export const ROUNDS = Number(process.env.WAFCTL_WARMUP_ROUNDS ?? 3);

/** Runs the warm-up requests through `waf` ROUNDS times; returns the milliseconds it took. */
export function warmUp(waf: Waf): number {
  const started = performance.now();
  for (let round = 0; round < ROUNDS; round++) {
    for (const request of WARM_UP_REQUESTS) {
      const tx = waf.newTransaction(request);
      tx.processRequest();
      tx.processLogging();
    }
  }
  return performance.now() - started;
}
