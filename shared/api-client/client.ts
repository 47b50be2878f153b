// The management API client: HTTPS only, the server's CA pinned from the profile (or --ca), the
// site key in X-Service-Key, the envelope unwrapped into data or an ApiError. It never retries on
// its own: the caller decides (the CLI tells the user when to retry after a 429).
import { readFile } from 'node:fs/promises';
import { Agent, request as httpsRequest } from 'node:https';
import fetch, { FetchError } from 'node-fetch';
import { API_UNREACHABLE, ApiError, BAD_RESPONSE, TLS_ERROR } from './api-error.js';
import { parseEnvelope, type Success } from './envelope.js';

/** Recommended client timeout of the spec (section 8). */
export const DEFAULT_TIMEOUT_MS = 30_000;

export const MANAGEMENT_PREFIX = '/api/v1';

export interface ApiClientOptions {
  /** Base URL, e.g. https://127.0.0.1:9443 (the daemon's api_url). Must be https. */
  server: string;
  /** The site's API key (X-Service-Key). */
  key?: string;
  /** Ingestion token (Authorization: Bearer). */
  token?: string;
  /** PEM text of the CA to trust instead of the system CAs. */
  ca?: string;
  timeoutMs?: number;
  userAgent?: string;
}

export type Query = Record<string, string | number | undefined>;

export interface RawResponse {
  status: number;
  headers: { get(name: string): string | null };
  text: string;
}

// Node's TLS verification failures, as reported in error.code.
const TLS_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_SIGNATURE_FAILURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'EPROTO',
]);

export class ApiClient {
  private readonly base: URL;
  private readonly agent: Agent;

  constructor(private readonly options: ApiClientOptions) {
    let base: URL;
    try {
      base = new URL(options.server);
    } catch {
      throw new ApiError('invalid_server', `server is not a URL: ${options.server}`);
    }
    if (base.protocol !== 'https:') {
      // The key would cross the network in clear; the API refuses plain HTTP anyway.
      throw new ApiError('invalid_server', `server must be an https:// URL, got ${options.server}`);
    }
    this.base = base;
    this.agent = new Agent({ keepAlive: true, ca: options.ca });
  }

  /** A client whose CA comes from a PEM file (the profile's `ca`, or --ca). */
  static async withCaFile(options: Omit<ApiClientOptions, 'ca'> & { caFile?: string }): Promise<ApiClient> {
    let ca: string | undefined;
    if (options.caFile) {
      try {
        ca = await readFile(options.caFile, 'utf8');
      } catch (error) {
        throw new ApiError('invalid_ca', `cannot read CA file ${options.caFile}: ${(error as Error).message}`);
      }
      if (!ca.includes('-----BEGIN CERTIFICATE-----')) throw new ApiError('invalid_ca', `${options.caFile} holds no PEM certificate`);
    }
    return new ApiClient({ ...options, ca });
  }

  /** A management API call (path under /api/v1), unwrapped from the envelope. */
  async request<T = unknown>(method: string, path: string, options: { query?: Query; body?: unknown } = {}): Promise<Success<T>> {
    const response = await this.raw(method, MANAGEMENT_PREFIX + path, options);
    return parseEnvelope<T>(response.status, response.headers, response.text);
  }

  async get<T = unknown>(path: string, query?: Query): Promise<T> {
    return (await this.request<T>('GET', path, { query })).data;
  }

  /** Any call, with no envelope handling (the ingestion API has its own body shapes). */
  async raw(method: string, path: string, options: { query?: Query; body?: unknown } = {}): Promise<RawResponse> {
    const url = new URL(path.replace(/^\/+/, '/'), this.base);
    for (const [name, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = {
      accept: 'application/json',
      'content-type': 'application/json',
      'user-agent': this.options.userAgent ?? 'wafctl',
    };
    if (this.options.key) headers['x-service-key'] = this.options.key;
    if (this.options.token) headers.authorization = `Bearer ${this.options.token}`;
    const timeoutMs = this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    try {
      const response = await fetch(url, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        agent: this.agent,
        signal: AbortSignal.timeout(timeoutMs),
      });
      return { status: response.status, headers: response.headers, text: await response.text() };
    } catch (error) {
      throw connectionError(error, url, timeoutMs);
    }
  }

  /**
   * POST of a body already serialised as JSON, straight over node:https on the same pinned,
   * keep-alive agent. The ingestion client's hot path: node-fetch costs about 0.7 ms more a request.
   */
  postJson(path: string, json: string): Promise<RawResponse> {
    const url = new URL(path.replace(/^\/+/, '/'), this.base);
    const body = Buffer.from(json, 'utf8');
    const headers: Record<string, string | number> = {
      accept: 'application/json',
      'content-type': 'application/json',
      'content-length': body.length,
      'user-agent': this.options.userAgent ?? 'wafctl',
    };
    if (this.options.key) headers['x-service-key'] = this.options.key;
    if (this.options.token) headers.authorization = `Bearer ${this.options.token}`;
    const timeoutMs = this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    return new Promise((resolve, reject) => {
      const failed = (error: Error) => reject(connectionError(error, url, timeoutMs));
      const req = httpsRequest(url, { method: 'POST', headers, agent: this.agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', failed);
        res.on('end', () => {
          clearTimeout(timer);
          const get = (name: string): string | null => {
            const value = res.headers[name.toLowerCase()];
            return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
          };
          resolve({ status: res.statusCode ?? 0, headers: { get }, text: Buffer.concat(chunks).toString('utf8') });
        });
      });
      const timer = setTimeout(() => req.destroy(Object.assign(new Error('timeout'), { name: 'TimeoutError' })), timeoutMs);
      req.on('error', (error) => {
        clearTimeout(timer);
        failed(error);
      });
      req.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

function connectionError(error: unknown, url: URL, timeoutMs: number): ApiError {
  const where = url.origin;
  if (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError')) {
    return new ApiError(API_UNREACHABLE, `no answer from ${where} within ${timeoutMs / 1000}s`, { cause: error });
  }
  const code = (error as { code?: string }).code ?? '';
  if (TLS_CODES.has(code)) {
    return new ApiError(TLS_ERROR, `cannot verify the certificate of ${where} (${code})`, { cause: error });
  }
  // node-fetch's system errors, and node:https's own (postJson): a syscall failed, nothing answered.
  if ((error instanceof FetchError && error.type === 'system') || typeof (error as { syscall?: unknown }).syscall === 'string') {
    return new ApiError(API_UNREACHABLE, `cannot reach ${where} (${code || (error as Error).message})`, { cause: error });
  }
  return new ApiError(BAD_RESPONSE, `request to ${where} failed: ${(error as Error).message}`, { cause: error });
}
