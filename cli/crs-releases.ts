// The real CrsReleases behind `wafctl crs`: the installer and the install store of daemon/crs,
// loaded on first use (the installer pulls in the rule engine, which `wafctl site list` should not
// pay for). Their CrsErrors become CliErrors here, code, message and hint unchanged.
import { CliError } from './cli-error.js';
import type { CrsReleases } from './context.js';

/** --crs-dir's default (daemon/options/option-table.ts): Debian's modsecurity-crs. */
const DEFAULT_CRS_DIR = '/usr/share/modsecurity-crs';

export function crsReleases(dataDir: string, env: NodeJS.ProcessEnv): CrsReleases {
  const plugins = async () => new (await import('../daemon/crs/installed-plugins.js')).InstalledPlugins(dataDir);
  const store = async () => new (await import('../daemon/crs/installed-releases.js')).InstalledReleases(dataDir);
  return {
    install: (request) => asCliError(async () => (await import('../daemon/crs/crs-installer.js')).installCrs(dataDir, { ...request, env })),
    list: () => asCliError(async () => (await store()).list()),
    use: (version) => asCliError(async () => (await store()).use(version)),
    remove: (version) => asCliError(async () => (await store()).remove(version)),
    // The plugin is checked against the CRS the daemon would run; --crs-dir is the daemon's, so its
    // environment default is read here too (the selected installed release wins anyway).
    addPlugin: (from) => asCliError(async () => (await import('../daemon/crs/plugin-installer.js')).installPlugin(dataDir, from, env.WAFCTL_CRS_DIR || DEFAULT_CRS_DIR)),
    listPlugins: () => asCliError(async () => (await plugins()).list()),
    removePlugin: (name) => asCliError(async () => (await plugins()).remove(name)),
  };
}

async function asCliError<T>(work: () => Promise<T>): Promise<T> {
  const { CrsError } = await import('../daemon/crs/crs-error.js');
  try {
    return await work();
  } catch (error) {
    if (error instanceof CrsError) throw new CliError(error.code, error.message, { hint: error.hint });
    throw error;
  }
}
