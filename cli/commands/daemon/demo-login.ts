// After `daemon start --demo`: leave a working login profile for demo.localhost, so `wafctl logs`,
// `wafctl analytics` and the TUI work at once. A saved key that still opens the demo
// site on this daemon is kept (only its server and CA are refreshed: port 0 gives new ports).
// Otherwise the demo site gets a new key: it is the daemon's own test site, so replacing its key
// breaks nothing of the operator's, and the daemon keeps only hashes, so there is no other way.
import type { DaemonStatusView } from '../../admin-api.js';
import type { CommandContext } from '../../context.js';
import { checkKey } from '../../key-check.js';

export async function loginToDemo(ctx: CommandContext, status: DaemonStatusView, domain: string): Promise<void> {
  const server = status.api_url;
  const ca = status.ca_file ?? undefined;
  const saved = (await ctx.deps.profiles.load()).profiles[domain];
  let key: string | undefined = saved?.key;
  if (key && !(await opensDemo(ctx, { server, key, ca }, domain))) key = undefined;
  key ??= (await ctx.admin().newSiteKey(domain)).api_key;
  await ctx.deps.profiles.save(domain, { server, key, ...(ca ? { ca } : {}), ...(saved?.token ? { token: saved.token } : {}) });
  ctx.out.info(`logged in to ${domain} (profile in ${ctx.deps.profiles.path}): try \`wafctl logs\` and \`wafctl analytics\``);
}

async function opensDemo(ctx: CommandContext, candidate: { server: string; key: string; ca?: string }, domain: string): Promise<boolean> {
  try {
    return (await checkKey(ctx, candidate)).domain === domain;
  } catch {
    return false; // a key replaced by hand, another daemon's profile: make a new one
  }
}
