// Which PostgreSQL failures mean "the shared store cannot be reached" (answer 503 store_unavailable,
// keep serving the cached config) rather than a bug of ours (500, logged). A refused or reset
// connection, a connect or query timeout, a server shutting down or not accepting connections.

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);

/** SQLSTATE classes and codes of an unusable server: 08 connection exceptions, 57P01-57P05 shutdown/crash, 53300 too many connections. */
function unusableServer(sqlstate: string): boolean {
  return sqlstate.startsWith('08') || /^57P0[1-5]$/.test(sqlstate) || sqlstate === '53300';
}

export function isUnreachable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || unusableServer(code))) return true;
  // pg reports a dropped socket and its own timeouts with messages only.
  return /Connection terminated|timeout exceeded when trying to connect|Query read timeout|connection timeout|Client has encountered a connection error/i.test(error.message);
}
