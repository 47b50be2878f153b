// wafctl geo-rules set --mode whitelist|blacklist --countries US,CA (PUT /geo-rules, enabled).
import { Option, type Command } from 'commander';
import type { GeoRules } from '../../../shared/schemas/management-api.js';
import { usageError } from '../../cli-error.js';
import { withContext, type CommandDeps } from '../../context.js';

export function parseCountryList(text: string): string[] {
  const countries = text.split(',').map((c) => c.trim()).filter((c) => c !== '');
  if (countries.length === 0) throw usageError('--countries needs at least one ISO 3166-1 alpha-2 code, e.g. US,CA');
  return countries;
}

export function registerGeoRulesSet(group: Command, deps: CommandDeps): void {
  group
    .command('set')
    .description('enable geo-blocking with a mode and a country list (replaces the current rules)')
    .addOption(new Option('--mode <mode>', 'whitelist: only these countries; blacklist: all but these').choices(['whitelist', 'blacklist']).makeOptionMandatory())
    .requiredOption('--countries <codes>', 'comma-separated ISO 3166-1 alpha-2 codes, e.g. US,CA')
    .addHelpText('after', '\nExample:\n  wafctl geo-rules set --mode blacklist --countries RU,KP\n')
    .action(
      withContext(deps, async (ctx, options: { mode: 'whitelist' | 'blacklist'; countries: string }) => {
        const body = { enabled: true, mode: options.mode, countries: parseCountryList(options.countries) };
        const result = await (await ctx.api()).request<GeoRules>('PUT', '/geo-rules', { body });
        ctx.out.data(result.data, () => '');
        if (!ctx.out.json) ctx.out.info(result.message ?? 'geo rules saved');
      }),
    );
}
