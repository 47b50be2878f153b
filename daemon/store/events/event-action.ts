// What the edge did about one stored WAF event, as the operator reads it (a detect-mode
// row must not look like a block). The index keeps the edge's stored `action` as a small code
// per event, so /waf-logs rows can say it without reading the segment lines.
import type { RequestAction } from '../../../shared/schemas/waf-request.js';

/** Index codes of the stored `action` field; 0 for none (ingested events, or a value the edge never writes). */
export const EDGE_ACTION_CODES: Readonly<Record<string, number>> = { block: 1, drop: 2, log: 3 };
const EDGE_ACTIONS = ['', 'block', 'drop', 'log'] as const;

export function edgeActionCode(action: unknown): number {
  return typeof action === 'string' ? (EDGE_ACTION_CODES[action] ?? 0) : 0;
}

/** The stored `action` back from its code (undefined for 0). */
export function edgeActionOf(code: number): string | undefined {
  return EDGE_ACTIONS[code] || undefined;
}

/**
 * One event's action: `block`/`drop` is blocked (rate-limited for the rate-limit check, challenged
 * for the bot challenge), `log` is detected (matched and passed: detect mode), none is unknown.
 */
export function eventAction(action: string | undefined, group: string, ruleId: string): RequestAction {
  if (action === 'block' || action === 'drop') {
    if (group === 'rate-limit') return 'rate-limited';
    if (group === 'bot' && ruleId.includes('challenge')) return 'challenged';
    return 'blocked';
  }
  return action === 'log' ? 'detected' : 'unknown';
}
