import type { Severity } from './events.js';
import type { WafRuleSettings } from './snapshot.js';

// The seam between the edge and the WAF engine (rule groups cms and crs). The edge builds an
// InspectedRequest, the engine answers with a verdict. Kept close to what a SecLang engine
// reads (REQUEST_LINE, REQUEST_HEADERS, REMOTE_ADDR, SERVER_PORT, REQUEST_BODY...), with raw
// values: the engine does its own parsing and decoding.

export interface InspectedRequest {
  readonly requestId: string;
  readonly method: string;
  /** The request target as the origin gets it (origin form: path and query, undecoded). */
  readonly uri: string;
  /** The request target exactly as on the request line (an absolute-form target stays absolute):
   *  REQUEST_LINE, as ModSecurity shows it. Absent: the same as `uri`. */
  readonly target?: string;
  /** 'HTTP/1.1' or 'HTTP/1.0'. */
  readonly protocol: string;
  /** Header name/value pairs in arrival order, names as sent (node's rawHeaders). */
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly clientAddr: string;
  readonly clientPort: number;
  readonly serverAddr: string;
  readonly serverPort: number;
  /** The request body when the inspector asked for it (wantsBody) and it fit the body limit. */
  readonly body: Buffer | null;
  readonly site: {
    readonly id: number; readonly domain: string; readonly mode: 'on' | 'detect'; readonly paranoia: 1 | 2 | 3 | 4;
    /** The site's engine settings (snapshot waf.rules): the engine runs the rule set compiled for them. */
    readonly rules?: WafRuleSettings;
    /** Run the response phases (3-5) for this site (site setting response_inspection); absent: no. */
    readonly responses?: boolean;
  };
}

export interface RuleMatch {
  ruleId: string;
  /** 'cms' | 'crs' | a user group. */
  group: string;
  /** Rule file the rule came from. */
  file: string;
  msg: string;
  severity: Severity;
  matchedVar?: string;
  matchedData?: string;
  /** The rule's tags (CRS: attack class, paranoia level, capec...); absent for the edge's own checks. */
  tags?: readonly string[];
}

export interface Verdict {
  /** True: refuse with the site's block response. In detect mode an engine never sets it. */
  block: boolean;
  /** Matches to log as WAF events (action 'block' for the disruptive one when blocked, else 'log'). */
  matches: RuleMatch[];
  /**
   * Rule counters this request feeds (an engine reports each TX variable `wafctl_counter_<name>`
   * a rule set, e.g. cms rule 200140 sets tx.wafctl_counter_wp_login on a login POST). The edge
   * counts them per client IP and site in its CounterStore and refuses with 429 over the site's
   * per-minute limit for that counter (EdgeSnapshot site.ruleCounters).
   */
  counters?: string[];
  /**
   * The same transaction's response side, when the site inspects responses (site.responses). The
   * edge calls head() on the origin's response head, then body() once (with the decoded first
   * bytes of an inspected body, or null), then logging() after the response, for every request,
   * blocked ones included. Any of them may throw as inspect() may (the engine failed, the time
   * budget, which covers all phases, ran out).
   */
  response?: ResponseInspection;
}

/** Phases 3-5 of one request's transaction (see Verdict.response). */
export interface ResponseInspection {
  /** Phase 3 on the status and header pairs (raw, arrival order); says whether to read the body. */
  head(status: number, headers: ReadonlyArray<readonly [string, string]>): ResponseHeadVerdict;
  /** Phase 4 on the first `bodyLimit` decoded bytes (null: the body is not read); once, after head(). */
  body(body: Buffer | null, partial: boolean): Verdict | null;
  /** Phase 5, after the response: what its rules logged (CRS 980). Never blocks. */
  logging(): RuleMatch[];
}

export interface ResponseHeadVerdict {
  verdict: Verdict | null;
  /** Read the body into the inspected copy: the engine's SecResponseBodyAccess and MIME types. */
  wantsBody: boolean;
  /** SecResponseBodyLimit: bytes of the decoded body phase 4 reads; the rest streams (ProcessPartial). */
  bodyLimit: number;
}

export interface RequestInspector {
  /** Whether to buffer the request body for this site (else it streams to the origin untouched). */
  wantsBody(site: InspectedRequest['site']): boolean;
  /** null: nothing to report, pass. May return a promise only when the engine truly needs to wait. */
  inspect(request: InspectedRequest): Verdict | null | Promise<Verdict | null>;
}

/** Until the engine lands: inspects nothing, buffers nothing. */
export const ALLOW_ALL: RequestInspector = {
  wantsBody: () => false,
  inspect: () => null,
};
