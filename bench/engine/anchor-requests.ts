// The proxy bench's two benign requests (bench/proxy, ../shared/anchors/proxy/lua/), as the edge
// hands them to the engine: wrk's browser header set (browser-headers.lua) with mix-get.lua's
// query or mix-post.lua's WordPress comment form, from 127.0.0.1 as in the bench. wrk adds
// Content-Length to a request with a body. These cost the engine about twice the plain
// "benign GET" (quoted Sec-Ch-Ua values, a long Accept, four cookies, five query parameters).
import type { EngineRequest } from '../../daemon/engine/request/model.js';

const anchorHeaders: Array<[string, string]> = [
  ['Host', 'www.example.com'],
  ['User-Agent', 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'],
  ['Accept', 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7'],
  ['Accept-Language', 'en-US,en;q=0.9,de;q=0.8'],
  ['Accept-Encoding', 'gzip, deflate, br'],
  ['Referer', 'https://www.example.com/blog/'],
  ['Cookie', '_ga=GA1.1.1234567890.1714000000; _ga_Q1W2E3R4T5=GS1.1.1714000000.3.1.1714000100.0.0.0; wordpress_test_cookie=WP%20Cookie%20check; wp-settings-time-1=1714000000'],
  ['Sec-Ch-Ua', '"Chromium";v="124", "Google Chrome";v="124", "Not-A.Brand";v="99"'],
  ['Sec-Ch-Ua-Mobile', '?0'],
  ['Sec-Ch-Ua-Platform', '"Windows"'],
  ['Sec-Fetch-Dest', 'document'],
  ['Sec-Fetch-Mode', 'navigate'],
  ['Sec-Fetch-Site', 'same-origin'],
  ['Sec-Fetch-User', '?1'],
  ['Upgrade-Insecure-Requests', '1'],
];

const COMMENT = 'Thanks for this write-up, it was really helpful. We tried the raised-bed approach last spring '
  + 'and the tomatoes did much better than in the old patch by the fence. One question though: how often do you '
  + 'water the seedlings during the first two weeks? Our soil dries out quickly because the garden gets full sun '
  + 'from about nine in the morning until late afternoon, and I am never sure whether to water in the evening or '
  + 'early in the morning. Also, do you have a recommendation for a mulch that does not attract slugs? '
  + 'Looking forward to the next post in the series. Best wishes from a fellow hobby gardener!';

/** mix-post.lua's urlencode: every byte outside [A-Za-z0-9-._~ ] as %XX, then spaces as '+'. */
function luaUrlencode(s: string): string {
  return s.replace(/[^A-Za-z0-9\-._~ ]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`).replace(/ /g, '+');
}

const commentForm = Buffer.from(`comment=${luaUrlencode(COMMENT)}`
  + `&author=${luaUrlencode('Jane Doe')}`
  + `&email=${luaUrlencode('jane.doe@example.com')}`
  + `&url=${luaUrlencode('https://jane-gardens.example.org/')}`
  + `&wp-comment-cookies-consent=yes&submit=${luaUrlencode('Post Comment')}`
  + '&comment_post_ID=1234&comment_parent=0&akismet_comment_nonce=4f3a2b1c9d&ak_hp_textarea=&ak_js=1714000000123', 'latin1');

function fromWrk(method: string, uri: string, headers: Array<[string, string]>, body?: Buffer): EngineRequest {
  return { remoteAddr: '127.0.0.1', remotePort: 40000, serverAddr: '127.0.0.1', serverPort: 8080, method, uri, protocol: 'HTTP/1.1', headers, body };
}

export const anchorRequests: Record<string, EngineRequest> = {
  'proxy GET': fromWrk('GET', '/blog/2024/05/spring-garden-tips/?utm_source=newsletter&utm_medium=email&utm_campaign=may_digest&page=2&sort=date', anchorHeaders),
  'proxy POST': fromWrk('POST', '/wp-comments-post.php', [
    ...anchorHeaders.filter(([n]) => n !== 'Referer'),
    ['Referer', 'https://www.example.com/blog/2024/05/spring-garden-tips/'],
    ['Content-Type', 'application/x-www-form-urlencoded'],
    ['Origin', 'https://www.example.com'],
    ['Content-Length', String(commentForm.length)],
  ], commentForm),
};
