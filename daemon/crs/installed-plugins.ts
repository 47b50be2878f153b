// The CRS plugins installed under <data>/crs-plugins: one directory per plugin holding its plugins/
// files as they came, plus `.wafctl-plugin.json` (name, version, source). Kept apart from the
// releases in <data>/crs so that one install serves every CRS version the daemon may switch to.
// The CLI (`wafctl crs plugin`) and the daemon (which plugin directories a CRS 4 rule set loads)
// read the layout through here.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { dataPaths } from '../../shared/paths.js';
import { CrsError } from './crs-error.js';
import { PLUGIN_NAME } from './plugin-bundle.js';

export const PLUGIN_RECORD = '.wafctl-plugin.json';

export interface InstalledPlugin {
  name: string;
  version: string | null;
  /** Where it was installed from: a URL or an absolute path. */
  source: string;
  path: string;
  installed_at: string;
}

export class InstalledPlugins {
  readonly root: string;

  constructor(dataDir: string) {
    this.root = dataPaths(dataDir).crsPluginsDir;
  }

  pathOf(name: string): string {
    if (!PLUGIN_NAME.test(name)) throw new CrsError('crs_plugin_not_installed', `"${name}" is not a plugin name`, 'see `wafctl crs plugin list`');
    return join(this.root, name);
  }

  isInstalled(name: string): boolean {
    return existsSync(this.pathOf(name));
  }

  /** By name; dot-directories are installs in progress (or killed) and never count. */
  list(): InstalledPlugin[] {
    if (!existsSync(this.root)) return [];
    return readdirSync(this.root, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && PLUGIN_NAME.test(entry.name))
      .map((entry) => this.read(entry.name))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** The directories a CRS 4 rule set loads plugin files from (crs-plugins.ts pluginFilesIn). */
  dirs(): string[] {
    return this.list().map((plugin) => plugin.path);
  }

  async remove(name: string): Promise<InstalledPlugin> {
    if (!this.isInstalled(name)) {
      throw new CrsError('crs_plugin_not_installed', `no CRS plugin named "${name}" is installed`, 'see `wafctl crs plugin list`');
    }
    const removed = this.read(name);
    // Renamed away first: the plugin is gone at once for a daemon that looks, even if the delete stops halfway.
    const doomed = join(this.root, `.removing-${name}-${process.pid}`);
    await rename(this.pathOf(name), doomed);
    await rm(doomed, { recursive: true, force: true });
    return removed;
  }

  private read(name: string): InstalledPlugin {
    const path = join(this.root, name);
    let record: Partial<InstalledPlugin> = {};
    try {
      record = JSON.parse(readFileSync(join(path, PLUGIN_RECORD), 'utf8')) as Partial<InstalledPlugin>;
    } catch {
      // Put there by hand: still loaded, listed with what is known.
    }
    return {
      name,
      version: typeof record.version === 'string' ? record.version : null,
      source: typeof record.source === 'string' ? record.source : '(unknown)',
      path,
      installed_at: typeof record.installed_at === 'string' ? record.installed_at : '',
    };
  }
}
