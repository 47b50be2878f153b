// After `site add` and `site key`: keep the new key as the login profile for that site, pointing at
// this daemon's API (api_url, ca_file from /admin/status), so the next `wafctl ip-rules ...` just works.
import type { CommandContext } from '../../context.js';
import { CliError } from '../../cli-error.js';

export async function saveKeyAsLogin(ctx: CommandContext, domain: string, key: string): Promise<void> {
  try {
    const status = await ctx.admin().status();
    await ctx.deps.profiles.save(domain, { server: status.api_url, key, ca: status.ca_file ?? undefined });
    ctx.out.info(`saved as the login profile for ${domain} (${ctx.deps.profiles.path})`);
  } catch (error) {
    if (error instanceof CliError) throw error; // the daemon's own answer, already in its shape
    // The key exists now and was printed above; failing to remember it must not hide that, nor read
    // as a fault of the daemon (a home directory the user cannot write, a full disk).
    throw new CliError('login_not_saved', `the key was not saved as the login profile for ${domain}: ${(error as Error).message}`, {
      hint: `the change itself is done and the key is printed above; run with --no-login, or make ${ctx.deps.profiles.path} writable and run \`wafctl login\``,
    });
  }
}
