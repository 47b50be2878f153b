// The @rx literal prefilter: a regex runs only when the literals any match of it needs occur in
// the value (found for all regexes at once by one scan per distinct value). See README.md.
import type { Alternation } from '../regex/ast.js';
import { selectClauses } from './clauses.js';
import { literalCondition } from './extract.js';
import { LiteralIndex, type LiteralGate } from './literal-index.js';

export type { LiteralGate, ClauseTest } from './literal-index.js';
export type { ScanCache } from './scan-cache.js';
export { LiteralIndex } from './literal-index.js';
export { literalCondition } from './extract.js';
export { selectClauses, type Clause } from './clauses.js';

/** The index every @rx registers with. */
export const sharedLiteralIndex = new LiteralIndex();

/** Read when an @rx is compiled: regexes compiled while it is false get no gate. Off by default:
 *  per (rule, value) pair the gate costs about what V8 needs to reject a short value (README). */
export const prefilterSettings = { enabled: process.env.WAFCTL_RX_PREFILTER === 'on' };

/** The gate for a parsed regex, or undefined when nothing useful is known (the regex always runs). */
export function literalGateFor(ast: Alternation, index: LiteralIndex = sharedLiteralIndex): LiteralGate | undefined {
  if (!prefilterSettings.enabled) return undefined;
  return index.gate(selectClauses(literalCondition(ast)));
}
