// wafctl login --site DOMAIN --key KEY [--server URL] [--ca FILE]: checks the key against GET /connect,
// then saves the profile the management API commands use. --site and --server are the global
// options of the same names. Without --server, the local daemon's api_url is used (it must be
// running then). Without --ca: the CA already pinned for this site and server, else the local
// daemon's ca_file when the server is that daemon, else the system CAs.
import type { Command } from 'commander';
import { CliError, usageError } from '../cli-error.js';
import { withContext, type CommandContext, type CommandDeps } from '../context.js';
import { toCliError } from '../error-mapping.js';
import { checkKey } from '../key-check.js';
import { parsePath } from '../options.js';

/** Spec section 5: exactly 64 alphanumeric characters. */
const API_KEY = /^[A-Za-z0-9]{64}$/;

interface LoginOptions {
  key?: string;
  ca?: string;
}

export function registerLogin(program: Command, deps: CommandDeps): void {
  program
    .command('login')
    .description('save the management API profile of a site (in ~/.config/wafctl/config.json, mode 0600)')
    .usage('--site DOMAIN --key KEY [--server URL] [--ca FILE]')
    .option('--key <key>', 'the site API key (64 letters and digits)')
    .option('--ca <file>', 'PEM file of the CA that signed the server certificate (default: the one already pinned for this site and server, the local daemon\'s ca_file for its own API, else the system CAs)', parsePath)
    .addHelpText(
      'after',
      '\n--site and --server are the global options (see `wafctl --help`).\n\nExamples:\n  wafctl login --site example.com --key $KEY\n  wafctl login --site example.com --key $KEY --server https://waf.example.net:9443 --ca ca.crt\n',
    )
    .action(withContext(deps, login));
}

async function login(ctx: CommandContext, options: LoginOptions): Promise<void> {
  const site = ctx.globals.site;
  if (!site) throw usageError('login needs --site DOMAIN', 'wafctl login --site DOMAIN --key KEY [--server URL] [--ca FILE]');
  if (!options.key) throw usageError('login needs --key KEY', 'wafctl login --site DOMAIN --key KEY [--server URL] [--ca FILE]');
  if (!API_KEY.test(options.key)) {
    throw new CliError('invalid_api_key_format', 'the key must be exactly 64 letters and digits', { exitCode: 1 });
  }
  const local = ctx.globals.server ? undefined : await localDaemon(ctx);
  const server = ctx.globals.server ?? local!.api_url;
  checkServer(server);
  const chosen = options.ca ?? (await keptCa(ctx, site, server)) ?? (local ?? (await localDaemonIfAny(ctx)))?.caFor(server);
  const ca = chosen ? await ctx.deps.checkCaFile(chosen) : undefined;
  // As `gh auth login` does: prove the server, its CA and the key work together before saving, so
  // a typo never replaces a working profile (keys are shown once: a lost one means a new key).
  const info = await checkKey(ctx, { server, key: options.key, ca }).catch((error: unknown) => {
    throw nothingSaved(toCliError(error), site);
  });
  if (info.domain.toLowerCase() !== site.toLowerCase()) {
    throw new CliError('wrong_site', `the key belongs to ${info.domain}, not ${site}; nothing was saved`, {
      hint: `wafctl login --site ${info.domain} --key KEY${ctx.globals.server ? ` --server ${server}` : ''}`,
    });
  }
  await ctx.deps.profiles.save(site, { server, key: options.key, ...(ca ? { ca } : {}) });
  ctx.out.info(`logged in: site ${site} at ${server}${ca ? ` (CA ${ca})` : ''}; profile saved in ${ctx.deps.profiles.path}`);
  ctx.out.data({ site, server, ca: ca ?? null }, () => '');
}

interface LocalDaemon {
  api_url: string;
  /** The local daemon's CA file when `server` is this daemon's API: its certificate comes from that CA. */
  caFor(server: string): string | undefined;
}

async function localDaemon(ctx: CommandContext): Promise<LocalDaemon> {
  const status = await ctx.admin().status().catch((error: unknown) => {
    throw new CliError('usage_error', `no --server given and no local daemon to ask (${(error as Error).message})`, {
      hint: 'pass --server https://HOST:PORT (and --ca FILE for a private CA)',
    });
  });
  return { api_url: status.api_url, caFor: (server) => (sameOrigin(server, status.api_url) ? status.ca_file ?? undefined : undefined) };
}

/** With --server given, a local daemon is only asked about its CA; none running is fine. */
async function localDaemonIfAny(ctx: CommandContext): Promise<LocalDaemon | undefined> {
  return localDaemon(ctx).catch(() => undefined);
}

/** The CA pinned in this site's saved profile, kept when the server stays the same and --ca is absent. */
async function keptCa(ctx: CommandContext, site: string, server: string): Promise<string | undefined> {
  const saved = (await ctx.deps.profiles.load()).profiles[site];
  return saved && sameOrigin(saved.server, server) ? saved.ca : undefined;
}

function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}

function nothingSaved(error: CliError, site: string): CliError {
  return new CliError(error.code, `${error.message} (nothing was saved; the profile of ${site} is unchanged)`, { hint: error.hint, exitCode: error.exitCode });
}

function checkServer(server: string): void {
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    throw new CliError('validation_error', `--server is not a URL: ${server}`);
  }
  if (url.protocol !== 'https:') {
    throw new CliError('validation_error', `--server must be an https:// URL (the API speaks HTTPS only), got ${server}`);
  }
}
