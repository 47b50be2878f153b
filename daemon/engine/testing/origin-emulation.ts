// The origin behind the CRS conformance harness answers like the reference setup's origin
// (CRS CI's "crs-anchor origin" behind Apache): GET/HEAD/OPTIONS on "/" and anything on
// "/post" -> 200, other methods on "/" -> 405, any other path -> 404. Only `status` checks
// of the tests see this; the WAF verdicts never depend on it.

export function originStatus(method: string, path: string): number {
  if (path === '/post') return 200;
  if (path === '/' || path === '') {
    return method === 'GET' || method === 'HEAD' || method === 'OPTIONS' ? 200 : 405;
  }
  return 404;
}
