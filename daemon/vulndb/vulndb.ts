// The module's front door: open a vulndb directory, import a feed into it, report its status,
// answer checks. One VulnDb per directory and process; imports run one at a time, and a new
// generation replaces the live one only once it is complete and on disk.

import {
  VulnCheckRequestSchema,
  type VulnCheckRequest,
  type VulnCheckResponse,
  type VulnDbImportResult,
  type VulnDbStatus,
} from '../../shared/schemas/vulndb.js';
import { describeIssues } from '../../shared/schemas/issues.js';
import { WafctlError } from '../../shared/errors.js';
import { checkRequest } from './check.js';
import { openFeed, redactUrl, type FeedSourceInput, type FeedSourceOptions } from './feed-source.js';
import { currentGeneration, publishGeneration, removeStale } from './generation-store.js';
import { buildGeneration, type ImportOptions } from './importer.js';
import { LoadedGeneration } from './loaded-generation.js';
import { Refresher, type RefreshOptions } from './refresher.js';
import { VulnDbError } from './vulndb-error.js';

export type VulnImportOptions = ImportOptions & FeedSourceOptions;

/** A parse result: a block is a return value (DESIGN.md house rule 2). */
export type ParsedCheckRequest = { ok: true; request: VulnCheckRequest } | { ok: false; message: string; errors: string[] };

export class VulnDb {
  private live: LoadedGeneration | null;
  private importing = false;
  private refresher: Refresher | null = null;

  private constructor(
    readonly dir: string,
    private readonly readOnly: boolean,
    live: LoadedGeneration | null,
    private loadError: string | null,
  ) {
    this.live = live;
  }

  /**
   * Opens (or starts) the database in `dir`: loads the live generation if any and removes
   * leftovers of crashed imports. A damaged database does not stop the daemon: it opens as not
   * loaded, with the reason in `status().error`, until the next successful import replaces it.
   * `readOnly` is for extra processes (cluster workers) beside the one that imports: they never
   * clean up or import, and pick up new generations with `reload()`.
   */
  static async open(dir: string, opts: { readOnly?: boolean } = {}): Promise<VulnDb> {
    const readOnly = opts.readOnly === true;
    let genDir: string | null;
    try {
      genDir = await currentGeneration(dir);
    } catch (err) {
      return new VulnDb(dir, readOnly, null, (err as Error).message);
    }
    if (!readOnly) await removeStale(dir, genDir);
    if (genDir === null) return new VulnDb(dir, readOnly, null, null);
    try {
      return new VulnDb(dir, readOnly, await LoadedGeneration.load(genDir), null);
    } catch (err) {
      return new VulnDb(dir, readOnly, null, unloadable(genDir, err));
    }
  }

  /**
   * Loads the generation CURRENT names if it is not the one in memory (another process
   * imported). Resolves true when it swapped; on failure keeps the live one and rejects.
   */
  async reload(): Promise<boolean> {
    const genDir = await currentGeneration(this.dir);
    if (genDir === null || genDir === this.live?.dir) return false;
    const next = await LoadedGeneration.load(genDir);
    this.swapIn(next);
    return true;
  }

  /**
   * Streams a feed from a file path, an http(s) URL or a Readable into a new generation and
   * swaps it in. Throws VulnDbError (the database unchanged) on a bad source, a truncated or
   * malformed document, a feed with no valid record, or when another import is running.
   */
  async import(source: FeedSourceInput, opts: VulnImportOptions = {}): Promise<VulnDbImportResult> {
    if (this.readOnly) throw new VulnDbError('read_only', 'this process opened the vulnerability database read-only: import in the daemon');
    if (this.importing) throw new VulnDbError('import_in_progress', 'another import is running on this vulnerability database');
    this.importing = true;
    try {
      const feed = await openFeed(source, opts);
      const built = await buildGeneration(this.dir, feed, opts);
      const genDir = await publishGeneration(this.dir, built.importDir);
      this.swapIn(await LoadedGeneration.load(genDir));
      await removeStale(this.dir, genDir);
      return { status: this.status(), skipped_sample: built.skippedSample };
    } finally {
      this.importing = false;
    }
  }

  /** Checks are synchronous, so none is running on the previous generation now. */
  private swapIn(next: LoadedGeneration): void {
    const previous = this.live;
    this.live = next;
    this.loadError = null;
    previous?.close();
  }

  status(): VulnDbStatus {
    const refresh = this.refresher?.status();
    if (this.live === null) return { loaded: false, ...(this.loadError ? { error: this.loadError } : {}), ...(refresh ? { refresh } : {}) };
    const { defiant: _defiant, ...meta } = this.live.meta;
    return { loaded: true, ...meta, ...(refresh ? { refresh } : {}) };
  }

  /** Validates and normalises a request body (422 `validation_error` material on failure). */
  parseCheckRequest(body: unknown): ParsedCheckRequest {
    return parseCheckRequest(body);
  }

  /**
   * For the management API (`ManagementDependencies.checkVulnerabilities`): validates the raw
   * body and answers it; a bad body throws WafctlError `validation_error` (422) naming each field.
   */
  async checkBody(body: unknown, now: Date = new Date()): Promise<VulnCheckResponse> {
    const parsed = parseCheckRequest(body);
    if (!parsed.ok) throw new WafctlError('validation_error', parsed.errors.join('; '));
    return this.check(parsed.request, now);
  }

  /** Answers a parsed request. Synchronous on purpose: see loaded-generation.ts. */
  check(req: VulnCheckRequest, now: Date = new Date()): VulnCheckResponse {
    return checkRequest(this.live, req, now);
  }

  /** Refreshes from a URL every `intervalMs` (first run after `initialDelayMs`); replaces any running refresher. */
  startRefresh(opts: Omit<RefreshOptions, 'runImport'>): void {
    this.refresher?.stop();
    const redacted = redactUrl(opts.url);
    this.refresher = new Refresher({
      ...opts,
      runImport: (url, o) => this.import(url, o),
      // Conditional GET only when the live database came from this same URL.
      validators: () => {
        const meta = this.live?.meta;
        if (meta === undefined || meta.source !== redacted) return {};
        return { ifNoneMatch: meta.etag ?? undefined, ifModifiedSince: meta.last_modified ?? undefined };
      },
    });
    this.refresher.start();
  }

  stopRefresh(): void {
    this.refresher?.stop();
    this.refresher = null;
  }

  /** Runs one refresh now (the `wafctl vulndb refresh` shape); resolves when it has finished. */
  refreshNow(): Promise<void> {
    if (this.refresher === null) return Promise.reject(new VulnDbError('refresh_not_configured', 'no refresh URL is configured for the vulnerability database'));
    return this.refresher.runOnce();
  }

  close(): void {
    this.stopRefresh();
    this.live?.close();
    this.live = null;
  }
}

function unloadable(genDir: string, err: unknown): string {
  return `the vulnerability database in ${genDir} cannot be loaded (${(err as Error).message}); import the feed again`;
}

export function parseCheckRequest(body: unknown): ParsedCheckRequest {
  const parsed = VulnCheckRequestSchema.safeParse(body);
  if (parsed.success) return { ok: true, request: parsed.data };
  const errors = parsed.error.issues.map((i) => `${i.path.length > 0 ? i.path.map(String).join('.') : '(body)'}: ${i.message}`);
  return { ok: false, message: describeIssues(parsed.error), errors };
}
