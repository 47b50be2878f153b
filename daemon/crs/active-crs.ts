// Which Core Rule Set the daemon runs, in this order: the version selected with
// `wafctl crs use` (or installed first), else --crs-dir (whose default is Debian's package,
// /usr/share/modsecurity-crs). `found` is true only when rules that load are there, so status
// never says "crs" while nothing runs.
import { findCrs } from '../waf/rule-set-builder.js';
import { InstalledReleases } from './installed-releases.js';

export interface ActiveCrs {
  found: boolean;
  /** The directory the rules are read from (or were looked for in). */
  dir: string;
  /** The installed release's version; null for --crs-dir. */
  version: string | null;
  source: 'installed' | 'crs-dir';
  /** Set when a selection exists but could not be used (its directory is gone or incomplete). */
  problem?: string;
}

export function activeCrs(dataDir: string, crsDir: string): ActiveCrs {
  const selected = new InstalledReleases(dataDir).selectedLocation();
  if (selected?.location) return { found: true, dir: selected.path, version: selected.version, source: 'installed' };
  const fallback: ActiveCrs = { found: findCrs(crsDir) !== null, dir: crsDir, version: null, source: 'crs-dir' };
  return selected ? { ...fallback, problem: `the selected CRS ${selected.version} is missing or incomplete at ${selected.path}` } : fallback;
}
