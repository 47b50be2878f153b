// The vulnerability database routes of the admin socket (daemon/admin/ROUTES.md), over undici on
// the unix socket. Apart from shared/admin-client.ts for two reasons: an import streams the feed as
// the request body and may take minutes on a 160 MB feed (no 30 s header timeout), and its failures
// carry the vulndb's own codes (`truncated`, `invalid_json`, ...), which the generic client would
// turn into `internal_error` because they are not in shared/errors.ts.
import { Readable } from 'node:stream';
import type { Client } from 'undici';
import type { z } from 'zod';
import {
  VulnDbImportResultSchema,
  VulnDbStatusSchema,
  type VulnDbImportResult,
  type VulnDbStatus,
} from '../shared/schemas/vulndb.js';

/** A failure with the code the daemon (or the connection) gave; cli/error-mapping.ts maps it. */
export class AdminCallError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'AdminCallError';
  }
}

const QUICK_MS = 30_000;
/** Imports and refreshes answer when the new database is live: no time limit but the daemon's own. */
const NO_LIMIT = 0;

export class VulnDbAdminClient {
  // Imported on first use, as in shared/admin-client.ts: undici is ~0.1 s of a CLI start.
  #client: Promise<Client> | undefined;

  constructor(readonly socketPath: string) {}

  #connected(): Promise<Client> {
    const socketPath = this.socketPath;
    this.#client ??= import('undici').then(({ Client }) => new Client('http://localhost', { socketPath, connect: { timeout: QUICK_MS } }));
    return this.#client;
  }

  async close(): Promise<void> {
    if (this.#client) await (await this.#client).close();
  }

  status(): Promise<VulnDbStatus> {
    return this.#call('GET', '/admin/vulndb', VulnDbStatusSchema, { timeoutMs: QUICK_MS });
  }

  /** Streams the feed; `label` (the file's absolute path) is what `vulndb status` shows as the source. */
  async importUpload(chunks: AsyncIterable<Buffer | string>, label: string): Promise<VulnDbImportResult> {
    // A read error of the local file must surface as itself, not as a broken socket.
    let readError: unknown;
    async function* guarded(): AsyncIterable<Buffer | string> {
      try {
        yield* chunks;
      } catch (error) {
        readError = error;
        throw error;
      }
    }
    try {
      return await this.#call('PUT', '/admin/vulndb/import', VulnDbImportResultSchema, {
        timeoutMs: NO_LIMIT,
        // Header values must be Latin-1: a path with other characters is sent percent-encoded.
        headers: { 'content-type': 'application/octet-stream', 'x-vulndb-source': headerSafe(label) },
        body: Readable.from(guarded(), { objectMode: false }),
      });
    } catch (error) {
      if (readError !== undefined) throw readError;
      throw error;
    }
  }

  /** The daemon fetches an http(s) URL (or reads an absolute path it can see) itself. */
  importFrom(source: string, apiKey?: string): Promise<VulnDbImportResult> {
    return this.#call('POST', '/admin/vulndb/import', VulnDbImportResultSchema, {
      timeoutMs: NO_LIMIT,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(apiKey === undefined ? { source } : { source, api_key: apiKey }),
    });
  }

  refresh(): Promise<VulnDbStatus> {
    return this.#call('POST', '/admin/vulndb/refresh', VulnDbStatusSchema, { timeoutMs: NO_LIMIT });
  }

  async #call<S extends z.ZodType>(
    method: 'GET' | 'PUT' | 'POST',
    path: string,
    schema: S,
    options: { timeoutMs: number; headers?: Record<string, string>; body?: string | Readable },
  ): Promise<z.output<S>> {
    let response;
    try {
      response = await (await this.#connected()).request({
        method,
        path,
        headers: options.headers ?? {},
        body: options.body,
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
      });
    } catch (error) {
      throw unreachable(this.socketPath, error as NodeJS.ErrnoException);
    }
    const text = await response.body.text();
    let json: { success?: unknown; data?: unknown; error?: unknown; message?: unknown };
    try {
      json = JSON.parse(text) as typeof json;
    } catch {
      throw new AdminCallError('internal_error', `the daemon answered ${response.statusCode} to ${method} ${path} with a body that is not JSON`);
    }
    if (json.success !== true) {
      const code = typeof json.error === 'string' && /^[a-z][a-z_]*$/.test(json.error) ? json.error : 'internal_error';
      const message = typeof json.message === 'string' ? json.message : `the daemon answered ${response.statusCode}`;
      throw new AdminCallError(code, message);
    }
    const parsed = schema.safeParse(json.data);
    if (!parsed.success) {
      throw new AdminCallError('internal_error', `unexpected answer from ${method} ${path}: ${parsed.error.issues[0]?.message}`);
    }
    return parsed.data;
  }
}

function headerSafe(value: string): string {
  return /^[\x20-\x7e]*$/.test(value) ? value : encodeURI(value);
}

function unreachable(socketPath: string, error: NodeJS.ErrnoException): AdminCallError {
  const why =
    error.code === 'ENOENT' || error.code === 'ECONNREFUSED'
      ? 'no daemon is listening'
      : error.code === 'EACCES'
        ? "permission denied (the socket is mode 0600: run as the daemon's user)"
        : error.message || String(error.code);
  return new AdminCallError('daemon_unreachable', `cannot reach the wafctl daemon at ${socketPath}: ${why}; start it with \`wafctl daemon start\``);
}
