// Metadata of an imported generation (meta.json), shown by `wafctl vulndb status`.

import type { CopyrightHolder } from './attribution.js';

/** v2 or v3 of the feed API (records are the same shape); `unknown` for a file with no hint. */
export type FeedApi = 'v2' | 'v3' | 'unknown';
/** production (fully analysed records, with descriptions and CVSS) or scanner (minimal records). */
export type FeedKind = 'production' | 'scanner';

export interface FeedVariant {
  api: FeedApi;
  feed: FeedKind;
}

export interface ImportMeta {
  /** The file path or URL imported from (a URL's credentials and query are never kept). */
  source: string;
  source_kind: 'file' | 'url' | 'stream';
  variant: FeedVariant;
  /** ISO 8601 UTC, when the import finished. */
  imported_at: string;
  /** Distinct valid records in the database. */
  records: number;
  /** Records skipped by validation. */
  skipped: number;
  /** Records whose id appeared again later in the feed (the later one is kept). */
  duplicates: number;
  /** sha256 of the feed bytes as received, hex. */
  sha256: string;
  bytes: number;
  duration_ms: number;
  /** HTTP validators of a URL import, sent back by the refresher (conditional GET); null otherwise. */
  etag: string | null;
  last_modified: string | null;
  /** The `defiant` copyright block of the most recently updated record, or null if none had one. */
  defiant: CopyrightHolder | null;
}
