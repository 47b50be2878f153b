// Judges one FTW stage as the Python ftw runner did: log_contains / no_log_contains are
// (Python) regexes over the request's log lines, status must be one of the listed codes,
// expect_error passes only when no HTTP response came back.
import type { FtwOutput } from './ftw-suite.js';
import type { RawExchange } from './ftw-client.js';

export function judgeStage(output: FtwOutput, exchange: RawExchange, lines: readonly string[]): string | undefined {
  if (output.expect_error) {
    return exchange.status === undefined ? undefined : `expected an error, got status ${exchange.status}`;
  }
  if (exchange.status === undefined) return `no response: ${exchange.error}`;
  if (output.status !== undefined) {
    const allowed = Array.isArray(output.status) ? output.status : [output.status];
    if (!allowed.includes(exchange.status)) return `status ${exchange.status} not in [${allowed.join(', ')}]`;
  }
  if (output.log_contains !== undefined) {
    const re = new RegExp(output.log_contains);
    if (!lines.some((l) => re.test(l))) return `log does not contain /${output.log_contains}/`;
  }
  if (output.no_log_contains !== undefined) {
    const re = new RegExp(output.no_log_contains);
    if (lines.some((l) => re.test(l))) return `log contains /${output.no_log_contains}/`;
  }
  return undefined;
}
