// wafctl account api-access [on|off]: whether the account's ingestion tokens are accepted at all.
import { Argument, type Command } from 'commander';
import { withContext, type CommandDeps } from '../../context.js';

export function registerAccountApiAccess(account: Command, deps: CommandDeps): void {
  account
    .command('api-access')
    .description('turn ingestion API access on or off for the account (no argument: show it)')
    .addArgument(new Argument('[state]', 'on or off').choices(['on', 'off']))
    .addHelpText('after', '\nExamples:\n  wafctl account api-access on\n  wafctl account api-access --json\n')
    .action(
      withContext(deps, async (ctx, state: 'on' | 'off' | undefined) => {
        const admin = ctx.admin();
        const account = state === undefined ? await admin.getAccount() : await admin.setApiAccess(state === 'on');
        if (state !== undefined) ctx.out.info(`API access is now ${account.api_access ? 'on' : 'off'} for account ${account.name}`);
        ctx.out.fields(
          [
            ['account', `${account.name} (id ${account.id})`],
            ['api access', account.api_access ? 'on' : 'off'],
          ],
          account,
        );
      }),
    );
}
