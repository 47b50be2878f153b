import type { z } from 'zod';
import { WafctlError } from '../../../shared/errors.js';

// A request part through a shared schema; failure is 422 `validation_error` naming each field.
export function validate<S extends z.ZodTypeAny>(schema: S, value: unknown, part: 'body' | 'query' | 'path'): z.infer<S> {
  const result = schema.safeParse(value ?? (part === 'query' ? {} : undefined));
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const field = issue.path.join('.');
    return field === '' ? `${part}: ${issue.message}` : `${field}: ${issue.message}`;
  });
  throw new WafctlError('validation_error', problems.join('; '));
}
