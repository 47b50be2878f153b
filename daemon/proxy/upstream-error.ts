// Why the exchange with an origin failed, as one short name for the access entry's
// `upstream_error` and the daemon log: the error code node or undici gives (ECONNREFUSED,
// UND_ERR_HEADERS_TIMEOUT, HPE_INVALID_CONSTANT, ...). undici reports a connection the origin
// closed or reset as UND_ERR_SOCKET; the errno underneath (ECONNRESET) says more, so it wins.
// An error with no code (undici's HTTPParserError for a response that is not HTTP) is its name and
// the first line of its message, which is undici's text, not the origin's bytes.

const MAX_NAME = 64;
const MAX_TEXT = 160;

export function upstreamErrorName(err: unknown): string {
  const own = codeOf(err);
  if (own === 'UND_ERR_SOCKET') {
    const cause = codeOf((err as { cause?: unknown }).cause);
    if (cause !== null) return cause;
  }
  if (own !== null) return own;
  if (!(err instanceof Error)) return typeof err;
  const message = err.message.split('\n')[0];
  return (message ? `${err.name}: ${message}` : err.name).slice(0, MAX_TEXT);
}

function codeOf(err: unknown): string | null {
  if (err === null || typeof err !== 'object') return null;
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && code.length > 0 ? code.slice(0, MAX_NAME) : null;
}
