// wafctl token create NAME: an ingestion token (Authorization: Bearer), shown once.
import type { Command } from 'commander';
import { withContext, type CommandDeps } from '../../context.js';

export function registerTokenCreate(token: Command, deps: CommandDeps): void {
  token
    .command('create')
    .description('create an ingestion API token (shown once; only its hash is kept)')
    .argument('<name>', 'what the token is for, e.g. "vector on web-1"')
    .addHelpText('after', '\nExample:\n  wafctl token create vector-web-1 --json\n')
    .action(
      withContext(deps, async (ctx, name: string) => {
        const created = await ctx.admin().createToken(name);
        ctx.out.info(`token ${created.id} created; it is shown only this once`);
        ctx.out.fields(
          [
            ['id', String(created.id)],
            ['name', created.name],
            ['token', created.token],
          ],
          { id: created.id, token: created.token },
        );
      }),
    );
}
