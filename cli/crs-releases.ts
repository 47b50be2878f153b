// The real CrsReleases behind `wafctl crs`: the installer and the install store of daemon/crs,
// loaded on first use (the installer pulls in the rule engine, which `wafctl site list` should not
// pay for). Their CrsErrors become CliErrors here, code, message and hint unchanged.
import { CliError } from './cli-error.js';
import type { CrsReleases } from './context.js';

export function crsReleases(dataDir: string, env: NodeJS.ProcessEnv): CrsReleases {
  const store = async () => new (await import('../daemon/crs/installed-releases.js')).InstalledReleases(dataDir);
  return {
    install: (request) => asCliError(async () => (await import('../daemon/crs/crs-installer.js')).installCrs(dataDir, { ...request, env })),
    list: () => asCliError(async () => (await store()).list()),
    use: (version) => asCliError(async () => (await store()).use(version)),
    remove: (version) => asCliError(async () => (await store()).remove(version)),
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
