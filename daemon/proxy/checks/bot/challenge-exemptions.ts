// Paths the JavaScript challenge leaves alone. The challenge only a browser can
// pass would otherwise break everything on a WordPress site that is not a person with a browser:
// feed readers, the REST API (block editor, mobile apps), WP-Cron's loopback, admin-ajax.php
// (front-end plugins call it for anonymous visitors), robots.txt, sitemaps, uploads and static
// assets (fetched by browsers in contexts that cannot run the challenge, and by CDNs).
// Exempt from the challenge only: scanners, fake crawlers and every other check still apply.
//
// Matched against the edge's normal form of the path (path-normal-form.ts: decoded, lower case,
// dot segments resolved), so `/WP-JSON/` and `/x/../wp-json/` are the same path; a request with
// `..` segments is exempt only if both its resolved and its written form are.
// A feed segment, a sitemap name or a static-asset extension counts only when no segment of the
// path names a PHP file: PHP serves `/wp-login.php/x.css` and `/wp-login.php/feed/` as wp-login.php
// (PATH_INFO), so they must not pass for a stylesheet or a feed.
import { BUILT_IN_EXEMPT_PREFIXES } from '../../../../shared/challenge-exempt-defaults.js';
import { compilePrefixTable, type PrefixTable } from '../../path-prefix.js';

const BUILT_IN: PrefixTable<true> = compilePrefixTable(BUILT_IN_EXEMPT_PREFIXES.map((path) => ({ path, value: true as const })));

/** A `feed` segment anywhere: /feed/, /comments/feed/, /category/news/feed/atom/. */
const FEED_SEGMENT = /\/feed(?:\/|$)/;
/** WordPress core (wp-sitemap*.xml, wp-sitemap.xsl), Yoast (sitemap_index.xml, post-sitemap.xml) and the rest. */
const SITEMAP = /\/[^/]*sitemap[^/]*\.(?:xml|xsl)(?:\.gz)?$/;
const STATIC_ASSET = /\.(?:css|js|mjs|map|png|jpe?g|gif|webp|avif|svg|ico|bmp|woff2?|ttf|otf|eot|mp4|webm|mp3|ogg|pdf|txt)$/;
const PHP_SEGMENT = /\.ph(?:p\d?|tml|ar|t|ps)(?:\/|$)/;

export class ChallengeExemptions {
  private readonly extra: PrefixTable<true>;

  /** `extra`: the site's own paths (`wafctl protect bot --exempt PATH`), prefixes on segment boundaries. */
  constructor(extra: readonly string[]) {
    this.extra = compilePrefixTable(extra.map((path) => ({ path, value: true as const })));
  }

  /** `path` and `written` are EdgeRequest.path and .pathUnresolved. */
  exempts(path: string, written?: string | null): boolean {
    return this.matches(path) && (!written || this.matches(written));
  }

  private matches(path: string): boolean {
    if (BUILT_IN.match(path) || this.extra.match(path)) return true;
    if (PHP_SEGMENT.test(path)) return false;
    return FEED_SEGMENT.test(path) || SITEMAP.test(path) || STATIC_ASSET.test(path);
  }
}
