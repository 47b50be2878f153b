// Whether a file the daemon keeps writing (the event store, the daemon log) currently takes writes,
// for `wafctl daemon status`. Those writes happen in the background, with nobody to answer: a full
// disk or a permission changed under the daemon was only a line in the log (if the log itself could
// still be written). The state is the last outcome: failing from the first failed write until the
// next one succeeds.
import type { WriteFailure } from '../../shared/schemas/admin.js';

/** What an errno means to an operator; others are shown as their code alone. */
const MEANINGS: Record<string, string> = {
  ENOSPC: 'disk full',
  EDQUOT: 'disk quota exceeded',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  EISDIR: 'a directory is in the way',
  EIO: 'input/output error',
};

export class WriteHealth {
  #failure: { since: number; error: string; count: number } | null = null;

  /** `where`: the file or directory written, named in the state. */
  constructor(
    private readonly where: string,
    private readonly now: () => number = () => Date.now(),
  ) {}

  failed(err: unknown): void {
    const error = describe(err);
    if (this.#failure === null) this.#failure = { since: this.now(), error, count: 1 };
    else {
      this.#failure.error = error;
      this.#failure.count++;
    }
  }

  succeeded(): void {
    this.#failure = null;
  }

  /** null while writes succeed. */
  state(): WriteFailure | null {
    const f = this.#failure;
    if (f === null) return null;
    return { failing_since: new Date(f.since).toISOString(), error: f.error, path: this.where, failed_writes: f.count };
  }
}

/** `ENOSPC (disk full)`: the errno of the error or of its cause, else the first line of its message. */
function describe(err: unknown): string {
  for (let e: unknown = err, depth = 0; e !== null && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z0-9]+$/.test(code)) return MEANINGS[code] ? `${code} (${MEANINGS[code]})` : code;
  }
  return (err instanceof Error ? err.message : String(err)).split('\n')[0].slice(0, 200);
}
