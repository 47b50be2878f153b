// A benign corpus of our own, the traffic a WordPress site's visitors and editors send: browser
// page views with varied query strings and cookies, Gutenberg editor saves with long HTML, REST API
// JSON, comment forms, admin-ajax calls, and media uploads (multipart with a file). Seeded, so a
// run can be repeated; every request differs, as real visitors' do. Used by budget-under-load.ts
// to check that the engine's time budget refuses none of it, however loaded the machine is.
import type { EngineRequest } from '../../daemon/engine/request/model.js';
import { seededRandom as prng } from '../seeded-random.js';

const WORDS = ['running', 'shoes', 'garden', 'recipe', 'winter', 'coffee', 'travel', 'review', 'guide', 'summer', 'kitchen', 'bicycle', 'camera', 'weekend', 'market', 'island', 'mountain', 'library', 'concert', 'harvest'];
const AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
];

export interface CorpusRequest {
  kind: string;
  request: EngineRequest;
}

export function benignCorpus(count: number, seed = 1): CorpusRequest[] {
  const rnd = prng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
  const hex = (n: number) => Array.from({ length: n }, () => Math.floor(rnd() * 16).toString(16)).join('');
  const words = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
  const sentence = () => `${words(6 + Math.floor(rnd() * 10))}, and ${words(4)}; it's "${pick(WORDS)}" (${Math.floor(rnd() * 100)}%).`;
  const ip = () => `198.51.100.${1 + Math.floor(rnd() * 250)}`;
  const browser = (loggedIn: boolean): Array<[string, string]> => {
    const cookies = [`_ga=GA1.2.${Math.floor(rnd() * 1e9)}.${1700000000 + Math.floor(rnd() * 1e7)}`, `_gid=GA1.2.${Math.floor(rnd() * 1e9)}`];
    if (loggedIn) cookies.push(`wordpress_logged_in_${hex(32)}=editor%7C${1700000000 + Math.floor(rnd() * 1e7)}%7C${hex(43)}%7C${hex(64)}`, `wp-settings-1=libraryContent%3Dbrowse%26editor%3Dtinymce`);
    if (rnd() < 0.3) cookies.push(`woocommerce_items_in_cart=1`, `wp_woocommerce_session_${hex(32)}=${Math.floor(rnd() * 1e4)}%7C%7C${1700000000 + Math.floor(rnd() * 1e7)}%7C%7C${hex(32)}`);
    return [
      ['Host', 'blog.example.org'],
      ['User-Agent', pick(AGENTS)],
      ['Accept', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'],
      ['Accept-Language', pick(['en-US,en;q=0.9', 'de-DE,de;q=0.9,en;q=0.7', 'fr-FR,fr;q=0.8'])],
      ['Accept-Encoding', 'gzip, deflate, br'],
      ['Referer', `https://blog.example.org/${pick(WORDS)}-${pick(WORDS)}/?utm_source=${pick(['newsletter', 'twitter', 'google'])}`],
      ['Cookie', cookies.join('; ')],
    ];
  };
  const req = (method: string, uri: string, headers: Array<[string, string]>, body?: string, contentType?: string): EngineRequest => {
    const h = [...headers];
    if (body !== undefined) h.push(['Content-Type', contentType!], ['Content-Length', String(Buffer.byteLength(body))]);
    return { remoteAddr: ip(), remotePort: 40000 + Math.floor(rnd() * 20000), serverAddr: '192.0.2.1', serverPort: 443, method, uri, protocol: 'HTTP/1.1', headers: h, body: body === undefined ? undefined : Buffer.from(body, 'utf8') };
  };
  const makers: Array<[string, () => EngineRequest]> = [
    ['page view', () => req('GET', `/${pick(WORDS)}-${pick(WORDS)}/?utm_source=${pick(WORDS)}&utm_campaign=${pick(WORDS)}-${Math.floor(rnd() * 99)}&fbclid=${hex(40)}`, browser(false))],
    ['search', () => req('GET', `/?s=${encodeURIComponent(words(1 + Math.floor(rnd() * 4)))}&paged=${1 + Math.floor(rnd() * 9)}`, browser(false))],
    ['comment', () => req('POST', '/wp-comments-post.php', browser(false), new URLSearchParams({
      comment: Array.from({ length: 1 + Math.floor(rnd() * 6) }, sentence).join('\n\n'), author: `${pick(WORDS)} ${pick(WORDS)}`, email: `${pick(WORDS)}@example.net`, url: '', submit: 'Post Comment', comment_post_ID: String(Math.floor(rnd() * 900)), comment_parent: '0',
    }).toString(), 'application/x-www-form-urlencoded')],
    ['editor save (block HTML)', () => {
      const blocks = Array.from({ length: 3 + Math.floor(rnd() * 25) }, () => `<!-- wp:paragraph -->\n<p>${sentence()} <strong>${pick(WORDS)}</strong> <a href="https://example.org/${pick(WORDS)}">${pick(WORDS)}</a></p>\n<!-- /wp:paragraph -->`);
      return req('POST', `/wp-json/wp/v2/posts/${Math.floor(rnd() * 900)}?_locale=user`, [...browser(true), ['X-WP-Nonce', hex(10)]], JSON.stringify({ id: Math.floor(rnd() * 900), title: words(5), content: blocks.join('\n\n'), status: 'draft' }), 'application/json');
    }],
    ['REST read', () => req('GET', `/wp-json/wp/v2/posts?per_page=${pick([5, 10, 20])}&page=${1 + Math.floor(rnd() * 5)}&_embed=1&search=${encodeURIComponent(pick(WORDS))}`, browser(false))],
    ['admin-ajax heartbeat', () => req('POST', '/wp-admin/admin-ajax.php', browser(true), `data%5Bwp-refresh-post-lock%5D%5Bpost_id%5D=${Math.floor(rnd() * 900)}&data%5Bwp-refresh-post-lock%5D%5Block%5D=${1700000000 + Math.floor(rnd() * 1e7)}%3A1&interval=${pick([15, 60])}&_nonce=${hex(10)}&action=heartbeat&screen_id=post&has_focus=true`, 'application/x-www-form-urlencoded')],
    ['media upload', () => {
      const boundary = `----WebKitFormBoundary${hex(16)}`;
      const file = Buffer.from(Array.from({ length: 2048 + Math.floor(rnd() * 30000) }, () => Math.floor(rnd() * 256))).toString('latin1');
      const body = [`--${boundary}`, 'Content-Disposition: form-data; name="name"', '', `${pick(WORDS)}.jpg`, `--${boundary}`, 'Content-Disposition: form-data; name="action"', '', 'upload-attachment', `--${boundary}`, 'Content-Disposition: form-data; name="_wpnonce"', '', hex(10), `--${boundary}`, `Content-Disposition: form-data; name="async-upload"; filename="${pick(WORDS)}.jpg"`, 'Content-Type: image/jpeg', '', file, `--${boundary}--`, ''].join('\r\n');
      const r = req('POST', '/wp-admin/async-upload.php', browser(true), undefined);
      r.headers.push(['Content-Type', `multipart/form-data; boundary=${boundary}`], ['Content-Length', String(body.length)]);
      return { ...r, body: Buffer.from(body, 'latin1') };
    }],
    ['shop cart', () => req('POST', '/?wc-ajax=add_to_cart', browser(false), `product_sku=&product_id=${Math.floor(rnd() * 500)}&quantity=${1 + Math.floor(rnd() * 3)}`, 'application/x-www-form-urlencoded')],
  ];
  return Array.from({ length: count }, (_, i) => {
    const [kind, make] = makers[i % makers.length];
    return { kind, request: make() };
  });
}
