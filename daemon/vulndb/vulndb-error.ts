// The errors of the vulnerability database module. A failed import never changes the database.
// Every code a request can meet is in the one error table (shared/errors.ts), with its status;
// the admin routes send it as it is. Two codes never cross the wire: `not_modified` is the
// refresher's own signal, and `read_only` is a wiring bug (the envelope answers internal_error).
import type { ErrorCode } from '../../shared/errors.js';

/** The codes an import or refresh reports to a client; see shared/errors.ts for their meaning. */
export type VulnDbWireCode = Extract<
  ErrorCode,
  | 'invalid_source'
  | 'fetch_failed'
  | 'not_json_object'
  | 'invalid_json'
  | 'truncated'
  | 'record_too_large'
  | 'no_valid_records'
  | 'import_in_progress'
  | 'refresh_not_configured'
  | 'aborted'
>;

export type VulnDbErrorCode =
  | VulnDbWireCode
  /** A conditional refresh found the feed unchanged (HTTP 304): nothing to import. */
  | 'not_modified'
  /** This VulnDb was opened read-only (a worker beside the importing process). */
  | 'read_only';

export class VulnDbError extends Error {
  constructor(
    readonly code: VulnDbErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'VulnDbError';
  }
}
