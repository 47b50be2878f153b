// wafctl ip-rules list: both lists (GET /ip-rules).
import type { Command } from 'commander';
import type { IpRule, IpRules } from '../../../shared/schemas/management-api.js';
import { withContext, type CommandDeps } from '../../context.js';
import type { Column } from '../../table.js';

type Row = IpRule & { list: string };

const columns: Column<Row>[] = [
  { header: 'LIST', value: (r) => r.list, paint: (text, style) => (text === 'blacklist' ? style.red(text) : style.green(text)) },
  { header: 'IP', value: (r) => r.ip },
  { header: 'DESCRIPTION', value: (r) => r.description || '-' },
  { header: 'ADDED', value: (r) => r.added_at },
];

export function registerIpRulesList(group: Command, deps: CommandDeps): void {
  group
    .command('list')
    .description('show the IP whitelist and blacklist')
    .addHelpText('after', '\nExample:\n  wafctl ip-rules list --json\n')
    .action(
      withContext(deps, async (ctx) => {
        const rules = await (await ctx.api()).get<IpRules>('/ip-rules');
        const rows: Row[] = [
          ...rules.whitelist.map((rule) => ({ ...rule, list: 'whitelist' })),
          ...rules.blacklist.map((rule) => ({ ...rule, list: 'blacklist' })),
        ];
        ctx.out.list(rows, columns, { empty: 'no IP rules yet: add one with `wafctl ip-rules add IP --blacklist`', json: rules });
      }),
    );
}
