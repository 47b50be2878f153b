// Judges one go-ftw 2 stage as go-ftw's checkResult does: `expect_error` alone decides when set
// (passes only when no HTTP response came back); otherwise a response is needed, `status` must
// equal it, then `match_regex` / `expect_ids` / `isolated` and `no_match_regex` / `no_expect_ids`
// are judged on the log lines of the stage's request (what go-ftw cuts between its two markers).
import type { RawExchange } from '../crs/ftw-client.js';
import type { GoFtwOutput } from './go-ftw-suite.js';

/** Rule ids in log lines, as go-ftw reads them (`[id "942100"]`). */
export function loggedIds(lines: readonly string[]): Set<number> {
  const ids = new Set<number>();
  for (const line of lines) for (const m of line.matchAll(/\[id "(\d+)"\]/g)) ids.add(Number(m[1]));
  return ids;
}

export function judgeGoFtwStage(output: GoFtwOutput, exchange: RawExchange, lines: readonly string[]): string | undefined {
  if (output.expectError) return exchange.status === undefined ? undefined : `expected an error, got status ${exchange.status}`;
  if (exchange.status === undefined) return `no response: ${exchange.error}`;
  if (output.status !== undefined && exchange.status !== output.status) return `status ${exchange.status}, expected ${output.status}`;
  const ids = loggedIds(lines);
  if (output.matchRegex !== undefined) {
    const re = new RegExp(output.matchRegex);
    if (!lines.some((l) => re.test(l))) return `log does not match /${output.matchRegex}/`;
  }
  const missing = output.expectIds.filter((id) => !ids.has(id));
  if (missing.length > 0) return `expected ids not logged: ${missing.join(', ')}`;
  if (output.isolated && ids.size !== 1) return `isolated: ${ids.size} rules logged, expected exactly one`;
  if (output.noMatchRegex !== undefined) {
    const re = new RegExp(output.noMatchRegex);
    if (lines.some((l) => re.test(l))) return `log matches /${output.noMatchRegex}/`;
  }
  const unexpected = output.noExpectIds.filter((id) => ids.has(id));
  if (unexpected.length > 0) return `ids logged that must not be: ${unexpected.join(', ')}`;
  return undefined;
}
