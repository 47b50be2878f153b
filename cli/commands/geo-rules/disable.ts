// wafctl geo-rules disable (PUT /geo-rules {enabled: false}; mode and countries are kept).
import type { Command } from 'commander';
import type { GeoRules } from '../../../shared/schemas/management-api.js';
import { withContext, type CommandDeps } from '../../context.js';

export function registerGeoRulesDisable(group: Command, deps: CommandDeps): void {
  group
    .command('disable')
    .description('turn geo-blocking off (the mode and countries are kept for the next `set`)')
    .addHelpText('after', '\nExample:\n  wafctl geo-rules disable\n')
    .action(
      withContext(deps, async (ctx) => {
        const result = await (await ctx.api()).request<GeoRules>('PUT', '/geo-rules', { body: { enabled: false } });
        ctx.out.data(result.data, () => '');
        if (!ctx.out.json) ctx.out.info(result.message ?? 'geo blocking disabled');
      }),
    );
}
