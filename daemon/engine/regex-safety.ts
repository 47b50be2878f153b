// No request may hold the event loop through regex backtracking. V8 can switch a regex that
// backtracks too much to its linear-time engine; the flag is process-wide and must be set
// before the rule set's regexes are compiled, so the Waf sets it when it loads. Measured
// choice (regex/README.md, bench/engine-parts/regex-safety.ts): no cost on normal traffic,
// pathological patterns drop from seconds to about a millisecond. Regexes with back
// references or lookarounds cannot fall back (5 of CRS 3.3.4's 265).
import { setFlagsFromString } from 'node:v8';

/** Backtracks before V8 falls back to the linear engine (V8's default is 50,000). */
export const BACKTRACKS_BEFORE_FALLBACK = 10_000;

let enabled = false;

export function enableRegexBacktrackFallback(): void {
  if (enabled) return;
  setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');
  setFlagsFromString(`--regexp-backtracks-before-fallback=${BACKTRACKS_BEFORE_FALLBACK}`);
  enabled = true;
}
