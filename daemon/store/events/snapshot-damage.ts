// Damage in a snapshot that only shows when a packed part is inflated (an inflate error, a
// key ref outside its string table, a URI chunk whose offsets do not fit): the open could
// not see it without unpacking everything. The store catches this error type, rebuilds that
// kind's index from the segments and answers again (README: "A damaged snapshot heals").
import type { EventKind } from './segment-names.js';

export class SnapshotDamageError extends Error {
  constructor(
    /** Which snapshot the damaged part came from. */
    readonly kind: EventKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'SnapshotDamageError';
  }
}

/** Runs `unpack`; whatever it throws is damage of the `kind` snapshot (it reads nothing else). */
export function unpackOrDamage<T>(kind: EventKind, what: string, unpack: () => T): T {
  try {
    return unpack();
  } catch (err) {
    throw new SnapshotDamageError(kind, `${what}: ${(err as Error).message}`, { cause: err });
  }
}
