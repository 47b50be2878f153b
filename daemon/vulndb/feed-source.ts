// Where a feed comes from: a file path, an http(s) URL (fetched with undici), or a Readable
// the caller already has (an upload on the admin socket, a test). Whatever the source, the
// importer sees a byte stream plus a label for the metadata and a variant hint.

import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { fetch } from 'undici';
import type { FeedApi, FeedKind } from './import-meta.js';
import { VulnDbError } from './vulndb-error.js';

export type FeedSourceInput = string | URL | Readable;

export interface FeedSourceOptions {
  /** Bearer key for the v3 API (`Authorization: Bearer <key>`); never stored. */
  apiKey?: string;
  /** Aborts a download (and the import reading it). */
  signal?: AbortSignal;
  /** A label for a Readable source in the metadata (default `stream`). */
  label?: string;
  /** Conditional GET validators from the previous download of the same URL (refresh). */
  ifNoneMatch?: string;
  ifModifiedSince?: string;
}

export interface OpenedFeed {
  stream: AsyncIterable<Buffer>;
  source: string;
  kind: 'file' | 'url' | 'stream';
  /** What the URL path says (`/v3/vulnerabilities/scanner`); null parts are decided from the records. */
  apiHint: FeedApi;
  feedHint: FeedKind | null;
  /** The response's validators, kept for the next conditional refresh (URL sources only). */
  etag: string | null;
  lastModified: string | null;
  /** Gives the source up unread (an import that failed before or while reading it). */
  cancel(): Promise<void>;
}

export async function openFeed(input: FeedSourceInput, opts: FeedSourceOptions = {}): Promise<OpenedFeed> {
  if (input instanceof Readable) {
    // The caller owns a Readable (an upload): it decides what becomes of the rest. An upload can fail
    // before the importer starts reading it (the import first makes its work dir): without a listener
    // that error would be an uncaught exception of the daemon. It stays on the stream (`errored`),
    // and the importer meets it when it reads (seen under load: a client gone within 10 ms).
    if (input.listenerCount('error') === 0) input.on('error', () => undefined);
    const cancel = async (): Promise<void> => undefined;
    return { stream: input, source: opts.label ?? 'stream', kind: 'stream', apiHint: 'unknown', feedHint: null, etag: null, lastModified: null, cancel };
  }
  if (input instanceof URL || /^https?:\/\//i.test(input)) return openUrl(new URL(input), opts);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(input)) {
    throw new VulnDbError('invalid_source', `unsupported feed URL scheme in ${JSON.stringify(input)}: use http(s) or a file path`);
  }
  return openFile(input);
}

async function openFile(path: string): Promise<OpenedFeed> {
  try {
    const st = await stat(path);
    if (!st.isFile()) throw new VulnDbError('invalid_source', `${path} is not a regular file`);
  } catch (err) {
    if (err instanceof VulnDbError) throw err;
    throw new VulnDbError('invalid_source', `cannot read the feed file ${path}: ${(err as Error).message}`);
  }
  // 64 KiB reads: few records in flight at once, so parsed records die young (cheap to collect).
  const stream = createReadStream(path, { highWaterMark: 64 * 1024 });
  return {
    stream,
    source: path,
    kind: 'file',
    ...hintsFromPath(path),
    etag: null,
    lastModified: null,
    cancel: async () => void stream.destroy(),
  };
}

async function openUrl(url: URL, opts: FeedSourceOptions): Promise<OpenedFeed> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new VulnDbError('invalid_source', `unsupported feed URL scheme ${url.protocol}`);
  }
  const headers: Record<string, string> = { accept: 'application/json' };
  if (opts.apiKey) headers.authorization = `Bearer ${opts.apiKey}`;
  if (opts.ifNoneMatch) headers['if-none-match'] = opts.ifNoneMatch;
  if (opts.ifModifiedSince) headers['if-modified-since'] = opts.ifModifiedSince;
  const label = redact(url);
  let response;
  try {
    response = await fetch(url, { headers, signal: opts.signal, redirect: 'follow' });
  } catch (err) {
    const cause = (err as { cause?: Error }).cause?.message;
    throw new VulnDbError('fetch_failed', `cannot fetch ${label}: ${(err as Error).message}${cause ? ` (${cause})` : ''}`);
  }
  if (response.status === 304) {
    await response.body?.cancel().catch(() => undefined);
    throw new VulnDbError('not_modified', `${label} has not changed since the last import`);
  }
  if (!response.ok || response.body === null) {
    await response.body?.cancel().catch(() => undefined);
    const hint = response.status === 401 || response.status === 403 ? ' (the v3 feed needs an API key)' : '';
    throw new VulnDbError('fetch_failed', `fetching ${label} answered HTTP ${response.status}${hint}`);
  }
  const body = new FetchBodyBytes(response.body);
  return {
    stream: body,
    cancel: () => body.cancel(),
    source: label,
    kind: 'url',
    ...hintsFromPath(url.pathname),
    etag: response.headers.get('etag'),
    lastModified: response.headers.get('last-modified'),
  };
}

/**
 * A fetch body read as Buffers. The reader is taken at once, not at the first read: undici
 * cancels a body nobody has started reading when its Response object is garbage collected, and
 * only the body is kept here, with file-system steps awaited before the importer's first read.
 * (Before, a collection in that gap turned a real download into "the feed is empty".) Reading
 * with the reader directly also keeps a mid-body socket error a rejection: Readable.fromWeb
 * re-throws it as an uncaught exception besides.
 */
class FetchBodyBytes implements AsyncIterable<Buffer> {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private finished = false;

  constructor(body: ReadableStream<Uint8Array>) {
    this.reader = body.getReader();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Buffer> {
    try {
      while (!this.finished) {
        const { done, value } = await this.reader.read();
        if (done) break;
        yield Buffer.from(value.buffer, value.byteOffset, value.byteLength);
      }
      this.finished = true;
    } finally {
      // A reader that stops early (a malformed feed) gives the rest of the download up.
      if (!this.finished) await this.cancel();
    }
  }

  async cancel(): Promise<void> {
    this.finished = true;
    await this.reader.cancel().catch(() => undefined);
  }
}

/** The variant as the Wordfence API paths spell it: `/api/intelligence/v3/vulnerabilities/production`. */
function hintsFromPath(path: string): { apiHint: FeedApi; feedHint: FeedKind | null } {
  const api = /(?:^|[/_.-])(v2|v3)(?:[/_.-]|$)/i.exec(path)?.[1]?.toLowerCase() as FeedApi | undefined;
  const feed = /(production|scanner)/i.exec(path)?.[1]?.toLowerCase() as FeedKind | undefined;
  return { apiHint: api ?? 'unknown', feedHint: feed ?? null };
}

/** A URL for metadata and messages: no user info, no query (keys sometimes travel there). */
function redact(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname}`;
}

export function redactUrl(url: string): string {
  return redact(new URL(url));
}
