// How a protected-page list reads for a human.
import type { ProtectedPageView } from '../../../admin-api.js';
import type { Column } from '../../../table.js';

export const pageColumns: Column<ProtectedPageView>[] = [
  { header: 'PATH', value: (p) => p.path },
  { header: 'ALLOW', value: (p) => p.allow.join(',') },
];
