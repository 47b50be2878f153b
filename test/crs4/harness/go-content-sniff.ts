// The Content-Type Go's net/http gives a response body when the handler set none
// (http.DetectContentType, the WHATWG MIME sniffing subset Go implements). albedo's /reflect relies
// on it, and CRS's response rules only inspect bodies whose type is in SecResponseBodyMimeType,
// so the type decides whether a RESPONSE-95x test can see its body at all. Covered: the HTML
// tags, XML, PDF, PostScript, the text BOMs, the common image/archive signatures Go knows, then
// text/plain vs application/octet-stream by the presence of binary bytes.

const HTML_TAGS = ['<!DOCTYPE HTML', '<HTML', '<HEAD', '<SCRIPT', '<IFRAME', '<H1', '<DIV', '<FONT', '<TABLE', '<A', '<STYLE', '<TITLE', '<B', '<BODY', '<BR', '<P', '<!--'];

const EXACT: Array<[string, string]> = [
  ['%PDF-', 'application/pdf'],
  ['%!PS-Adobe-', 'application/postscript'],
  ['GIF87a', 'image/gif'],
  ['GIF89a', 'image/gif'],
  ['\x89PNG\x0d\x0a\x1a\x0a', 'image/png'],
  ['\xff\xd8\xff', 'image/jpeg'],
  ['BM', 'image/bmp'],
  ['PK\x03\x04', 'application/zip'],
  ['\x1f\x8b\x08', 'application/x-gzip'],
  ['Rar!\x1a\x07\x00', 'application/x-rar-compressed'],
  ['\x00asm', 'application/wasm'],
];

const isWhitespace = (b: number) => b === 0x09 || b === 0x0a || b === 0x0c || b === 0x0d || b === 0x20;
const isBinary = (b: number) => b <= 0x08 || b === 0x0b || (b >= 0x0e && b <= 0x1a) || (b >= 0x1c && b <= 0x1f);

export function detectContentType(body: Buffer): string {
  const data = body.subarray(0, 512);
  const text = data.toString('latin1');
  if (text.startsWith('\xfe\xff') || text.startsWith('\xff\xfe')) return 'text/plain; charset=utf-16' + (text[0] === '\xfe' ? 'be' : 'le');
  if (text.startsWith('\xef\xbb\xbf')) return 'text/plain; charset=utf-8';
  let start = 0;
  while (start < data.length && isWhitespace(data[start])) start++;
  const trimmed = text.slice(start);
  for (const tag of HTML_TAGS) {
    const next = trimmed.charCodeAt(tag.length);
    // Go wants the tag followed by a space or '>' (a tag-terminating byte).
    if (trimmed.slice(0, tag.length).toUpperCase() === tag && (next === 0x20 || next === 0x3e)) return 'text/html; charset=utf-8';
  }
  if (trimmed.startsWith('<?xml')) return 'text/xml; charset=utf-8';
  for (const [sig, type] of EXACT) if (text.startsWith(sig)) return type;
  for (const b of data) if (isBinary(b)) return 'application/octet-stream';
  return 'text/plain; charset=utf-8';
}
