import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CrsPluginSources } from '../engine/waf.js';

// CRS 4 plugins are rule files named <plugin>-config.conf, <plugin>-before.conf and
// <plugin>-after.conf in a plugins/ directory. CRS's documented set-up includes them around the rules:
// crs-setup.conf, plugins/*-config.conf, plugins/*-before.conf, rules/*.conf, plugins/*-after.conf
// (loadCrs keeps that order). Within one kind, files load in the order of their names, as Apache's
// and nginx's glob Include sort them, wherever the plugin lives, so the order does not depend on
// which directory a plugin was put in.

export interface CrsPluginFiles {
  config: string[];
  before: string[];
  after: string[];
}

const KINDS = ['config', 'before', 'after'] as const;

/** The vendored copy of CRS's WordPress rule-exclusions plugin (Apache-2.0, see its NOTICE). */
export const WORDPRESS_PLUGIN_DIR = join(fileURLToPath(new URL('.', import.meta.url)), 'crs-plugins', 'wordpress-rule-exclusions');
export const WORDPRESS_PLUGIN_NAME = 'wordpress-rule-exclusions';

export const NO_PLUGINS: CrsPluginFiles = Object.freeze({ config: [], before: [], after: [] });

/** The plugin files in `dirs` (missing directories hold none), each kind sorted by file name. */
export function pluginFilesIn(dirs: readonly string[]): CrsPluginFiles {
  const found: CrsPluginFiles = { config: [], before: [], after: [] };
  for (const dir of dirs) {
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir)) {
      const kind = KINDS.find((k) => name.endsWith(`-${k}.conf`));
      if (kind && statSync(join(dir, name)).isFile()) found[kind].push(join(dir, name));
    }
  }
  for (const kind of KINDS) found[kind].sort(compareNames);
  return found;
}

/** The plugin names among `files` (a file's name without its -config/-before/-after.conf). */
export function pluginNames(files: CrsPluginFiles): string[] {
  const names = new Set<string>();
  for (const kind of KINDS) for (const f of files[kind]) names.add(basename(f).slice(0, -`-${kind}.conf`.length));
  return [...names].sort();
}

export function mergePluginFiles(a: CrsPluginFiles, b: CrsPluginFiles): CrsPluginFiles {
  return {
    config: [...a.config, ...b.config].sort(compareNames),
    before: [...a.before, ...b.before].sort(compareNames),
    after: [...a.after, ...b.after].sort(compareNames),
  };
}

function compareNames(a: string, b: string): number {
  return basename(a) < basename(b) ? -1 : basename(a) > basename(b) ? 1 : a < b ? -1 : a > b ? 1 : 0;
}

/** What loadCrs takes: each file as a source (its Includes and data files relative to its directory). */
export function pluginSources(files: CrsPluginFiles): CrsPluginSources {
  return { config: files.config.map((file) => ({ file })), before: files.before.map((file) => ({ file })), after: files.after.map((file) => ({ file })) };
}
