// Page protection and rate limits match request paths by PREFIX on segment boundaries:
// "/wp-admin" matches "/wp-admin", "/wp-admin/" and "/wp-admin/users.php", not "/wp-administrator".
// A configured path ending in "/" ("/api/") matches only below it. The most specific (longest)
// matching prefix wins. Both sides are compared in the normal form of path-normal-form.ts (bytes
// as the origin decodes them, dot segments, `//`, `\`, `;params`, case), so a request cannot walk
// around a protected path by spelling it differently. A request whose path has `..` segments is
// matched twice (resolved, and as written: EdgeRequest.pathUnresolved), and every rule either form
// hits applies (checks/page.ts, checks/rate-limit.ts).

import { normalizePath } from './path-normal-form.js';

export { normalizePath, requestPaths, type RequestPaths } from './path-normal-form.js';

export interface PrefixRule<T> {
  readonly path: string;
  readonly value: T;
}

export interface PrefixTable<T> {
  readonly size: number;
  /** The rule with the longest prefix matching the normalised path, or undefined. */
  match(normalizedPath: string): PrefixRule<T> | undefined;
}

/** Compiles configured paths; they are normalised like requests so "/WP-Admin/" and "/wp-admin/" are one. */
export function compilePrefixTable<T>(rules: ReadonlyArray<{ path: string; value: T }>): PrefixTable<T> {
  const compiled = rules
    .map((r) => ({ path: r.path, value: r.value, prefix: normalizePath(r.path) }))
    // Longest first: the first match is the most specific.
    .sort((a, b) => b.prefix.length - a.prefix.length);
  return {
    size: compiled.length,
    match(path: string) {
      for (const r of compiled) {
        if (!path.startsWith(r.prefix)) continue;
        if (path.length === r.prefix.length || r.prefix.endsWith('/') || path.charCodeAt(r.prefix.length) === 47) return r;
      }
      return undefined;
    },
  };
}

