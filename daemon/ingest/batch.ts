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

export function splitBatch<T extends { host: string }>(
  entries: unknown[],
  schema: z.ZodType<T>,
  hostProblem: (host: string) => string | null,
): SplitBatch<T> {
  const accepted: SplitBatch<T>['accepted'] = [];
  const errors: EntryError[] = [];
  entries.forEach((raw, index) => {
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      errors.push({ index, error: 'entry must be a JSON object' });
      return;
    }
    const parsed = schema.safeParse(raw);
    if (!parsed.success) {
      errors.push({ index, error: describeIssues(parsed.error) });
      return;
    }
    const problem = hostProblem(parsed.data.host);
    if (problem !== null) errors.push({ index, error: `host: ${problem}` });
    else accepted.push({ index, entry: parsed.data });
  });
  return { accepted, errors };
}
