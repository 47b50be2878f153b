import { backoffDelay, DEFAULT_RETRY, outcomeOf, type RetryPolicy } from './retry-policy.js';

// Sends one batch until the server has answered for every entry in it: accepted, or rejected with a
// reason. 5xx and network failures are retried with backoff (the server stores nothing of a failed
// request), 429 waits as long as it says, 413 splits the batch, and an entry a 207 accepted is never
// sent again. Authentication and format refusals end the whole run: every later batch would fail too.

export interface Transport {
  /**
   * Sends `json`, the batch as one JSON array text. Throws on network failure; otherwise the status,
   * the parsed body and Retry-After seconds.
   */
  post(json: string): Promise<{ status: number; body: unknown; retryAfterSeconds?: number }>;
}

export interface Entry {
  line: number;
  value: unknown;
  /** The entry's JSON text as read (it parses to `value`): sent as is, not serialised again. */
  text?: string;
}

/** The batch as a JSON array: the texts as read, joined. */
export function batchJson(batch: readonly Entry[]): string {
  let json = '[';
  for (let i = 0; i < batch.length; i++) {
    if (i > 0) json += ',';
    json += batch[i].text ?? JSON.stringify(batch[i].value);
  }
  return json + ']';
}

export interface Rejected {
  line: number;
  error: string;
  entry?: unknown;
}

export interface BatchResult {
  accepted: number;
  rejected: Rejected[];
  retries: number;
}

export class FatalIngestError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'FatalIngestError';
  }
}

export interface SenderOptions {
  transport: Transport;
  sleep(ms: number): Promise<void>;
  policy?: RetryPolicy;
  random?: () => number;
  /** Told before each wait, so the caller can say why it is waiting. */
  onRetry?(reason: string, delayMs: number): void;
}

const MAX_RATE_LIMIT_WAITS = 1000;

export async function sendBatch(batch: readonly Entry[], options: SenderOptions): Promise<BatchResult> {
  const policy = options.policy ?? DEFAULT_RETRY;
  let failures = 0;
  let waits = 0;
  let retries = 0;
  const json = batchJson(batch);
  for (;;) {
    let answer: Awaited<ReturnType<Transport['post']>>;
    try {
      answer = await options.transport.post(json);
    } catch (error) {
      answer = { status: 0, body: { message: (error as Error).message } };
    }
    const outcome = outcomeOf(answer.status);
    if (outcome === 'accepted') return { accepted: batch.length, rejected: [], retries };
    if (outcome === 'partial') return { ...partial(batch, answer.body), retries };
    if (outcome === 'rate_limited' && waits < MAX_RATE_LIMIT_WAITS) {
      const seconds = retryAfterOf(answer);
      waits++;
      retries++;
      options.onRetry?.(`rate limited (429), waiting ${seconds} s`, seconds * 1000);
      await options.sleep(seconds * 1000);
      continue;
    }
    if (outcome === 'retryable' || answer.status === 0) {
      failures++;
      if (failures >= policy.maxAttempts) {
        throw new FatalIngestError('ingest_failed', `the server kept failing (${describe(answer)}) after ${failures} attempts`, answer.status);
      }
      const delay = backoffDelay(policy, failures, options.random);
      retries++;
      options.onRetry?.(`${describe(answer)}, retrying`, delay);
      await options.sleep(delay);
      continue;
    }
    if (answer.status === 413 && batch.length > 1) {
      const half = Math.ceil(batch.length / 2);
      const first = await sendBatch(batch.slice(0, half), options);
      const second = await sendBatch(batch.slice(half), options);
      return { accepted: first.accepted + second.accepted, rejected: [...first.rejected, ...second.rejected], retries: retries + first.retries + second.retries + 1 };
    }
    if (answer.status === 400 || answer.status === 413) return { accepted: 0, rejected: rejectedAll(batch, answer.body), retries };
    if (answer.status === 401 || answer.status === 403) throw new FatalIngestError('invalid_token', messageOf(answer.body, 'the token was refused'), answer.status);
    throw new FatalIngestError('ingest_refused', `the server refused the request: ${describe(answer)}`, answer.status);
  }
}

function partial(batch: readonly Entry[], body: unknown): Omit<BatchResult, 'retries'> {
  const { processed, errors } = body as { processed: number; errors: Array<{ index: number; error: string }> };
  return {
    accepted: processed,
    rejected: errors.map(({ index, error }) => ({ line: batch[index]?.line ?? 0, error, entry: batch[index]?.value })),
  };
}

/** A 400 lists `[index] field: problem` lines; anything without an index rejects the whole batch. */
function rejectedAll(batch: readonly Entry[], body: unknown): Rejected[] {
  const lines = Array.isArray((body as { errors?: unknown })?.errors) ? ((body as { errors: unknown[] }).errors.map(String)) : [];
  const byIndex = new Map<number, string>();
  for (const text of lines) {
    const match = /^\[(\d+)\] (.*)$/s.exec(text);
    if (match) byIndex.set(Number(match[1]), match[2]);
  }
  const fallback = lines.filter((text) => !/^\[\d+\] /.test(text)).join('; ') || messageOf(body, 'rejected');
  return batch.map((entry, index) => ({ line: entry.line, error: byIndex.get(index) ?? fallback, entry: entry.value }));
}

function retryAfterOf(answer: { body: unknown; retryAfterSeconds?: number }): number {
  const fromBody = Number((answer.body as { retry_after?: unknown })?.retry_after);
  const seconds = Number.isFinite(fromBody) && fromBody > 0 ? fromBody : (answer.retryAfterSeconds ?? 1);
  return Math.min(3600, Math.max(1, Math.ceil(seconds)));
}

function messageOf(body: unknown, fallback: string): string {
  const message = (body as { message?: unknown })?.message;
  const errors = (body as { errors?: unknown })?.errors;
  const detail = Array.isArray(errors) && errors.length > 0 ? `: ${errors.map(String).join('; ')}` : '';
  return typeof message === 'string' ? message + detail : fallback;
}

function describe(answer: { status: number; body: unknown }): string {
  return answer.status === 0 ? `network error (${messageOf(answer.body, 'no answer')})` : `HTTP ${answer.status}`;
}
