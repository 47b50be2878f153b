import type { z } from 'zod';

// One line naming where validation failed: "origin: must be an http:// or https:// URL". Used in
// error messages of the admin socket, the API and the config loader so every one names the field.

export function describeIssues(error: z.ZodError, limit = 3): string {
  const lines = error.issues.slice(0, limit).map((issue) => {
    const where = issue.path.length > 0 ? issue.path.map(String).join('.') : '(root)';
    return `${where}: ${issue.message}`;
  });
  const more = error.issues.length - limit;
  return lines.join('; ') + (more > 0 ? ` (and ${more} more)` : '');
}
