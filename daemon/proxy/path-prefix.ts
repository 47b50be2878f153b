// Page protection and rate limits match request paths by PREFIX on segment boundaries:
// "/wp-admin" matches "/wp-admin", "/wp-admin/" and "/wp-admin/users.php", not "/wp-administrator".
// A configured path ending in "/" ("/api/") matches only below it. The most specific (longest)
// matching prefix wins. Both sides are compared in a normal form, so a request cannot walk
// around a protected path with "/./wp-admin", "//wp-admin", "/x/../wp-admin", "/%77p-admin"
// or "/WP-ADMIN" (some origins are case-insensitive, so matching is too).

/** The normal form of a request path (query string dropped). */
export function normalizePath(rawUri: string): string {
  const q = rawUri.indexOf('?');
  let path = q === -1 ? rawUri : rawUri.slice(0, q);
  const hash = path.indexOf('#');
  if (hash !== -1) path = path.slice(0, hash);
  // Absolute-form request targets ("http://host/path") carry the path after the authority.
  if (!path.startsWith('/')) {
    const scheme = path.indexOf('://');
    const slash = scheme === -1 ? -1 : path.indexOf('/', scheme + 3);
    path = slash === -1 ? '/' : path.slice(slash);
  }
  if (path.includes('%')) {
    try { path = decodeURIComponent(path); } catch { /* malformed escapes: match on the raw text */ }
  }
  if (path.includes('\\')) path = path.replace(/\\/g, '/');
  if (path.includes('//') || path.includes('/.')) path = removeDotSegments(path);
  return path.toLowerCase();
}

function removeDotSegments(path: string): string {
  const out: string[] = [];
  const parts = path.split('/');
  for (let i = 1; i < parts.length; i++) {
    const seg = parts[i];
    if (seg === '..') { out.pop(); if (i === parts.length - 1) out.push(''); }
    else if (seg === '.') { if (i === parts.length - 1) out.push(''); }
    else if (seg === '' && i !== parts.length - 1) continue;
    else out.push(seg);
  }
  return '/' + out.join('/');
}

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
