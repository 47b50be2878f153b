// Variables filled by the request body processor in phase 2.
import { keyed, scalar, stable, type VariableDefinition } from './definition.js';
import { VarEntry } from '../collections/keyed-list.js';

const NONE: readonly VarEntry[] = [];

/** MULTIPART_* flags of ModSecurity v2; 0 unless the multipart processor raised them. */
const MULTIPART_FLAGS = [
  'MULTIPART_STRICT_ERROR', 'MULTIPART_BOUNDARY_QUOTED', 'MULTIPART_BOUNDARY_WHITESPACE',
  'MULTIPART_DATA_AFTER', 'MULTIPART_DATA_BEFORE', 'MULTIPART_FILE_LIMIT_EXCEEDED',
  'MULTIPART_HEADER_FOLDING', 'MULTIPART_INVALID_HEADER_FOLDING', 'MULTIPART_INVALID_PART',
  'MULTIPART_INVALID_QUOTING', 'MULTIPART_LF_LINE', 'MULTIPART_MISSING_SEMICOLON',
  'MULTIPART_CRLF_LF_LINES', 'MULTIPART_UNMATCHED_BOUNDARY', 'MULTIPART_FILE_COUNT_EXCEEDED',
];

const definitions: VariableDefinition[] = [
  keyed('ARGS_POST', (c) => c.body.argsPost),
  keyed('ARGS_POST_NAMES', (c) => c.body.argsPost.names()),
  scalar('REQUEST_BODY', (c) => c.body.raw),
  scalar('REQUEST_BODY_LENGTH', (c) => c.body.length),
  scalar('REQBODY_PROCESSOR', (c) => c.reqbodyProcessor),
  scalar('REQBODY_ERROR', (c) => (c.body.error === undefined ? 0 : 1)),
  scalar('REQBODY_PROCESSOR_ERROR', (c) => (c.body.error === undefined ? 0 : 1)),
  scalar('REQBODY_ERROR_MSG', (c) => c.body.error ?? ''),
  scalar('REQBODY_PROCESSOR_ERROR_MSG', (c) => c.body.error ?? ''),
  scalar('URLENCODED_ERROR', (c) => (c.urlencodedError ? 1 : 0)),
  scalar('INBOUND_DATA_ERROR', (c) => (c.inboundDataError ? 1 : 0)),
  keyed('FILES', (c) => c.body.files),
  keyed('FILES_NAMES', (c) => c.body.fileNames),
  keyed('FILES_SIZES', (c) => c.body.fileSizes),
  keyed('FILES_TMPNAMES', () => undefined),
  keyed('FILES_TMP_CONTENT', () => undefined),
  scalar('FILES_COMBINED_SIZE', (c) => c.body.filesCombinedSize),
  keyed('MULTIPART_PART_HEADERS', (c) => c.body.multipartPartHeaders),
  {
    name: 'MULTIPART_FILENAME',
    collection: false,
    entries: (c) => (c.body.multipart?.fileNames ?? []).map((value) => new VarEntry('', value)),
  },
  {
    name: 'MULTIPART_NAME',
    collection: false,
    entries: (c) => (c.body.multipart?.names ?? []).map((value) => new VarEntry('', value)),
  },
  ...MULTIPART_FLAGS.map((flag) => scalar(flag, (c) => c.body.multipartFlags.get(flag) ?? 0)),
  {
    name: 'XML',
    collection: true,
    selectorIsExpression: true,
    entries: () => NONE,
    byExpression(c, expression) {
      const xml = c.body.xml;
      if (xml === undefined) return NONE;
      return xml.select(expression).map((value) => new VarEntry(expression, value));
    },
  },
];

/** All of them only change between phases (request, body and response data). */
export const bodyVariables: VariableDefinition[] = definitions.map(stable);
