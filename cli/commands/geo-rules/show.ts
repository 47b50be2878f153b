// wafctl geo-rules show (GET /geo-rules).
import type { Command } from 'commander';
import type { GeoRules } from '../../../shared/schemas/management-api.js';
import { withContext, type CommandDeps } from '../../context.js';

export function registerGeoRulesShow(group: Command, deps: CommandDeps): void {
  group
    .command('show')
    .description('show the geographic access rules')
    .addHelpText('after', '\nExample:\n  wafctl geo-rules show --json\n')
    .action(
      withContext(deps, async (ctx) => {
        const rules = await (await ctx.api()).get<GeoRules>('/geo-rules');
        ctx.out.fields(
          [
            ['enabled', rules.enabled ? 'yes' : 'no'],
            ['mode', rules.mode === 'whitelist' ? 'whitelist (only these countries may reach the site)' : 'blacklist (these countries are blocked)'],
            ['countries', rules.countries.join(', ') || '-'],
          ],
          rules,
        );
      }),
    );
}
