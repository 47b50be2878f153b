import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { OriginRecord } from './recording-origin.js';

// What an application behind the proxy makes of a request its origin received, and that same
// content written as a plain, well-formed request (the form a WAF is certain to read). The
// harness sends the plain form through the judge: if the rules refuse it, the origin received an
// attack the rules would have stopped had it come plainly, so the proxy let a disguise through.
//
// The application modelled is a common one (Express with body-parser, PHP, Symfony, ASP.NET):
// - the path and query are percent-decoded once (`+` is a space in the query);
// - `X-Original-URL` / `X-Rewrite-URL` replace the path (Symfony, IIS URL Rewrite, some Java stacks);
// - a parameter given twice is also seen joined with commas (ASP.NET's Request["q"]);
// - the body is inflated per `Content-Encoding` (body-parser does), then read by its content type:
//   form, JSON (any `utf-*` charset), multipart (field values and file names; file contents are
//   data, not arguments); any other body is passed on as it is.
// Not modelled: double decoding, %u decoding, EBCDIC charsets, Unicode normalisation: origins
// that do these make their own bypasses (see README.md).

export interface PlainRequest {
  method: string;
  /** Path and query, minimally percent-encoded. */
  target: string;
  headers: Array<[string, string]>;
  contentType: string | null;
  body: Buffer;
}

/** Headers a plain request does not copy: framing, hop-by-hop, the proxy's own, and what is re-expressed. */
const NOT_COPIED = new Set(['host', 'content-length', 'transfer-encoding', 'content-encoding', 'content-type', 'connection',
  'keep-alive', 'upgrade', 'te', 'trailer', 'proxy-connection', 'x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host',
  'x-forwarded-port', 'x-real-ip', 'forwarded', 'via', 'x-request-id', 'x-probe', 'x-original-url', 'x-rewrite-url',
  'http2-settings', 'sec-websocket-key', 'sec-websocket-version', 'sec-websocket-extensions', 'sec-websocket-protocol']);

type Pair = [Buffer, Buffer];

/**
 * The plain forms of what the application may make of `record`: one per reading where
 * applications differ (the target or an `X-Original-URL`/`X-Rewrite-URL` override; the first or
 * the last of several `Content-Type` fields). Each must pass the judge.
 */
export function plainForms(record: OriginRecord): PlainRequest[] {
  const values = (name: string) => record.headers.filter(([n]) => n === name).map(([, v]) => v);
  const targets = [record.target, ...values('x-original-url'), ...values('x-rewrite-url')];
  const types = values('content-type');
  const contentTypes = types.length > 1 ? [types[0], types[types.length - 1]] : [types[0] ?? null];
  const coding = values('content-encoding')[0];
  const out: PlainRequest[] = [];
  for (const target of targets) {
    for (const contentType of contentTypes) out.push(plainForm(record, target, contentType, coding));
  }
  return out;
}

function plainForm(record: OriginRecord, target: string, receivedType: string | null, coding: string | undefined): PlainRequest {
  const { path, query } = splitTarget(target);
  const queryArgs: Pair[] = parseForm(query);
  // An override replaces the path; the application still reads the query it was sent.
  if (target !== record.target) queryArgs.push(...parseForm(splitTarget(record.target).query));

  let contentType = receivedType;
  let body = inflate(record.body, coding);
  const bodyPairs = body.length > 0 ? bodyArgs(body, contentType) : null;
  const joined = joinedDuplicates([...queryArgs, ...(bodyPairs ?? [])]);
  if (bodyPairs) {
    // Parsed arguments are sent as a plain form: the one body format every WAF reads.
    body = Buffer.from(formText([...bodyPairs, ...joined]), 'latin1');
    contentType = 'application/x-www-form-urlencoded';
  } else queryArgs.push(...joined);
  const q = formText(queryArgs);
  return { method: record.method, target: encode(percentDecode(path), true) + (q ? `?${q}` : ''), headers: copied(record), contentType, body };
}

function formText(pairs: Pair[]): string {
  return pairs.map(([n, v]) => `${encode(n, false)}=${encode(v, false)}`).join('&');
}

function copied(record: OriginRecord): Array<[string, string]> {
  return record.headers.filter(([n]) => !NOT_COPIED.has(n));
}

function splitTarget(target: string): { path: string; query: string } {
  let t = target;
  // Absolute form (a proxy may pass it on): the application routes on its path.
  const abs = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(t);
  if (abs) t = t.slice(abs[0].length) || '/';
  const hash = t.indexOf('#');
  if (hash !== -1) t = t.slice(0, hash);
  const q = t.indexOf('?');
  return q === -1 ? { path: t, query: '' } : { path: t.slice(0, q), query: t.slice(q + 1) };
}

function percentDecode(s: string, plusIsSpace = false): Buffer {
  const bytes = Buffer.from(plusIsSpace ? s.replace(/\+/g, ' ') : s, 'latin1');
  const out: number[] = [];
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === 0x25 && i + 2 < bytes.length && /^[0-9a-f]{2}$/i.test(bytes.subarray(i + 1, i + 3).toString('latin1'))) {
      out.push(parseInt(bytes.subarray(i + 1, i + 3).toString('latin1'), 16));
      i += 2;
    } else out.push(b);
  }
  return Buffer.from(out);
}

