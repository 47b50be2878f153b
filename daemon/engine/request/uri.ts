// Splits a request target into the parts ModSecurity v2 exposes. Absolute-form targets
// (`http://host/path`) lose their scheme and authority in REQUEST_URI/REQUEST_FILENAME but keep
// them in REQUEST_URI_RAW; the fragment, if a client sent one, stays out of path and query.

export interface UriParts {
  /** REQUEST_URI: path and query. */
  uri: string;
  /** REQUEST_FILENAME: the path, not decoded. */
  path: string;
  /** QUERY_STRING, without '?'. */
  query: string;
  /** REQUEST_BASENAME: the last path segment. */
  basename: string;
}

const ABSOLUTE = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/?#]*/;

export function splitRequestTarget(target: string): UriParts {
  const uri = target.replace(ABSOLUTE, '');
  const hash = uri.indexOf('#');
  const withoutFragment = hash < 0 ? uri : uri.slice(0, hash);
  const q = withoutFragment.indexOf('?');
  const path = q < 0 ? withoutFragment : withoutFragment.slice(0, q);
  const query = q < 0 ? '' : withoutFragment.slice(q + 1);
  const slash = path.lastIndexOf('/');
  return { uri, path, query, basename: slash < 0 ? path : path.slice(slash + 1) };
}
