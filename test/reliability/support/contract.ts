// The documented answers, as checks: each returns null when a response is one the contract allows,
// or what is wrong with it. Management API and admin socket: the envelope of spec 2.1 with a code
// from shared/errors.ts at its own status (the vulndb codes included). Ingestion: the
// shapes of spec section 4. A 5xx is never allowed here: the storage-failure 500 is tested apart.
import { ERRORS, isErrorCode } from '../../../shared/errors.js';
import type { RawResponse } from './raw-http.js';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function envelopeProblem(res: RawResponse): string | null {
  if (res.status >= 500) return `status ${res.status}`;
  if (!isObject(res.json)) return `body is not a JSON object: ${res.body.subarray(0, 120).toString()}`;
  const body = res.json;
  if (res.status < 300) return body.success === true ? null : 'a 2xx without success: true';
  if (body.success !== false) return 'an error without success: false';
  if (typeof body.message !== 'string' || body.message === '') return 'an error without a message';
  const code = body.error;
  if (!isErrorCode(code)) return `unknown error code ${JSON.stringify(code)}`;
  if (ERRORS[code].status !== res.status) return `code ${code} answered with ${res.status}, the table says ${ERRORS[code].status}`;
  return null;
}

export function managementProblem(res: RawResponse): string | null {
  return envelopeProblem(res);
}

export function adminProblem(res: RawResponse): string | null {
  return envelopeProblem(res);
}

/** Ingestion answers (spec 4); paths and methods no route serves are answered in the envelope. */
export function ingestProblem(res: RawResponse): string | null {
  if (res.status >= 500) return `status ${res.status}`;
  if (!isObject(res.json)) return `body is not a JSON object: ${res.body.subarray(0, 120).toString()}`;
  const body = res.json;
  if (res.status === 404 || res.status === 405) return envelopeProblem(res);
  if (typeof body.message !== 'string') return 'no message';
  switch (res.status) {
    case 200:
      return Number.isInteger(body.processed) ? null : '200 without an integer processed';
    case 207:
      if (!Number.isInteger(body.processed) || (body.processed as number) < 1) return '207 without processed >= 1';
      if (!Array.isArray(body.errors) || body.errors.length === 0) return '207 without errors';
      return body.errors.every((e) => isObject(e) && Number.isInteger(e.index) && typeof e.error === 'string') ? null : '207 errors not {index, error}';
    case 429:
      return Number.isInteger(body.retry_after) ? null : '429 without retry_after';
    case 400: case 401: case 413: case 415:
      return Array.isArray(body.errors) && body.errors.every((e) => typeof e === 'string') ? null : `${res.status} without errors: string[]`;
    default:
      return `undocumented status ${res.status}`;
  }
}

/** Counts of what was tried and how it was answered, printed at the end of a run. */
export class Tally {
  readonly cases = { tried: 0, documented: 0, refusedUnchanged: 0 };
  readonly outcomes = new Map<string, number>();
  readonly problems: string[] = [];

  record(label: string, res: RawResponse, problem: string | null): void {
    this.cases.tried++;
    const code = (res.json as Json | undefined)?.error;
    const key = `${res.status}${typeof code === 'string' ? ` ${code}` : ''}`;
    this.outcomes.set(key, (this.outcomes.get(key) ?? 0) + 1);
    if (problem === null) this.cases.documented++;
    else if (this.problems.length < 20) this.problems.push(`${label}: ${problem}`);
  }

  summary(name: string): string {
    const outcomes = [...this.outcomes.entries()].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k}: ${n}`).join(', ');
    return `[reliability] ${name}: ${this.cases.tried} cases, ${this.cases.documented} documented answers, ` +
      `${this.cases.refusedUnchanged} refusals with state unchanged; outcomes { ${outcomes} }`;
  }
}
