// What every command is handed: its I/O, the global options, and the clients it may use. Commands
// never call fetch, fs or process themselves (DESIGN.md house rule 5); everything comes from here.
import type { Command } from 'commander';
import type { InstallReport } from '../daemon/crs/crs-installer.js';
import type { InstalledRelease } from '../daemon/crs/installed-releases.js';
import type { InstalledPlugin } from '../daemon/crs/installed-plugins.js';
import type { PluginInstallReport } from '../daemon/crs/plugin-installer.js';
import type { ApiClient } from '../shared/api-client/index.js';
import type { ProfileFile, Profile, ResolvedProfile } from '../shared/profile.js';
import type { AdminApi } from './admin-api.js';
import { CliError } from './cli-error.js';
import type { DaemonControl } from './daemon-control.js';
import type { Io } from './io.js';
import { Output, type GlobalOptions } from './output.js';

export interface Profiles {
  readonly path: string;
  load(): Promise<ProfileFile>;
  save(site: string, profile: Profile, options?: { makeCurrent?: boolean }): Promise<void>;
  resolve(flags: { site?: string; server?: string }): Promise<ResolvedProfile>;
}

export interface CaCheck {
  /** Throws a clear error unless `path` is a readable PEM certificate file; returns its absolute path. */
  (path: string): Promise<string>;
}

/** Line output to a file, for reports such as `wafctl ingest --rejects FILE`. */
export interface LineWriter {
  write(line: string): Promise<void>;
  close(): Promise<void>;
}

export interface Files {
  /** A file read as a stream of chunks; `-` is standard input. Nothing is read before iteration. */
  read(path: string): AsyncIterable<Buffer | string>;
  /** Creates (or truncates) a file for writing lines. */
  create(path: string): Promise<LineWriter>;
}

/** The Core Rule Set releases installed in a data dir (`wafctl crs`). */
export interface CrsReleases {
  install(request: { version?: string; from?: string; sha256?: string }): Promise<InstallReport>;
  list(): Promise<InstalledRelease[]>;
  use(version: string): Promise<void>;
  remove(version: string): Promise<void>;
  /** `wafctl crs plugin add|list|remove`: the CRS plugins installed in the data dir. */
  addPlugin(from: string): Promise<PluginInstallReport>;
  listPlugins(): Promise<InstalledPlugin[]>;
  removePlugin(name: string): Promise<InstalledPlugin>;
}

export interface CommandDeps {
  io: Io;
  files: Files;
  /** Waits; tests pass one that returns at once and records the delays. */
  sleep(ms: number): Promise<void>;
  version: string;
  /** The data dir used when --data-dir is absent ($WAFCTL_DATA_DIR, XDG, ~/.local/share/wafctl). */
  defaultDataDir(): string;
  /** An admin socket client for a data dir; nothing connects until the first call. */
  admin(dataDir: string): AdminApi;
  daemon: DaemonControl;
  profiles: Profiles;
  /** A management API client (the commands of the REST API). */
  apiClient(options: { server: string; key?: string; token?: string; caFile?: string }): Promise<ApiClient>;
  checkCaFile: CaCheck;
  /** The CRS releases installed in a data dir; nothing is read until the first call. */
  crs(dataDir: string): CrsReleases;
}

export class CommandContext {
  readonly globals: GlobalOptions;
  readonly out: Output;

  constructor(
    readonly deps: CommandDeps,
    command: Command,
  ) {
    const all = command.optsWithGlobals() as Partial<GlobalOptions>;
    this.globals = {
      json: Boolean(all.json),
      quiet: Boolean(all.quiet),
      verbose: Boolean(all.verbose),
      color: all.color !== false,
      dataDir: all.dataDir,
      server: all.server,
      site: all.site,
    };
    this.out = new Output(deps.io, this.globals);
  }

  get io(): Io {
    return this.deps.io;
  }

  dataDir(): string {
    return this.globals.dataDir ?? this.deps.defaultDataDir();
  }

  crs(): CrsReleases {
    return this.deps.crs(this.dataDir());
  }

  admin(): AdminApi {
    return this.deps.admin(this.dataDir());
  }

  /**
   * A management API client for the site the flags, environment and login profile name
   * (--site, --server, WAFCTL_*, ~/.config/wafctl/config.json, in that order).
   */
  async api(): Promise<ApiClient> {
    const resolved = await this.deps.profiles.resolve({ site: this.globals.site, server: this.globals.server });
    if ((!resolved.server || !resolved.key) && resolved.site) await this.noProfileFor(resolved.site);
    if (!resolved.server || !resolved.key) {
      const missing = !resolved.server ? 'no management API server' : `no API key for ${resolved.site ?? 'any site'}`;
      throw new CliError('not_logged_in', `${missing} is configured`, {
        hint: 'run `wafctl login --site DOMAIN --key KEY [--server URL]`, or set WAFCTL_SERVER and WAFCTL_KEY',
      });
    }
    return this.deps.apiClient({ server: resolved.server, key: resolved.key, token: resolved.token, caFile: resolved.ca });
  }

  /** A site named (--site, WAFCTL_SITE) with no profile: name it and the profiles there are, not "no server". */
  private async noProfileFor(site: string): Promise<void> {
    const file = await this.deps.profiles.load();
    if (file.profiles[site]) return;
    const names = Object.keys(file.profiles);
    throw new CliError('not_logged_in', `no login profile for ${site} (${names.length > 0 ? `profiles: ${names.join(', ')}` : 'no profiles saved yet'})`, {
      hint: `check the site name, or log in to it with \`wafctl login --site ${site} --key KEY\` (or \`wafctl site key ${site} --regenerate\` on the daemon's machine)`,
    });
  }
}

/**
 * Adapts a command handler to commander's action signature `(...args, options, command)`:
 * the handler gets a fresh context and the positional arguments and options.
 */
export function withContext<Args extends unknown[]>(
  deps: CommandDeps,
  handler: (ctx: CommandContext, ...args: Args) => Promise<void>,
): (...params: unknown[]) => Promise<void> {
  return async (...params: unknown[]) => {
    const command = params[params.length - 1] as Command;
    await handler(new CommandContext(deps, command), ...(params.slice(0, -1) as Args));
  };
}
