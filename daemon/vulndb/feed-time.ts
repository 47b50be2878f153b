// Feed timestamps: `YYYY-MM-DD HH:MM:SS` (the feed's own format) or ISO 8601. A time with no
// zone is UTC (README §2). Served as ISO 8601 UTC so every time in a response has one format.

const FEED_FORMAT = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

/** Returns the time as ISO 8601 UTC, or null when absent or unreadable. */
export function parseFeedTime(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const m = FEED_FORMAT.exec(raw.trim());
  if (!m) return null;
  const [, y, mo, d, h = '00', mi = '00', s = '00', frac = '', zone] = m;
  const ms = frac === '' ? '000' : frac.slice(0, 3).padEnd(3, '0');
  const offset = zone === undefined || zone.toUpperCase() === 'Z' ? 'Z' : zone.length === 5 ? `${zone.slice(0, 3)}:${zone.slice(3)}` : zone;
  const t = Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${s}.${ms}${offset}`);
  if (Number.isNaN(t)) return null;
  const iso = new Date(t).toISOString();
  // Date.parse rolls 2024-02-31 over to March: refuse dates that do not round-trip.
  return zone === undefined && !iso.startsWith(`${y}-${mo}-${d}`) ? null : iso.replace('.000Z', 'Z');
}
