// What the JavaScript challenge leaves alone on every site: one list for the edge that
// applies it (daemon/proxy/checks/bot/challenge-exemptions.ts) and the CLI that shows it.

/** Path prefixes, on segment boundaries. */
export const BUILT_IN_EXEMPT_PREFIXES: readonly string[] = [
  '/wp-json', '/wp-cron.php', '/wp-admin/admin-ajax.php', '/robots.txt', '/favicon.ico', '/wp-content/uploads',
];

/** The whole built-in list, as `wafctl protect bot` shows it. */
export const BUILT_IN_EXEMPT_SUMMARY: readonly string[] = [
  ...BUILT_IN_EXEMPT_PREFIXES,
  'feeds (a /feed/ segment)',
  'sitemaps (*sitemap*.xml, .xsl)',
  'static assets (.css .js .png .jpg .svg .woff2 ...)',
  // (feeds, sitemaps and assets only where no segment names a .php file: PATH_INFO)
];

/** At most this many paths of a site's own. */
export const MAX_EXEMPT_PATHS = 100;
