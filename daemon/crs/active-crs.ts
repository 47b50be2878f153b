// Which Core Rule Set the daemon runs, in this order: the version selected with
// `wafctl crs use` (or installed first), else --crs-dir (whose default is Debian's package,
// /usr/share/modsecurity-crs). `found` is true only when rules that load are there, so status
// never says "crs" while nothing runs. Under CRS 4 the plugins installed with `wafctl crs plugin add`
// join the directory's own plugins/. Read at start and again on every reload, which switches to
// whatever this says then.
import { pluginNames } from '../rule-sets/crs-plugins.js';
import { findCrs } from '../rule-sets/rule-set-builder.js';
import { InstalledPlugins } from './installed-plugins.js';
import { InstalledReleases } from './installed-releases.js';

export interface ActiveCrs {
  found: boolean;
  /** The directory the rules are read from (or were looked for in). */
  dir: string;
  /** The installed release's version; null for --crs-dir. */
  version: string | null;
  source: 'installed' | 'crs-dir';
  /** The installed plugins' directories (loaded only when the rules are CRS 4). */
  pluginDirs: string[];
  /** The names of the CRS plugins every site loads (the directory's own and the installed ones). */
  plugins: string[];
  /** The plugin files' digest when this was read (CrsLocation.pluginDigest): what a reload compares. */
  pluginDigest: string;
  /** Set when a selection exists but could not be used (its directory is gone or incomplete). */
  problem?: string;
}

/** What the edge needs to find the same rules in any process: the directory and the plugin directories. */
export type CrsPlace = Pick<ActiveCrs, 'dir' | 'pluginDirs'>;

export function activeCrs(dataDir: string, crsDir: string): ActiveCrs {
  const pluginDirs = new InstalledPlugins(dataDir).dirs();
  const selected = new InstalledReleases(dataDir).selectedLocation();
  const dir = selected?.location ? selected.path : crsDir;
  const location = findCrs(dir, pluginDirs);
  const read = { found: location !== null, dir, pluginDirs, plugins: location ? pluginNames(location.plugins) : [], pluginDigest: location?.pluginDigest ?? '-' };
  if (selected?.location) return { ...read, version: selected.version, source: 'installed' };
  const fallback: ActiveCrs = { ...read, version: null, source: 'crs-dir' };
  return selected ? { ...fallback, problem: `the selected CRS ${selected.version} is missing or incomplete at ${selected.path}` } : fallback;
}

/** Whether a reload would change what the edge runs: another directory, or other plugin files. */
export function sameCrs(a: ActiveCrs, b: ActiveCrs): boolean {
  return a.dir === b.dir && a.found === b.found && a.pluginDigest === b.pluginDigest;
}
