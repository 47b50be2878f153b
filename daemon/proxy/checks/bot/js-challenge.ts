import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { normalizePath } from '../../path-normal-form.js';
import type { Interstitial } from '../outcome.js';
import { SHA256_JS } from './sha256-page-script.js';

// The optional JavaScript challenge: a client without a valid pass cookie gets a small page
// whose script finds a number s such that SHA-256("<token>:<s>") starts with `bits` zero bits
// (about 2^bits hashes: a fraction of a second in a browser), then loads
// CHALLENGE_PATH?t=<token>&s=<s>&r=<return path>. The edge checks the work and answers with a
// redirect back and the pass cookie. Both the token and the cookie are HMAC-signed and bound to
// the site, the client IP and an expiry, so the edge keeps no state and a cookie is useless
// from another address. A client that runs no JavaScript (curl, most scrapers) never gets past
// the page.
//
// The secret must be the same in every worker and should survive restarts (else every pass
// is invalidated): the daemon passes one in; a random one is used if it does not.

export const CHALLENGE_PATH = '/.well-known/wafctl/challenge';
export const PASS_COOKIE = 'wafctl_clearance';

export interface JsChallengeOptions {
  secret?: Buffer | string;
  /** Leading zero bits of the proof of work (default 14: ~16k hashes). */
  bits?: number;
  /** Seconds a pass cookie stays valid (default 3600). */
  passTtlSeconds?: number;
  /** Seconds a challenge token may take to be solved (default 300). */
  tokenTtlSeconds?: number;
}

export class JsChallenge {
  private readonly secret: Buffer | string;
  readonly bits: number;
  private readonly passTtl: number;
  private readonly tokenTtl: number;

  constructor(options: JsChallengeOptions = {}) {
    this.secret = options.secret ?? randomBytes(32);
    this.bits = options.bits ?? 14;
    this.passTtl = options.passTtlSeconds ?? 3600;
    this.tokenTtl = options.tokenTtlSeconds ?? 300;
  }

  /** True when the Cookie header carries a valid, unexpired pass for this site and address. */
  hasPass(cookieHeader: string | undefined, siteId: number, ip: string, nowMs = Date.now()): boolean {
    const value = readCookie(cookieHeader, PASS_COOKIE);
    if (!value) return false;
    const dot = value.indexOf('.');
    const exp = Number(value.slice(0, dot));
    if (dot < 1 || !Number.isSafeInteger(exp) || exp * 1000 <= nowMs) return false;
    return safeEqual(value.slice(dot + 1), this.sign(`p|${siteId}|${ip}|${exp}`));
  }

  /** The interstitial page for a request without a pass. */
  page(siteId: number, ip: string, returnTo: string, nowMs = Date.now()): Interstitial {
    const exp = Math.floor(nowMs / 1000) + this.tokenTtl;
    const nonce = randomBytes(9).toString('base64url');
    const token = `${exp}.${nonce}.${this.sign(`c|${siteId}|${ip}|${exp}|${nonce}|${this.bits}`)}`;
    return {
      kind: 'interstitial',
      status: 403,
      headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
      body: renderPage(token, this.bits, safeReturnPath(returnTo)),
    };
  }

  /** Answers a request to CHALLENGE_PATH: a redirect with the pass cookie, or a fresh page. */
  answer(query: URLSearchParams, siteId: number, ip: string, secure: boolean, nowMs = Date.now()): Interstitial {
    const returnTo = safeReturnPath(query.get('r') ?? '/');
    const token = query.get('t') ?? '';
    const solution = query.get('s') ?? '';
    if (!this.validToken(token, siteId, ip, nowMs) || !/^\d{1,15}$/.test(solution) || !hasZeroBits(token, solution, this.bits)) {
      return this.page(siteId, ip, returnTo, nowMs);
    }
    const exp = Math.floor(nowMs / 1000) + this.passTtl;
    const cookie = `${PASS_COOKIE}=${exp}.${this.sign(`p|${siteId}|${ip}|${exp}`)}; Max-Age=${this.passTtl}; Path=/; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
    return {
      kind: 'interstitial',
      status: 302,
      headers: { location: returnTo, 'set-cookie': cookie, 'cache-control': 'no-store', 'content-type': 'text/plain' },
      body: '',
    };
  }

  private validToken(token: string, siteId: number, ip: string, nowMs: number): boolean {
    const [expText, nonce, sig, extra] = token.split('.');
    const exp = Number(expText);
    if (extra !== undefined || !nonce || !sig || !Number.isSafeInteger(exp) || exp * 1000 <= nowMs) return false;
    return safeEqual(sig, this.sign(`c|${siteId}|${ip}|${exp}|${nonce}|${this.bits}`));
  }

  private sign(text: string): string {
    return createHmac('sha256', this.secret).update(text).digest('base64url');
  }
}

function hasZeroBits(token: string, solution: string, bits: number): boolean {
  const hash = createHash('sha256').update(`${token}:${solution}`).digest();
  for (let i = 0; i < bits; i++) if ((hash[i >> 3] >> (7 - (i & 7))) & 1) return false;
  return true;
}

function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a), bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

// The return path is resolved the way the browser will resolve the redirect (WHATWG URL, which
// drops tabs and newlines anywhere, reads `\` as `/` and `//x` as a host) against a fixed origin:
// only a result on that same origin is kept, and only its path and query are sent back, re-checked
// so the Location can never start with `//` (`/.//evil` has the pathname `//evil`).
const RETURN_BASE = 'http://return.wafctl.invalid';

/** A same-origin path and query by construction; '/' for anything else (open redirects: "/\t/evil", "//evil", "/\\evil", "https:..."). */
export function safeReturnPath(path: string): string {
  if (path.charCodeAt(0) !== 47 /* / */) return '/';
  const local = sameOriginPath(path);
  if (local === null || normalizePath(local).startsWith(CHALLENGE_PATH)) return '/';
  // What the browser does with the Location we send must be that same path again.
  return sameOriginPath(local) === local ? local : '/';
}

function sameOriginPath(path: string): string | null {
  let url: URL;
  try { url = new URL(path, RETURN_BASE); } catch { return null; }
  if (url.origin !== RETURN_BASE || url.username || url.password) return null;
  const local = url.pathname + url.search;
  return local.charCodeAt(0) === 47 && local.charCodeAt(1) !== 47 && local.charCodeAt(1) !== 92 ? local : null;
}

export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

function renderPage(token: string, bits: number, returnTo: string): string {
  // JSON.stringify + escaping '<' keeps the values inert inside the script element.
  const js = (v: unknown) => JSON.stringify(v).replace(/</g, '\\u003c');
  return `<!doctype html>
<html><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>Checking your browser</title></head>
<body style="font-family:sans-serif;max-width:36em;margin:4em auto">
<h1>Checking your browser&hellip;</h1>
<p>This takes a moment and happens once. You will be sent on automatically.</p>
<noscript><p>Please enable JavaScript to continue.</p></noscript>
<script>
(function () {
var T = ${js(token)}, D = ${bits}, R = ${js(returnTo)}, P = ${js(CHALLENGE_PATH)};
${SHA256_JS}
function ok(h) { for (var i = 0; i < D; i++) if ((h[i >> 3] >> (7 - (i & 7))) & 1) return false; return true; }
var n = 0;
function step() {
  for (var k = 0; k < 4000; k++, n++) {
    if (ok(sha256(T + ':' + n))) {
      location.replace(P + '?t=' + encodeURIComponent(T) + '&s=' + n + '&r=' + encodeURIComponent(R));
      return;
    }
  }
  setTimeout(step, 0);
}
step();
})();
</script>
</body></html>
`;
}
