import type { z } from 'zod';
import { describeIssues } from '../../shared/schemas/ingest.js';

// One request body -> accepted entries and per-entry errors. Each entry is judged on its own
// (spec section 4: "Entries are validated individually"); positions are zero-based.

export const MAX_BATCH_ENTRIES = 1000;

export interface EntryError {
  index: number;
  error: string;
}

export interface SplitBatch<T> {
  accepted: Array<{ index: number; entry: T }>;
  errors: EntryError[];
}

export type BodyShapeProblem = { kind: 'not_object_or_array' } | { kind: 'too_many'; count: number };

/** A single object is a batch of one; anything but an object or array is refused whole. */
export function entriesOf(body: unknown): unknown[] | BodyShapeProblem {
  if (Array.isArray(body)) {
    return body.length > MAX_BATCH_ENTRIES ? { kind: 'too_many', count: body.length } : body;
  }
  if (body !== null && typeof body === 'object') return [body];
  return { kind: 'not_object_or_array' };
}

/**
 * How entries of one kind are judged: `check` is the fast twin of `schema` (entry-check.ts) and
 * answers for the accepted; a refused entry is explained by the schema itself.
 */
export interface EntryRules<T> {
  check(raw: unknown): T | null;
  schema: z.ZodType<T>;
}

export function splitBatch<T extends { host: string }>(
  entries: unknown[],
  rules: EntryRules<T>,
  hostProblem: (host: string) => string | null,
): SplitBatch<T> {
  const accepted: SplitBatch<T>['accepted'] = [];
  const errors: EntryError[] = [];
  for (let index = 0; index < entries.length; index++) {
    const raw = entries[index];
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      errors.push({ index, error: 'entry must be a JSON object' });
      continue;
    }
    let entry = rules.check(raw);
    if (entry === null) {
      const parsed = rules.schema.safeParse(raw);
      if (!parsed.success) {
        errors.push({ index, error: describeIssues(parsed.error) });
        continue;
      }
      entry = parsed.data; // the twin drifted from the schema: the schema is the contract
    }
    const problem = hostProblem(entry.host);
    if (problem !== null) errors.push({ index, error: `host: ${problem}` });
    else accepted.push({ index, entry });
  }
  return { accepted, errors };
}
