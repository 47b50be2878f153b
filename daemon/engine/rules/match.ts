// What a transaction reports: each logged rule match, and the interruption when a rule
// blocked. A block is a return value (Interruption), never an exception.

export interface RuleMatch {
  id: number;
  phase: number;
  file: string;
  line: number;
  msg: string;
  data: string;
  /** Severity name (CRITICAL, ...) or '' when the rule has none. */
  severity: string;
  tags: string[];
  ver: string;
  rev: string;
  maturity: number | undefined;
  accuracy: number | undefined;
  /** `ARGS:id`, `REQUEST_URI`, ... */
  matchedVarName: string;
  matchedValue: string;
  /** Operator as written (`@rx ...`), for the log line. */
  operator: string;
  /** The rule's disruptive action took effect (engine On). */
  disruptive: boolean;
}

export interface Interruption {
  action: 'deny' | 'drop' | 'redirect';
  status: number;
  /** 0 when the engine itself interrupted (request body over the limit). */
  ruleId: number;
  /** Why the engine itself interrupted (ruleId 0), in ModSecurity's words. */
  msg?: string;
  phase: number;
  redirectUrl?: string;
}