function parseForm(text: string): Pair[] {
  if (!text) return [];
  return text.split('&').filter((p) => p.length > 0).map((p) => {
    const eq = p.indexOf('=');
    return eq === -1 ? [percentDecode(p, true), Buffer.alloc(0)] : [percentDecode(p.slice(0, eq), true), percentDecode(p.slice(eq + 1), true)];
  });
}

/** Every byte but unreserved ones (and `/` in a path) percent-encoded: no spelling left to read. */
function encode(bytes: Buffer, isPath: boolean): string {
  let s = '';
  for (const b of bytes) {
    const c = String.fromCharCode(b);
    s += /[A-Za-z0-9\-._~]/.test(c) || (isPath && c === '/') ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return s;
}

function inflate(body: Buffer, coding: string | undefined): Buffer {
  if (!coding || body.length === 0) return body;
  try {
    let out = body;
    for (const c of coding.toLowerCase().split(',').map((s) => s.trim()).reverse()) {
      if (c === 'gzip' || c === 'x-gzip') out = gunzipSync(out);
      else if (c === 'deflate') out = inflateSync(out);
      else if (c === 'br') out = brotliDecompressSync(out);
    }
    return out;
  } catch {
    return body; // the application would refuse it (400): nothing it reads
  }
}

interface MediaType { type: string; params: Map<string, string> }

function mediaType(value: string | null): MediaType {
  const [type, ...rest] = (value ?? '').split(';');
  const params = new Map<string, string>();
  for (const p of rest) {
    const eq = p.indexOf('=');
    if (eq === -1) continue;
    const name = p.slice(0, eq).trim().toLowerCase();
    let v = p.slice(eq + 1).trim();
    if (v.startsWith('"') && v.endsWith('"') && v.length >= 2) v = v.slice(1, -1);
    if (!params.has(name)) params.set(name, v); // the first one, as busboy and PHP take it
  }
  return { type: type.trim().toLowerCase(), params };
}

/** The body as arguments, or null when the application passes it on unparsed. */
function bodyArgs(body: Buffer, contentType: string | null): Pair[] | null {
  const mt = mediaType(contentType);
  if (mt.type === 'application/x-www-form-urlencoded') return parseForm(body.toString('latin1'));
  if (mt.type === 'application/json' || mt.type.endsWith('+json')) return jsonArgs(body, mt.params.get('charset'));
  if (mt.type === 'multipart/form-data' && mt.params.get('boundary')) return multipartArgs(body, mt.params.get('boundary')!);
  return null;
}

function jsonArgs(body: Buffer, charset = 'utf-8'): Pair[] | null {
  const cs = charset.toLowerCase();
  let text: string;
  if (cs === 'utf-16le' || cs === 'utf-16') text = body.toString('utf16le');
  else if (cs === 'utf-16be') text = Buffer.from(body).swap16().toString('utf16le');
  else if (cs.startsWith('utf-')) text = body.toString('utf8');
  else return null;
  let value: unknown;
  try { value = JSON.parse(text); } catch { return null; }
  const out: Pair[] = [];
  const walk = (v: unknown, key: string) => {
    if (v !== null && typeof v === 'object') for (const [k, w] of Object.entries(v)) walk(w, Array.isArray(v) ? key : k);
    else out.push([Buffer.from(key), Buffer.from(String(v))]);
  };
  walk(value, 'json');
  return out;
}

function multipartArgs(body: Buffer, boundary: string): Pair[] {
  const text = body.toString('latin1');
  const out: Pair[] = [];
  for (const part of text.split(`--${boundary}`).slice(1)) {
    if (part.startsWith('--')) break;
    const sep = /\r?\n\r?\n/.exec(part);
    if (!sep) continue;
    const heads = part.slice(0, sep.index);
    const value = part.slice(sep.index + sep[0].length).replace(/\r?\n$/, '');
    const disposition = /content-disposition:([^\r\n]*)/i.exec(heads)?.[1] ?? '';
    const name = /\bname="([^"]*)"/i.exec(disposition)?.[1] ?? '';
    const filename = /\bfilename="([^"]*)"/i.exec(disposition)?.[1];
    out.push([Buffer.from(name, 'latin1'), Buffer.from(filename ?? value, 'latin1')]);
  }
  return out;
}

function joinedDuplicates(args: Pair[]): Pair[] {
  const byName = new Map<string, Buffer[]>();
  for (const [n, v] of args) {
    const key = n.toString('latin1');
    byName.set(key, [...(byName.get(key) ?? []), v]);
  }
  return [...byName].filter(([, vs]) => vs.length > 1).map(([n, vs]) => [Buffer.from(n, 'latin1'), Buffer.concat(vs.flatMap((v, i) => (i ? [Buffer.from(','), v] : [v])))]);
}

/** The plain request as bytes for `host`, marked and closing the connection. */
export function plainBytes(p: PlainRequest, host: string, mark: string): Buffer {
  const lines = [`${p.method} ${p.target} HTTP/1.1`, `Host: ${host}`, ...p.headers.map(([n, v]) => `${n}: ${v}`), `X-Probe: ${mark}`];
  if (p.contentType) lines.push(`Content-Type: ${p.contentType}`);
  if (p.body.length > 0 || p.method === 'POST' || p.method === 'PUT') lines.push(`Content-Length: ${p.body.length}`);
  lines.push('Connection: close');
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), p.body]);
}
