// The site a `protect` or `rules` command acts on: --site, else $WAFCTL_SITE, else the current
// login profile (the same order as the management API commands).
import { usageError } from '../../cli-error.js';
import type { CommandContext } from '../../context.js';

export async function targetSite(ctx: CommandContext): Promise<string> {
  const { site } = await ctx.deps.profiles.resolve({ site: ctx.globals.site });
  if (!site) throw usageError('no site given', 'name it with --site DOMAIN (or set WAFCTL_SITE)');
  return site;
}
