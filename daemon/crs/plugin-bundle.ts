// A CRS plugin as it arrives, whatever it came in (a directory, a .tar.gz, a .zip): the files of its
// `plugins/` directory, its name and, when its config file says, its version. CRS's plugin registry
// shapes every plugin the same way, a repository or release archive with `plugins/<name>-config.conf`,
// `<name>-before.conf` and `<name>-after.conf` (any of them may be missing, not all), so the files
// are found by that shape rather than by where the top directory happens to be.
import { posix } from 'node:path';
import { CrsError } from './crs-error.js';

export interface PluginBundle {
  name: string;
  /** From the config file's "Plugin version:" comment or its `ver:'<name>-plugin/X'` action; null if neither. */
  version: string | null;
  /** The plugin directory's plain files, by file name (rule files and any data files beside them). */
  files: Map<string, Buffer>;
}

/** A plugin name becomes a directory name: nothing that could be a path or an option. */
export const PLUGIN_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/i;
const RULE_FILE = /^(.+)-(config|before|after)\.conf$/;
/** Plugins are a few rule files; this stops a source that is something else entirely. */
export const MAX_PLUGIN_BYTES = 16 * 1024 * 1024;

/**
 * Picks the plugin out of a source's files (paths relative to the source, `/`-separated): the one
 * directory named `plugins` (or the source's own top, when the rule files lie there) that holds
 * plugin rule files.
 */
export function bundleFrom(entries: ReadonlyMap<string, Buffer>, source: string): PluginBundle {
  const dirs = new Set<string>();
  for (const path of entries.keys()) {
    const dir = posix.dirname(path);
    const atPluginsDir = dir === '.' || posix.basename(dir) === 'plugins';
    if (atPluginsDir && RULE_FILE.test(posix.basename(path))) dirs.add(dir);
  }
  if (dirs.size === 0) {
    throw new CrsError('crs_plugin_invalid', `${source} holds no CRS plugin: no plugins/<name>-config.conf, -before.conf or -after.conf`, 'a CRS plugin has the shape of CRS\'s plugin registry: plugins/<name>-before.conf and friends');
  }
  if (dirs.size > 1) {
    throw new CrsError('crs_plugin_invalid', `${source} holds plugin files in more than one place (${[...dirs].sort().join(', ')})`, 'give one plugin at a time');
  }
  const [dir] = dirs;
  const files = new Map<string, Buffer>();
  for (const [path, bytes] of entries) if (posix.dirname(path) === dir) files.set(posix.basename(path), bytes);
  const names = new Set([...files.keys()].map((file) => RULE_FILE.exec(file)?.[1]).filter((n): n is string => n !== undefined));
  if (names.size > 1) {
    throw new CrsError('crs_plugin_invalid', `${source} holds more than one plugin (${[...names].sort().join(', ')})`, 'give one plugin at a time');
  }
  const [name] = names;
  if (!PLUGIN_NAME.test(name)) {
    throw new CrsError('crs_plugin_invalid', `${source}: "${name}" is not a usable plugin name`, 'plugin names are letters, digits, dots, dashes and underscores');
  }
  const config = files.get(`${name}-config.conf`);
  return { name, version: config ? versionIn(config.toString('utf8'), name) : null, files };
}

/** CRS's plugin template carries the version twice: a header comment and the config rule's `ver`. */
function versionIn(text: string, name: string): string | null {
  const comment = /^#\s*Plugin version:\s*v?([0-9][\w.+-]*)/im.exec(text);
  if (comment) return comment[1];
  const escaped = name.replace(/[.]/g, '\\.');
  const ver = new RegExp(`ver:\\s*'${escaped}(?:-plugin)?/v?([0-9][\\w.+-]*)'`, 'i').exec(text);
  return ver ? ver[1] : null;
}
