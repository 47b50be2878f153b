// How a rate-limit list reads for a human.
import type { RateLimitView } from '../../../admin-api.js';
import type { Column } from '../../../table.js';

export const rateLimitColumns: Column<RateLimitView>[] = [
  { header: 'PATH', value: (r) => r.path },
  { header: 'PER MINUTE', value: (r) => String(r.per_minute), align: 'right' },
];
