// The boundary in a multipart Content-Type, checked the way ModSecurity's multipart_init() checks
// it: one "boundary" parameter, at most one ';' before it, no partial quoting, only RFC 2046
// characters. Soft problems become flags; hard ones are errors (REQBODY_PROCESSOR_ERROR).

export interface BoundaryResult {
  boundary?: string;
  error?: string;
  quoted: boolean;
  whitespace: boolean;
  missingSemicolon: boolean;
}

const isSpace = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\v' || c === '\f' || c === '\r';

function countBoundaryParams(text: string): number {
  const lower = text.toLowerCase();
  let count = 0;
  for (let at = lower.indexOf('boundary'); at >= 0; at = lower.indexOf('boundary', at + 8)) {
    if (lower.indexOf('=', at + 8) >= 0) count++;
  }
  return count;
}

function validBoundaryChars(boundary: string): boolean {
  for (const ch of boundary) {
    const c = ch.charCodeAt(0);
    if (c < 32 || c > 126 || '()<>@,;:\\"/[]?='.includes(ch)) return false;
  }
  return true;
}

export function parseBoundary(contentType: string): BoundaryResult {
  const result: BoundaryResult = { quoted: false, whitespace: false, missingSemicolon: false };
  const fail = (error: string) => ({ ...result, error });
  if (contentType.length > 1024) return fail('Multipart: Invalid boundary in C-T (length).');
  if (contentType.slice(0, 19).toLowerCase() !== 'multipart/form-data') return fail('Multipart: Invalid MIME type.');
  if (countBoundaryParams(contentType) > 1) return fail('Multipart: Multiple boundary parameters in C-T.');
  const at = contentType.indexOf('boundary');
  if (at < 0) {
    if (countBoundaryParams(contentType) > 0) return fail('Multipart: Invalid boundary in C-T (case sensitivity).');
    return fail('Multipart: Boundary not found in C-T.');
  }
  let seenSemicolon = false;
  for (let p = 19; p < at; p++) {
    const c = contentType[p];
    if (isSpace(c)) continue;
    if (!seenSemicolon && c === ';') seenSemicolon = true;
    else return fail('Multipart: Invalid boundary in C-T (malformed).');
  }
  result.missingSemicolon = !seenSemicolon;
  const eq = contentType.indexOf('=', at + 8);
  if (eq < 0) return fail('Multipart: Invalid boundary in C-T (malformed).');
  for (let p = at + 8; p < eq; p++) {
    if (isSpace(contentType[p])) result.whitespace = true;
    else return fail('Multipart: Invalid boundary in C-T (parameter name).');
  }
  const value = contentType.slice(eq + 1);
  if (isSpace(value[0])) result.whitespace = true;
  let boundary: string;
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
    boundary = value.slice(1, -1);
    result.quoted = true;
  } else {
    if (value.startsWith('"') || (value.length >= 2 && value.endsWith('"'))) return fail('Multipart: Invalid boundary in C-T (quote).');
    boundary = value;
  }
  if (countBoundaryParams(boundary) !== 0) return fail('Multipart: Invalid boundary in C-T (content).');
  if (!validBoundaryChars(boundary)) return fail('Multipart: Invalid boundary in C-T (characters).');
  if (boundary.length === 0) return fail('Multipart: Invalid boundary in C-T (empty).');
  return { ...result, boundary };
}
