// Variables of phases 3 and 4: the response from the origin.
import { keyed, scalar, stable, type VariableDefinition } from './definition.js';

const definitions: VariableDefinition[] = [
  scalar('RESPONSE_STATUS', (c) => c.response?.status),
  scalar('RESPONSE_PROTOCOL', (c) => c.response?.protocol ?? (c.response ? 'HTTP/1.1' : undefined)),
  scalar('STATUS_LINE', (c) => (c.response ? `${c.response.protocol ?? 'HTTP/1.1'} ${c.response.status}` : undefined)),
  keyed('RESPONSE_HEADERS', (c) => c.responseHeaders),
  keyed('RESPONSE_HEADERS_NAMES', (c) => c.responseHeaders.names()),
  scalar('RESPONSE_BODY', (c) => c.responseBody),
  scalar('RESPONSE_CONTENT_TYPE', (c) => c.responseHeaders.byKey('content-type')[0]?.value),
  scalar('RESPONSE_CONTENT_LENGTH', (c) => c.responseHeaders.byKey('content-length')[0]?.value),
  scalar('OUTBOUND_DATA_ERROR', () => 0),
];

/** All of them only change between phases (request, body and response data). */
export const responseVariables: VariableDefinition[] = definitions.map(stable);
