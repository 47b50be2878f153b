// Variables about the request line, headers, cookies, query string and connection.
import { keyed, scalar, stable, type VariableDefinition } from './definition.js';

function fullRequest(ctx: Parameters<VariableDefinition['entries']>[0]): string {
  const head = ctx.request.headers.entries.map((h) => `${h.key}: ${h.value}\r\n`).join('');
  const body = ctx.request.body ? ctx.request.body.toString('latin1') : '';
  return `${ctx.request.requestLine}\r\n${head}\r\n${body}`;
}

const definitions: VariableDefinition[] = [
  scalar('REQUEST_METHOD', (c) => c.request.method),
  scalar('REQUEST_PROTOCOL', (c) => c.request.protocol),
  scalar('REQUEST_LINE', (c) => c.request.requestLine),
  scalar('REQUEST_URI', (c) => c.request.uri),
  scalar('REQUEST_URI_RAW', (c) => c.request.uriRaw),
  scalar('REQUEST_FILENAME', (c) => (c.phase >= 2 ? c.request.decodedPath().path : c.request.path)),
  scalar('REQUEST_BASENAME', (c) => (c.phase >= 2 ? c.request.decodedPath().basename : c.request.basename)),
  scalar('QUERY_STRING', (c) => c.request.query),
  scalar('PATH_INFO', () => ''),
  keyed('REQUEST_HEADERS', (c) => c.request.headers),
  keyed('REQUEST_HEADERS_NAMES', (c) => c.request.headers.names()),
  keyed('REQUEST_COOKIES', (c) => c.request.cookies),
  keyed('REQUEST_COOKIES_NAMES', (c) => c.request.cookies.names()),
  keyed('ARGS_GET', (c) => c.request.argsGet),
  keyed('ARGS_GET_NAMES', (c) => c.request.argsGet.names()),
  keyed('ARGS', (c) => c.args),
  keyed('ARGS_NAMES', (c) => c.args.names()),
  scalar('ARGS_COMBINED_SIZE', (c) => {
    let size = 0;
    for (const e of c.args.entries) size += e.key.length + e.value.length;
    return size;
  }),
  scalar('REMOTE_ADDR', (c) => c.request.remoteAddr),
  scalar('REMOTE_HOST', (c) => c.request.remoteAddr),
  scalar('REMOTE_PORT', (c) => c.request.remotePort),
  scalar('REMOTE_USER', () => undefined),
  scalar('AUTH_TYPE', () => undefined),
  scalar('SERVER_ADDR', (c) => c.request.serverAddr),
  scalar('SERVER_PORT', (c) => c.request.serverPort),
  scalar('SERVER_NAME', (c) => c.request.serverName),
  scalar('FULL_REQUEST', fullRequest),
  scalar('FULL_REQUEST_LENGTH', (c) => fullRequest(c).length),
];

/** All of them only change between phases (request, body and response data). */
export const requestVariables: VariableDefinition[] = definitions.map(stable);

