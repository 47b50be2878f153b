// MULTIPART: form fields become ARGS_POST, file parts FILES; every ModSecurity multipart flag is
// reported (MULTIPART_STRICT_ERROR is their OR, with processing errors). On an error the request
// body is in error and, as in ModSecurity, no arguments are taken from it.
// Limits stop the parse where they are reached, the parts read so far kept (their fields as ARGS_POST),
// the request body in error and MULTIPART_STRICT_ERROR raised, as the rest went unchecked:
// - parts: every part, field or file, counts towards SecArgumentsLimit (decision: each becomes a
//   named entry the rules iterate over, in ARGS_POST or FILES/FILES_NAMES/MULTIPART_NAME;
//   ModSecurity has no part limit, so a body of 200,000 empty file parts went through its parser
//   whole; PHP's max_input_vars is 1000 too);
// - SecRequestBodyNoFilesLimit: part headers and field values, as ModSecurity counts them
//   (`noFilesOverLimit`: the caller refuses with 413 or, with ProcessPartial, keeps the error).
import type { BodyProcessor, BodyParseResult } from './types.js';
import { ArgumentList, ARGUMENT_LIMIT_MESSAGE } from './argument-list.js';
import { parseBoundary } from './multipart-boundary.js';
import { MultipartParser } from './multipart-parser.js';
import { ParseClock } from './parse-clock.js';

/** REQBODY_ERROR_MSG when the part headers and field values pass SecRequestBodyNoFilesLimit. */
export function noFilesLimitMessage(limit: number): string {
  return `Request body no files data length is larger than the configured limit (${limit}).`;
}

export const multipart: BodyProcessor = (body, contentType, limits) => {
  const b = parseBoundary(contentType);
  const base = {
    error: 0, boundaryQuoted: b.quoted ? 1 : 0, boundaryWhitespace: b.whitespace ? 1 : 0, dataBefore: 0, dataAfter: 0,
    headerFolding: 0, lfLine: 0, crlfLine: 0, missingSemicolon: b.missingSemicolon ? 1 : 0, invalidQuoting: 0,
    invalidPart: 0, invalidHeaderFolding: 0, fileLimitExceeded: 0, unmatchedBoundary: 0,
  };
  if (b.boundary === undefined) {
    return { args: [], files: [], error: b.error, multipart: details({ ...base, error: 1 }, [], [], []) };
  }
  const maxNoFilesBytes = limits.maxNoFilesBytes ?? Infinity;
  const parser = new MultipartParser(b.boundary, { maxFiles: limits.maxFiles, maxParts: limits.maxArgs, maxNoFilesBytes }, new ParseClock(limits));
  Object.assign(parser.flags, { boundaryQuoted: base.boundaryQuoted, boundaryWhitespace: base.boundaryWhitespace, missingSemicolon: base.missingSemicolon });
  const ok = parser.parse(body);
  const stopped = parser.overParts || parser.overNoFiles;
  const partHeaders: Array<[string, string]> = [];
  for (const part of parser.parts) for (const line of part.headerLines) partHeaders.push([part.name, line]);
  const result: BodyParseResult = {
    args: [],
    files: [],
    multipart: details(parser.flags, partHeaders, parser.fileNames, parser.names),
  };
  if (!ok && !stopped) return { ...result, error: parser.error };
  const list = new ArgumentList(limits.maxArgs);
  for (const part of parser.parts) {
    if (part.filename === undefined) list.add(part.name, part.value);
    else result.files.push({ fieldName: part.name, fileName: part.filename, size: part.size, contentType: part.headers.get('content-type')?.[1] ?? '' });
  }
  result.args = list.args;
  if (parser.overNoFiles) return { ...result, error: noFilesLimitMessage(maxNoFilesBytes), noFilesOverLimit: true, stoppedAt: parser.stoppedAt };
  if (parser.overParts) return { ...result, error: ARGUMENT_LIMIT_MESSAGE, stoppedAt: parser.stoppedAt };
  return result;
};

function details(
  f: MultipartParser['flags'], partHeaders: Array<[string, string]>, fileNames: string[], names: string[],
): NonNullable<BodyParseResult['multipart']> {
  const strict = f.error | f.boundaryQuoted | f.boundaryWhitespace | f.dataBefore | f.dataAfter | f.headerFolding | f.lfLine
    | f.missingSemicolon | f.invalidQuoting | f.invalidPart | f.invalidHeaderFolding | f.fileLimitExceeded;
  return {
    flags: {
      MULTIPART_STRICT_ERROR: strict ? 1 : 0,
      MULTIPART_UNMATCHED_BOUNDARY: f.unmatchedBoundary,
      MULTIPART_BOUNDARY_QUOTED: f.boundaryQuoted,
      MULTIPART_BOUNDARY_WHITESPACE: f.boundaryWhitespace,
      MULTIPART_DATA_BEFORE: f.dataBefore,
      MULTIPART_DATA_AFTER: f.dataAfter,
      MULTIPART_HEADER_FOLDING: f.headerFolding,
      MULTIPART_LF_LINE: f.lfLine,
      MULTIPART_CRLF_LF_LINES: f.crlfLine && f.lfLine ? 1 : 0,
      MULTIPART_MISSING_SEMICOLON: f.missingSemicolon,
      MULTIPART_INVALID_QUOTING: f.invalidQuoting,
      MULTIPART_INVALID_PART: f.invalidPart,
      MULTIPART_INVALID_HEADER_FOLDING: f.invalidHeaderFolding,
      MULTIPART_FILE_LIMIT_EXCEEDED: f.fileLimitExceeded,
    },
    partHeaders,
    fileNames,
    names,
  };
}
