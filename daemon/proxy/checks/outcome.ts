import type { Severity } from '../events.js';

// A check's answer is a value (house rule: a block is a return value, not an exception).
// null means "no objection, go on to the next check".

export interface Block {
  readonly kind: 'block';
  readonly group: 'ip' | 'ban' | 'geo' | 'page' | 'rate-limit' | 'bot';
  /** Stable name of the check that refused, used as the WAF event's rule_id. */
  readonly ruleId: string;
  readonly msg: string;
  readonly severity: Severity;
  readonly matchedVar?: string;
  readonly matchedData?: string;
  /** Set when the check has its own answer instead of the site's block response (rate limit: 429). */
  readonly response?: { status: number; headers: Record<string, string> };
}

/** An interstitial or redirect the bot check serves itself (JS challenge); not a block. */
export interface Interstitial {
  readonly kind: 'interstitial';
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** The site whitelist: forward without any further check, the WAF rule groups included. */
export interface Allow {
  readonly kind: 'allow';
}

export const ALLOW: Allow = Object.freeze({ kind: 'allow' });

export type CheckOutcome = Block | Interstitial | Allow | null;

/** Pseudo rule file named in WAF events from the edge checks (there is no SecLang file). */
export function checkFile(group: Block['group']): string {
  return `edge/checks/${group}`;
}
