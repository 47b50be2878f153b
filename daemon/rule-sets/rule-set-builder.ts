import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crsLineOf, type CrsLine } from '../engine/crs-paranoia.js';
import { defaultRegistries } from '../engine/default-registries.js';
import { loadCrs, Waf, type ConfigSource } from '../engine/waf.js';
import { mergePluginFiles, NO_PLUGINS, pluginFilesIn, pluginNames, pluginSources, WORDPRESS_PLUGIN_DIR, WORDPRESS_PLUGIN_NAME, type CrsPluginFiles } from './crs-plugins.js';
import type { UserRuleSource, WafRuleSettings } from './rule-settings.js';
import { refuseEngineSwitch } from './user-rule-checks.js';

// What one combination of per-site settings compiles to (DESIGN.md section 3 step 8): the engine's
// base settings, then the Core Rule Set in CRS 4's plugin order (crs-setup.conf, the plugins'
// config files, the WordPress exclusions, the thresholds, the user's "before" file, the paranoia
// levels, the plugins' before files, the rules, the plugins' after files), then our `cms` WordPress
// rules and the user's "after" file. A group that is off is not loaded at all. Without CRS the
// daemon runs the cms group alone and says so in `daemon status`.

const HERE = fileURLToPath(new URL('.', import.meta.url));
export const BASE_SETTINGS = join(HERE, 'base-settings.conf');
export const CMS_RULES = join(HERE, 'cms', 'wordpress.conf');
const DEBIAN_CRS_SETUP = '/etc/modsecurity/crs/crs-setup.conf';

// CRS 3.3: crs-setup.conf leaves rule 900130 commented out; WordPress sites want its exclusions.
// CRS 4 dropped the built-in exclusions for plugins: there the cms group loads CRS's WordPress
// rule-exclusions plugin instead (WORDPRESS_PLUGIN_DIR).
export const WORDPRESS_EXCLUSIONS: ConfigSource = {
  text: 'SecAction "id:900130,phase:1,nolog,pass,t:none,setvar:tx.crs_exclusions_wordpress=1"',
  name: '<wordpress exclusions>',
};

// `site set --block-user-enumeration off`: the cms group without its user-enumeration rules
// (/?author=N, the REST users endpoint and ?rest_route= without a login; cms/wordpress.conf),
// for a site that publishes its authors on purpose.
const USER_ENUMERATION_ALLOWED: ConfigSource = { text: 'SecRuleRemoveById 200110-200112', name: '<user enumeration allowed>' };

export interface CrsLocation {
  rulesDir: string;
  setupFile: string;
  /** 3 or 4: which variables paranoia is set in, and how WordPress exclusions are loaded. */
  line: CrsLine;
  /** The plugin files of the CRS directory's plugins/ and, under CRS 4, of the installed plugins (as found when the location was looked up). */
  plugins: CrsPluginFiles;
  /** SHA-256 of the plugin files' contents: a plugin removed and added again with other rules is another rule set. */
  pluginDigest: string;
}

/**
 * Where CRS lives under --crs-dir (rules/ and a crs-setup.conf beside it or Debian's), or null.
 * `installedPluginDirs` (`wafctl crs plugin add`, daemon/crs/installed-plugins.ts) are loaded beside
 * the directory's own plugins/ under CRS 4; CRS 3 has no plugin mechanism, so they are left out there.
 */
export function findCrs(crsDir: string, installedPluginDirs: readonly string[] = []): CrsLocation | null {
  const rulesDir = join(crsDir, 'rules');
  if (!existsSync(join(rulesDir, 'REQUEST-901-INITIALIZATION.conf'))) return null;
  const setupFile = [join(crsDir, 'crs-setup.conf'), join(crsDir, 'crs-setup.conf.example'), DEBIAN_CRS_SETUP].find((f) => existsSync(f));
  if (!setupFile) return null;
  const line = crsLineOf(rulesDir);
  const plugins = pluginFilesIn([join(crsDir, 'plugins'), ...(line === 4 ? installedPluginDirs : [])]);
  return { rulesDir, setupFile, line, plugins, pluginDigest: digestOf(plugins) };
}

function digestOf(plugins: CrsPluginFiles): string {
  const hash = createHash('sha256');
  for (const file of [...plugins.config, ...plugins.before, ...plugins.after]) {
    hash.update(file).update('\0');
    try { hash.update(readFileSync(file)); } catch { hash.update('<unreadable>'); }
  }
  return hash.digest('hex');
}

/** The plugins a site runs: the CRS directory's, plus CRS's WordPress plugin under CRS 4 when the cms group is on (unless the directory has its own copy). */
export function sitePlugins(settings: WafRuleSettings, crs: CrsLocation): CrsPluginFiles {
  const wanted = settings.groups.cms && crs.line === 4 && !pluginNames(crs.plugins).includes(WORDPRESS_PLUGIN_NAME);
  return wanted ? mergePluginFiles(crs.plugins, pluginFilesIn([WORDPRESS_PLUGIN_DIR])) : mergePluginFiles(crs.plugins, NO_PLUGINS);
}

// CRS's REQUEST-901 only sets the thresholds when nothing did before it (crs-setup's rule 900110 is
// commented out by default); this runs after crs-setup, so the site's values win. Id 100010 is in
// the range of our base settings (100000-100099).
function thresholds(settings: WafRuleSettings): ConfigSource {
  return {
    text: `SecAction "id:100010,phase:1,nolog,pass,t:none,setvar:tx.inbound_anomaly_score_threshold=${settings.inboundThreshold},setvar:tx.outbound_anomaly_score_threshold=${settings.outboundThreshold}"`,
    name: '<site anomaly thresholds>',
  };
}

function userSource(file: UserRuleSource): ConfigSource {
  refuseEngineSwitch(file);
  return { text: file.text, name: file.name, baseDir: dirname(file.name) };
}

/** Compiles one combination; throws SecLangError ("file:line: reason") when any part does not load. */
export function compileRuleSet(settings: WafRuleSettings, crs: CrsLocation | null): Waf {
  const base: ConfigSource = { file: BASE_SETTINGS };
  const before = settings.before ? [userSource(settings.before)] : [];
  const after = [
    ...(settings.groups.cms ? [{ file: CMS_RULES }, ...(settings.blockUserEnumeration ? [] : [USER_ENUMERATION_ALLOWED])] : []),
    ...(settings.after ? [userSource(settings.after)] : []),
  ];
  if (crs === null || !settings.groups.crs) {
    return Waf.load([base, ...before, ...after], { registries: defaultRegistries });
  }
  return loadCrs({
    registries: defaultRegistries,
    rulesDir: crs.rulesDir,
    setupFile: crs.setupFile,
    before: [base],
    plugins: pluginSources(sitePlugins(settings, crs)),
    afterSetup: [...(crs.line === 3 ? [WORDPRESS_EXCLUSIONS] : []), thresholds(settings), ...before],
    paranoiaLevel: settings.paranoia,
    detectionParanoiaLevel: settings.detectionParanoia,
    after,
  });
}

/** How many rules a compiled set holds (shown by `wafctl rules show`). */
export function ruleCount(waf: Waf): number {
  return waf.ruleSet.byId.size;
}
