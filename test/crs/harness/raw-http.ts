// Raw HTTP/1.x request bytes -> EngineRequest, for the corpus replays (corpus-requests.ts), which
// run every CRS test request through the engine without a server in between. Tolerant like Apache:
// LF or CRLF line ends, the request line split on single spaces, header continuation lines
// folded, the body by Content-Length or chunked coding.
import type { EngineRequest } from '../../../daemon/engine/request/model.js';

export interface RawParseResult {
  request: EngineRequest;
  /** The request line had no protocol (HTTP/0.9 style). */
  simple: boolean;
}

function decodeChunked(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let pos = 0;
  for (;;) {
    const eol = data.indexOf('\n', pos);
    if (eol < 0) break;
    const size = parseInt(data.subarray(pos, eol).toString('latin1').trim().split(';')[0], 16);
    if (!Number.isFinite(size) || size <= 0) break;
    parts.push(data.subarray(eol + 1, eol + 1 + size));
    pos = eol + 1 + size;
    if (data[pos] === 0x0d) pos++;
    if (data[pos] === 0x0a) pos++;
  }
  return Buffer.concat(parts);
}

export function parseRawHttpRequest(raw: Buffer, remoteAddr = '127.0.0.1', remotePort = 0): RawParseResult | undefined {
  const headEnd = raw.indexOf('\r\n\r\n');
  const lfEnd = raw.indexOf('\n\n');
  let end: number;
  let sepLen: number;
  if (headEnd >= 0 && (lfEnd < 0 || headEnd < lfEnd)) [end, sepLen] = [headEnd, 4];
  else if (lfEnd >= 0) [end, sepLen] = [lfEnd, 2];
  else [end, sepLen] = [raw.length, 0];
  const lines = raw.subarray(0, end).toString('latin1').split('\n').map((l) => l.replace(/\r$/, ''));
  const requestLine = lines.shift() ?? '';
  if (requestLine.trim() === '') return undefined;
  const words = requestLine.split(' ');
  const method = words[0];
  const simple = words.length < 3;
  const uri = words.length >= 3 ? words.slice(1, -1).join(' ') : words[1] ?? '';
  const protocol = simple ? '' : words[words.length - 1];
  const headers: Array<[string, string]> = [];
  for (const line of lines) {
    if ((line.startsWith(' ') || line.startsWith('\t')) && headers.length > 0) {
      headers[headers.length - 1][1] += ' ' + line.trim();
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    headers.push([line.slice(0, colon), line.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, '')]);
  }
  let body = raw.subarray(Math.min(raw.length, end + sepLen));
  const te = headers.find(([n]) => n.toLowerCase() === 'transfer-encoding')?.[1] ?? '';
  const cl = headers.find(([n]) => n.toLowerCase() === 'content-length')?.[1];
  if (/chunked/i.test(te)) body = decodeChunked(body);
  else if (cl !== undefined && /^\d+$/.test(cl.trim())) body = body.subarray(0, Number(cl.trim()));
  return {
    request: { remoteAddr, remotePort, method, uri, protocol, requestLine, headers, body: body.length > 0 ? body : undefined },
    simple,
  };
}
