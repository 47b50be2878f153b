// wafctl login --site DOMAIN --key KEY [--server URL] [--ca FILE]: saves the profile the management
// API commands use. --site and --server are the global options of the same names. Without
// --server, the local daemon's api_url and ca_file are used (it must be running then).
import type { Command } from 'commander';
import { CliError, usageError } from '../cli-error.js';
import { withContext, type CommandContext, type CommandDeps } from '../context.js';
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
    .option('--ca <file>', 'PEM file of the CA that signed the server certificate (default: the system CAs)', parsePath)
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
  let server = ctx.globals.server;
  let ca = options.ca;
  if (!server) {
    const status = await ctx.admin().status().catch((error: unknown) => {
      throw new CliError('usage_error', `no --server given and no local daemon to ask (${(error as Error).message})`, {
        hint: 'pass --server https://HOST:PORT (and --ca FILE for a private CA)',
      });
    });
    server = status.api_url;
    ca ??= status.ca_file ?? undefined;
  }
  checkServer(server);
  if (ca) ca = await ctx.deps.checkCaFile(ca);
  await ctx.deps.profiles.save(site, { server, key: options.key, ...(ca ? { ca } : {}) });
  ctx.out.info(`logged in: site ${site} at ${server}; profile saved in ${ctx.deps.profiles.path}`);
  ctx.out.data({ site, server, ca: ca ?? null }, () => '');
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
