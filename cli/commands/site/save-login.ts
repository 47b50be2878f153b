// After `site add` and `site key`: keep the new key as the login profile for that site, pointing at
// this daemon's API (api_url, ca_file from /admin/status), so the next `wafctl ip-rules ...` just works.
import type { CommandContext } from '../../context.js';

export async function saveKeyAsLogin(ctx: CommandContext, domain: string, key: string): Promise<void> {
  try {
    const status = await ctx.admin().status();
    await ctx.deps.profiles.save(domain, { server: status.api_url, key, ca: status.ca_file ?? undefined });
    ctx.out.info(`saved as the login profile for ${domain} (${ctx.deps.profiles.path})`);
  } catch (error) {
    // The key exists now and was printed above; failing to remember it must not hide that.
    ctx.out.warn(`the key was not saved as a login profile: ${(error as Error).message}`);
    throw error;
  }
}
