// `wafctl crs plugin add`: read the plugin, write it into a dot-directory beside the installed ones,
// load it with the engine together with the rule set it will join, and only then rename it to
// <data>/crs-plugins/<name>. A plugin that does not load, a name already taken, or any failure on
// the way removes the temporary tree and leaves the installed plugins as they were.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defaultRegistries } from '../engine/default-registries.js';
import { SecLangError } from '../engine/seclang/errors.js';
import { Waf } from '../engine/waf.js';
import { pluginFilesIn } from '../rule-sets/crs-plugins.js';
import { defaultRuleSettings } from '../rule-sets/rule-settings.js';
import { BASE_SETTINGS, compileRuleSet, findCrs } from '../rule-sets/rule-set-builder.js';
import { activeCrs } from './active-crs.js';
import { CrsError } from './crs-error.js';
import { InstalledPlugins, PLUGIN_RECORD, type InstalledPlugin } from './installed-plugins.js';
import { fetchPlugin } from './plugin-source.js';

export interface PluginInstallReport extends InstalledPlugin {
  /** What the plugin was loaded with to check it: a CRS 4 release's version or directory, or "the plugin alone". */
  checked_with: string;
  /** Rules in that checked rule set. */
  rules: number;
}

export async function installPlugin(dataDir: string, from: string, crsDir: string): Promise<PluginInstallReport> {
  const installs = new InstalledPlugins(dataDir);
  const plugin = await fetchPlugin(from);
  if (installs.isInstalled(plugin.name)) throw alreadyInstalled(plugin.name);

  await mkdir(installs.root, { recursive: true });
  const incoming = await mkdtemp(join(installs.root, `.incoming-${plugin.name}-`));
  try {
    for (const [file, bytes] of plugin.files) await writeFile(join(incoming, file), bytes);
    const record = { name: plugin.name, version: plugin.version, source: plugin.source, installed_at: new Date().toISOString() };
    await writeFile(join(incoming, PLUGIN_RECORD), `${JSON.stringify(record, null, 2)}\n`);
    const checked = checkLoads(dataDir, crsDir, installs.dirs(), incoming, plugin.name);
    try {
      await rename(incoming, installs.pathOf(plugin.name));
    } catch (error) {
      if (installs.isInstalled(plugin.name)) throw alreadyInstalled(plugin.name); // another add won the race
      throw error;
    }
    return { ...record, path: installs.pathOf(plugin.name), checked_with: checked.with, rules: checked.rules };
  } finally {
    if (existsSync(incoming)) await rm(incoming, { recursive: true, force: true });
  }
}

function alreadyInstalled(name: string): CrsError {
  return new CrsError('crs_plugin_exists', `a CRS plugin named "${name}" is already installed`, `remove it first (\`wafctl crs plugin remove ${name}\`) to install another copy`);
}

/**
 * Loads the plugin as a CRS 4 site will: with the CRS release the daemon runs (the selected one, else
 * --crs-dir) and every plugin already installed, so a rule id clash is caught too. Without a CRS 4
 * rule set here, the plugin's files are loaded alone, which still catches any SecLang error.
 */
function checkLoads(dataDir: string, crsDir: string, installed: string[], incoming: string, name: string): { with: string; rules: number } {
  const active = activeCrs(dataDir, crsDir);
  const location = active.found ? findCrs(active.dir, [...installed, incoming]) : null;
  try {
    if (location && location.line === 4) {
      const waf = compileRuleSet(defaultRuleSettings(1), location);
      return { with: active.version ? `CRS ${active.version}` : active.dir, rules: waf.ruleSet.byId.size };
    }
    const files = pluginFilesIn([incoming]);
    const waf = Waf.load([{ file: BASE_SETTINGS }, ...[...files.config, ...files.before, ...files.after].map((file) => ({ file }))], { registries: defaultRegistries });
    return { with: 'the plugin alone (no CRS 4 rule set here)', rules: waf.ruleSet.byId.size };
  } catch (error) {
    const reason = error instanceof SecLangError ? error.message.replaceAll(`${incoming}/`, '') : String(error);
    throw new CrsError('crs_plugin_rules_invalid', `the rules of plugin "${name}" do not load: ${reason}`, 'nothing was installed; fix the plugin\'s rule files (or use a release of it that loads) and add it again');
  }
}
