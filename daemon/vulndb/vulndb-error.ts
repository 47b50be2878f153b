// The errors of the vulnerability database module, each with a stable code the admin socket
// and CLI can map (see README.md in this folder). A failed import never changes the database.

export type VulnDbErrorCode =
  /** The source is not a readable file or an http(s) URL. */
  | 'invalid_source'
  /** The download failed or answered a non-2xx status. */
  | 'fetch_failed'
  /** The document is not a JSON object. */
  | 'not_json_object'
  /** The document is not valid JSON. */
  | 'invalid_json'
  /** The document ends before its top-level object closes. */
  | 'truncated'
  /** One record is larger than the per-record ceiling (a corrupt or hostile file). */
  | 'record_too_large'
  /** The document holds no record that passes validation. */
  | 'no_valid_records'
  /** Another import is running on this database. */
  | 'import_in_progress'
  /** The import was aborted by its signal. */
  | 'aborted'
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
