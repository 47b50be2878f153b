// How a list of bans reads for a human.
import type { BanView } from '../../admin-api.js';
import type { Column } from '../../table.js';

export const banColumns: Column<BanView>[] = [
  { header: 'IP', value: (b) => b.ip },
  { header: 'STATE', value: (b) => b.state },
  { header: 'UNTIL', value: (b) => (b.state === 'revoked' ? `lifted ${b.revoked_at}` : b.expires_at) },
  { header: 'SOURCE', value: (b) => b.source },
  { header: 'REASON', value: (b) => b.reason || '-' },
];
