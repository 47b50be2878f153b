import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FUZZ_SEED } from '../../reliability/support/hostile-inputs.js';
import { safeReturnPath } from '../../../daemon/proxy/checks/bot/js-challenge.js';
import { request, site, startEdge, startOrigin, type Origin, type RunningEdge } from './helpers.js';

/** The suite's run counts; WAFCTL_FUZZ_RUNS (npm run reliability) scales them up. */
const RUNS = (n: number) => Math.max(n, Number(process.env.WAFCTL_FUZZ_RUNS ?? 0));

// Security review L1: the JS challenge redirects back to `r` after the proof of work; no `r`
// may send the browser to another origin. Checked the way the browser decides: the Location is
// resolved with WHATWG URL against the challenge URL the browser is on.

const SITE = 'https://site.test';
const CHALLENGE_URL = `${SITE}/.well-known/wafctl/challenge?t=x&s=1&r=y`;
const landsOnSite = (location: string) => new URL(location, CHALLENGE_URL).origin === SITE;

/** Open-redirect spellings: controls browsers drop, backslashes, scheme-relative and absolute forms. */
const ATTACKS = [
  '/\t/evil.example/', '/\n/evil.example/', '/\r/evil.example/', '/\t\t/evil', '/ /evil', '//evil.example/', '/\\evil.example/',
  '/\\/evil', '\\/evil', '/\t\\evil', '/.//evil', '/./\\evil', '/..//evil', '/a/../..//evil', '/%2e//evil',
  'https://evil.example/', 'http:evil.example', '//user@evil.example', '/\u0000/evil', '/\u000b/evil', '\t//evil', ' //evil',
  'https:/\\evil', '/\u3000/evil', '/\u2028/evil',
];

describe('safeReturnPath (property)', () => {
  it.each(ATTACKS)('%j stays on the site', (r) => expect(landsOnSite(safeReturnPath(r))).toBe(true));

  it('any text: the result is a path on the site, with no byte a header or a browser would reinterpret', () => {
    const unit = fc.constantFrom(...'/\\.:@?#%&=aZ9', '\t', '\n', '\r', ' ', '\u0000', '\u000b', '\u00a0', '\u3000', '%09', '%2f', '%5c', '//', 'evil.example', 'http:');
    fc.assert(fc.property(fc.array(unit, { maxLength: 20 }).map((a) => a.join('')), (r) => {
      const out = safeReturnPath(r);
      expect(landsOnSite(out)).toBe(true);
      expect(out).toMatch(/^\/(?![/\\])[\x21-\x7e]*$/);
      // The browser ends on exactly that path.
      const url = new URL(out, CHALLENGE_URL);
      expect(url.pathname + url.search).toBe(out);
    }), { numRuns: RUNS(5000), seed: FUZZ_SEED });
  });

  it('keeps ordinary same-site paths and queries', () => {
    for (const r of ['/', '/post/1?c=2', '/a/b/?x=%2f&y=1', '/%09literal', '/wp-login.php?redirect_to=%2Fwp-admin%2F']) expect(safeReturnPath(r)).toBe(r);
  });
});

describe('the challenge redirect over the real listener', () => {
  let origin: Origin;
  let edge: RunningEdge;
  const bits = 4;

  beforeAll(async () => {
    origin = await startOrigin();
    edge = await startEdge([site(origin, { bot: { enabled: true, challenge: 'js' } })], { challengeBits: bits });
  });
  afterAll(async () => { await edge.close(); await origin.close(); });

  /** A solved challenge (as the page's script would solve it) returning to `r`. */
  async function solvedWith(r: string): Promise<string> {
    const page = await request({ port: edge.port, path: '/' });
    const token = /var T = "([^"]+)"/.exec(page.body)![1];
    let s = 0;
    for (;; s++) {
      const h = createHash('sha256').update(`${token}:${s}`).digest();
      if (h[0] >> (8 - bits) === 0) break;
    }
    const answer = await request({ port: edge.port, path: `/.well-known/wafctl/challenge?t=${encodeURIComponent(token)}&s=${s}&r=${encodeURIComponent(r)}` });
    expect(answer.status).toBe(302);
    return answer.headers.location!;
  }

  it.each(ATTACKS.filter((r) => !r.includes('\u0000')))('r=%j: the redirect stays on the site', async (r) => {
    const location = await solvedWith(r);
    expect(new URL(location, 'http://example.test/.well-known/wafctl/challenge').origin).toBe('http://example.test');
  });

  it('r=/post/1?c=2 returns there', async () => {
    expect(await solvedWith('/post/1?c=2')).toBe('/post/1?c=2');
  });
});
